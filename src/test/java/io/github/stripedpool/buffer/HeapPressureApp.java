package io.github.stripedpool.buffer;

import java.util.ArrayList;
import java.util.List;

/**
 * Run by {@link HeapTrimTest} in a child JVM with a 64 MiB heap: collections with a nearly
 * empty heap leave the idle buffers alone; with the heap filled to about 90 % by live arrays,
 * the next collections drop them. Prints what each phase ended with.
 */
public final class HeapPressureApp {
    private HeapPressureApp() {
    }

    public static void main(String[] args) {
        try (BufferPool<byte[]> pool = BufferPool.bytes().build()) {
            HeapTrimTest.fill(pool, 20);
            for (int i = 0; i < 5; i++) {
                System.gc();
            }
            System.out.println("calm: trims " + pool.stats().trims() + ", idle " + pool.stats().idleBytes());
            List<byte[]> live = new ArrayList<>();
            long max = Runtime.getRuntime().maxMemory();
            while (used() < 0.9 * max) {
                live.add(new byte[256 * 1024]);
            }
            long deadline = System.nanoTime() + 20_000_000_000L;
            while ((pool.stats().trims() == 0 || pool.stats().idleBytes() != 0) && System.nanoTime() < deadline) {
                System.gc();
            }
            System.out.println("pressed: trims " + pool.stats().trims() + ", idle " + pool.stats().idleBytes());
            System.out.println("live arrays: " + live.size());
        }
    }

    private static long used() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
