package io.github.stripedpool;

import io.github.stripedpool.buffer.BufferPool;

/**
 * Child JVM of {@link DropRecordHeapTest}: one thread takes an oversized heap buffer of 60% of
 * the heap, uses it, releases it (the pool drops it: oversized), and again, 8 times.
 * {@code mode=control} does the same with plain allocation, no pool.
 */
public final class DropRecordHeapApp {
    public static void main(String[] args) {
        String mode = System.getProperty("mode", "pooled");
        int size = (int) (Runtime.getRuntime().maxMemory() * 6 / 10);
        long sum = 0;
        try (BufferPool<byte[]> pool = BufferPool.bytes().budget(1 << 20).build()) {
            for (int i = 0; i < 8; i++) {
                byte[] b = mode.equals("control") ? new byte[size] : pool.acquire(size);
                b[i] = (byte) i;
                sum += b.length;
                if (!mode.equals("control")) {
                    pool.release(b); // oversized: dropped at once (the pool keeps none)
                }
            }
        }
        System.out.println("ok " + mode + " " + sum);
    }
}
