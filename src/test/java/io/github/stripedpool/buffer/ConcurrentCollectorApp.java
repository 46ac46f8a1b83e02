package io.github.stripedpool.buffer;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

/**
 * Run by {@link HeapTrimTest} in a child JVM on a concurrent collector (ZGC or Shenandoah),
 * whose collections clear weak references before they free the garbage, or on a stop-the-world
 * one, whose heap is refilling when the pool reads it: first a heap a quarter (or
 * {@value #LIVE_PROPERTY}) full of live data under a buffer loop that makes garbage fast (bursts of held buffers, a
 * little garbage per request, as {@code HeadroomBenchmark} does) through at least
 * {@value #CYCLES} collections, where the pool must never trim; then live data up to 88 % of the
 * heap (above the default threshold, 85 %) and a few collections, where it must. Prints one line
 * per phase.
 */
public final class ConcurrentCollectorApp {
    /** The share of the heap the roomy phase keeps live: a system property, 0.25 if not set. */
    static final String LIVE_PROPERTY = "concurrentCollectorApp.live";

    /**
     * Bytes of an oversized buffer (above the pool's largest class, so allocated at each request)
     * acquired and released at every 16th request of the roomy phase: a system property, none if
     * not set. On G1, from half a region on, such an array goes straight to the old generation.
     */
    static final String LARGE_PROPERTY = "concurrentCollectorApp.large";

    /** Collections the roomy phase runs through at least. */
    static final int CYCLES = 200;

    /** Reachable from a static, so that the compiler cannot find the live data dead. */
    static final List<byte[]> LIVE = new ArrayList<>();
    static volatile Object sink;

    private ConcurrentCollectorApp() {
    }

    public static void main(String[] args) {
        long max = Runtime.getRuntime().maxMemory();
        double live = Double.parseDouble(System.getProperty(LIVE_PROPERTY, "0.25"));
        int large = Integer.getInteger(LARGE_PROPERTY, 0);
        fillLiveTo((long) (max * live));
        try (BufferPool<byte[]> pool = BufferPool.bytes().budget(8L << 20).minClassSize(1024).name("roomy").build()) {
            long start = collections();
            long deadline = System.nanoTime() + 60_000_000_000L;
            byte[][] held = new byte[256][];
            long k = 0;
            while ((collections() - start < CYCLES || k < 2_000_000) && System.nanoTime() < deadline) {
                for (int i = 0; i < 1000; i++, k++) {
                    int n = 1024 + (int) (k * 7919 % 31744);
                    byte[] b = pool.acquire(n);
                    b[n - 1] = 1;
                    if (k % 4096 < 4096 - held.length) {
                        pool.release(b);
                    } else {
                        int h = (int) (k % 4096) - (4096 - held.length);
                        held[h] = b;
                        if (h == held.length - 1) {
                            for (int j = 0; j < held.length; j++) {
                                pool.release(held[j]);
                                held[j] = null;
                            }
                        }
                    }
                    sink = new long[n >>> 5];
                    if (large > 0 && k % 16 == 0) {
                        byte[] l = pool.acquire(large);
                        l[large - 1] = 1;
                        pool.release(l);
                    }
                }
            }
            System.out.println("roomy: collections " + (collections() - start) + ", trims " + pool.stats().trims());
            fillLiveTo(max * 88 / 100);
            HeapTrimTest.fill(pool, 20);
            long pressed = System.nanoTime() + 30_000_000_000L;
            while (pool.stats().trims() == 0 && System.nanoTime() < pressed) {
                System.gc();
            }
            System.out.println("pressed: trims " + pool.stats().trims());
        }
        System.out.println("live arrays: " + LIVE.size());
    }

    private static void fillLiveTo(long bytes) {
        while ((long) LIVE.size() * 1040 < bytes) {
            LIVE.add(new byte[1024]);
        }
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, g.getCollectionCount());
        }
        return n;
    }
}
