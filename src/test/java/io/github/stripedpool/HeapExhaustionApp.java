package io.github.stripedpool;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs in a child JVM with a small heap ({@link HeapExhaustionTest}): a destroy hook and a leak
 * listener that throw {@link OutOfMemoryError}, leaks pending while the heap is exhausted for
 * real, then a check that the library still ages idle objects and still reports leaks. Exits 0
 * and prints {@value #SURVIVED} if it does, exits 1 otherwise.
 */
final class HeapExhaustionApp {
    static final String SURVIVED = "background work survived heap exhaustion";

    private static final int WANTED = 3;
    private static final long DEADLINE_SECONDS = 30;

    /** Set by the system property {@value #COLD_PROPERTY}: see {@link HeapExhaustionTest}. */
    static final String COLD_PROPERTY = "heapExhaustion.cold";
    private static final boolean COLD = Boolean.getBoolean(COLD_PROPERTY);

    /** Threads that ended with an uncaught throwable, and the last such throwable. */
    private static final AtomicInteger died = new AtomicInteger();
    private static volatile Throwable lastDeath;

    private HeapExhaustionApp() {
    }

    public static void main(String[] args) throws Exception {
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            died.incrementAndGet();
            lastDeath = e;
        });
        AtomicInteger destroyed = new AtomicInteger();
        AtomicInteger reported = new AtomicInteger();
        Pool<byte[]> aging = Pool.builder(() -> new byte[64]).name("aging")
                .agingInterval(Duration.ZERO)
                .destroy(x -> {
                    if (destroyed.getAndIncrement() == 0) {
                        throw new OutOfMemoryError("thrown on purpose by a destroy hook");
                    }
                }).build();
        Pool<byte[]> tracked = Pool.builder(() -> new byte[64]).name("tracked")
                .leakDetection(LeakDetection.PARANOID)
                .onLeak(r -> {
                    if (reported.getAndIncrement() == 0) {
                        throw new OutOfMemoryError("thrown on purpose by a leak listener");
                    }
                }).build();

        // Every path this program takes after the exhaustion runs once before it, so that no
        // class of the program is first loaded while the heap is full: a class whose
        // initialisation fails then is unusable for good, which would be this program's
        // failure, not the library's.
        System.out.println(aging.stats() + "\n" + tracked.stats() + "\n" + libraryThreads().length());
        idle(aging, 1);
        // Cold: so few objects that no collection runs before the exhaustion, and the library's
        // background work (aging jobs, leak reports, the workers that run them) runs for the
        // first time while the heap is full.
        leak(tracked, COLD ? 1 : 2_000); // reported while the heap is full
        idle(aging, 8);
        System.out.println("collections before the exhaustion: " + collections());
        exhaustTheHeap();
        System.out.println("the heap was exhausted; now checking that the background work goes on");

        int destroyedBefore = destroyed.get();
        int reportedBefore = reported.get();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        idle(aging, 8); // not used again: all age out within two cycles
        while ((destroyed.get() < destroyedBefore + WANTED || reported.get() < reportedBefore + WANTED)
                && System.nanoTime() < deadline) {
            leak(tracked, 1);
            System.gc();
            Thread.sleep(20); // a poll interval; the deadline bounds the loop
        }
        String line = "after the heap was exhausted: " + (destroyed.get() - destroyedBefore)
                + " objects aged out, " + (reported.get() - reportedBefore) + " leaks reported";
        boolean ok = destroyed.get() >= destroyedBefore + WANTED && reported.get() >= reportedBefore + WANTED;
        System.out.println(ok ? SURVIVED + ": " + line : "FAILED: " + line + "\n" + aging.stats()
                + "\n" + tracked.stats() + "\n" + tracked + "\n" + libraryThreads());
        System.exit(ok ? 0 : 1);
    }

    private static long collections() {
        long n = 0;
        for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
            n += Math.max(0, b.getCollectionCount());
        }
        return n;
    }

    /** The library's threads and what each is doing, for a failure report. */
    static String libraryThreads() {
        StringBuilder b = new StringBuilder(AgingClock.describe()).append("\nthreads ended by a throwable: ")
                .append(died.get());
        if (lastDeath != null) {
            StringWriter w = new StringWriter();
            lastDeath.printStackTrace(new PrintWriter(w));
            b.append(", the last by ").append(w);
        }
        b.append("\nthe library's threads:");
        Thread.getAllStackTraces().forEach((t, stack) -> {
            // The JVM's own "Reference Handler" too: every clock depends on its queues.
            if (t.getName().startsWith(Background.THREAD_PREFIX) || t.getName().equals("Reference Handler")) {
                b.append("\n  ").append(t.getName()).append(' ').append(t.getState());
                for (StackTraceElement e : stack) {
                    b.append("\n    at ").append(e);
                }
            }
        });
        return b.toString();
    }

    /** Acquires {@code n} objects and drops them without releasing them. */
    private static void leak(Pool<byte[]> pool, int n) {
        for (int i = 0; i < n; i++) {
            pool.acquire();
        }
    }

    /**
     * Allocates until even small allocations fail; the caller keeps the heap full by holding
     * what is returned.
     */
    static List<Object> fillTheHeap() {
        List<Object> hog = new ArrayList<>();
        try {
            for (;;) {
                hog.add(new long[1 << 16]);
            }
        } catch (OutOfMemoryError full) {
            // the heap is full of large arrays
        }
        try {
            for (;;) {
                hog.add(new long[64]);
            }
        } catch (OutOfMemoryError full) {
            // now even small allocations fail
        }
        return hog;
    }

    /** Releases {@code n} objects from a thread that then ends, so that they sit idle. */
    static void idle(Pool<byte[]> pool, int n) throws InterruptedException {
        Thread t = new Thread(() -> {
            List<byte[]> held = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                held.add(pool.acquire());
            }
            held.forEach(pool::release);
        });
        t.start();
        t.join();
    }

    /** Fills the heap until allocation fails, and keeps it full through a series of collections. */
    private static void exhaustTheHeap() {
        List<Object> hog = fillTheHeap();
        for (int i = 0; i < 50; i++) {
            System.gc();
            try {
                hog.add(new long[8]);
            } catch (OutOfMemoryError stillFull) {
                // expected
            }
        }
        hog.clear();
    }
}
