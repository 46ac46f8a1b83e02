package io.github.stripedpool;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A pool on generational ZGC ({@link YoungCyclesTest}), whose young cycles clear no weak
 * reference: idle objects must still age, and be dropped, while the application makes only
 * short-lived garbage (young cycles) and never calls {@code System.gc()}. Prints {@link #DONE}
 * with the counts; any failed check throws.
 */
public final class YoungCyclesApp {
    static final String DONE = "young-cycles: done";

    /** Sink for the garbage, so that the allocations are not optimised away. */
    static volatile Object sink;

    private YoungCyclesApp() {
    }

    public static void main(String[] args) throws Exception {
        try (Pool<byte[]> pool = Pool.builder(() -> new byte[1024]).name("young").agingInterval(Duration.ZERO).build()) {
            byte[][] held = new byte[8][];
            for (int i = 0; i < held.length; i++) {
                held[i] = pool.acquire();
            }
            for (byte[] b : held) {
                pool.release(b);
            }
            // Each major cycle clears the clock's sentinel; only young cycles can account for
            // more aging cycles than major ones.
            GarbageCollectorMXBean major = bean("ZGC Major Cycles");
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (pool.stats().agingCycles() < major.getCollectionCount() + 5 || pool.stats().idle() > 0) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("idle objects did not age with the young cycles in 20 s (no "
                            + "more aging cycles than major ones): " + pool.stats() + "; " + cycles() + "; "
                            + AgingClock.describe());
                }
                for (int i = 0; i < 10_000; i++) {
                    sink = new byte[256]; // short-lived garbage: young cycles only
                }
            }
            System.out.println(DONE + ": " + pool.stats() + "; " + cycles());
        }
    }

    private static GarbageCollectorMXBean bean(String name) {
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (g.getName().equals(name)) {
                return g;
            }
        }
        throw new AssertionError("not generational ZGC: no " + name + " among " + cycles());
    }

    private static String cycles() {
        StringBuilder b = new StringBuilder();
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            b.append(g.getName()).append('=').append(g.getCollectionCount()).append(' ');
        }
        return b.toString().trim();
    }
}
