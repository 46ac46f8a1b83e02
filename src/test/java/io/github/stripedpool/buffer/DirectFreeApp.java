package io.github.stripedpool.buffer;

import java.nio.ByteBuffer;

/**
 * Run by {@link DirectBufferFreeTest} in a child JVM with a small
 * {@code -XX:MaxDirectMemorySize}: drops far more direct memory than the limit, through a
 * buffer pool ({@code pool}) or by plain allocation ({@code plain}, the control that shows the
 * limit bites), and prints how it ended.
 */
public final class DirectFreeApp {
    /** Bytes dropped in all: 256 times an 8 MiB limit. */
    static final long TOTAL = 2L << 30;

    private DirectFreeApp() {
    }

    public static void main(String[] args) {
        String mode = args.length > 0 ? args[0] : "pool";
        long dropped = 0;
        try {
            if (mode.equals("plain")) {
                for (; dropped < TOTAL; dropped += 2 << 20) {
                    ByteBuffer.allocateDirect(2 << 20).put(0, (byte) 1);
                }
            } else {
                // The 1 MiB class keeps none under this budget; 2 MiB is oversized: every
                // buffer acquired here is dropped at its release.
                try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers()
                        .maxClassSize(1 << 20).budget(1 << 20).build()) {
                    while (dropped < TOTAL) {
                        ByteBuffer a = pool.acquire(1 << 20);
                        ByteBuffer b = pool.acquire(2 << 20);
                        a.put(0, (byte) 1);
                        b.put(0, (byte) 1);
                        pool.release(a);
                        pool.release(b);
                        dropped += 3 << 20;
                    }
                    System.out.println("stats: " + pool.stats().classStats(pool.stats().classCount() - 1));
                }
            }
            System.out.println("done: dropped " + (dropped >> 20) + " MiB");
        } catch (OutOfMemoryError e) {
            System.out.println("failed after " + (dropped >> 20) + " MiB: " + e);
        }
    }
}
