package io.github.stripedpool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/**
 * Runs in a child JVM with a small heap ({@link LibraryThreadsTest}): every kind of background
 * work the library does (bounded eviction, the bounded refill to {@code minIdle}, the bounded
 * reclaim of a leaked object's capacity, unbounded aging, leak reports) is checked by its effect after each of the JVM's bad moments in turn:
 * an interrupt sent from outside to every library thread, hooks that throw
 * {@link StackOverflowError}, and the heap exhausted for a while, several times, while the
 * library's threads are at work. Prints {@value #SURVIVED} and exits 0 if every effect came back
 * after every phase; prints which did not and exits 1 otherwise.
 *
 * <p>Every check polls with a deadline: the work is periodic, and a check that slept instead
 * would pass or fail with the machine's speed.
 */
final class LibraryThreadsApp {
    static final String SURVIVED = "every kind of background work went on after every phase";

    private static final long DEADLINE_SECONDS = 20;

    private final AtomicInteger evicted = new AtomicInteger();
    private final AtomicInteger made = new AtomicInteger();
    private final AtomicInteger aged = new AtomicInteger();
    private final AtomicInteger reported = new AtomicInteger();
    /** Set by a phase: the next call of each hook throws StackOverflowError, once. */
    private volatile boolean overflowNext;

    private final Pool<byte[]> evicting = Pool.builder(() -> new byte[64]).name("evicting")
            .maxTotal(4).maxIdleTime(Duration.ofMillis(40))
            .destroy(x -> {
                evicted.incrementAndGet();
                overflowOnce();
            }).build();
    private final Pool<byte[]> refilling = Pool.builder(() -> {
        made.incrementAndGet();
        return new byte[64];
    }).name("refilling").maxTotal(4).minIdle(2).build();
    private final Pool<byte[]> aging = Pool.builder(() -> new byte[64]).name("aging")
            .agingInterval(Duration.ZERO)
            .destroy(x -> {
                aged.incrementAndGet();
                overflowOnce();
            }).build();
    private final Pool<byte[]> tracked = Pool.builder(() -> new byte[64]).name("tracked")
            .leakDetection(LeakDetection.PARANOID)
            .onLeak(r -> {
                reported.incrementAndGet();
                overflowOnce();
            }).build();

    /** Its one object is leaked at every check: only the reclaim of its capacity lets it hand out again. */
    private final Pool<byte[]> reclaiming = Pool.builder(() -> new byte[64]).name("reclaiming")
            .maxTotal(1).leakDetection(LeakDetection.PARANOID).onLeak(r -> { }).build();

    private LibraryThreadsApp() {
    }

    private void overflowOnce() {
        if (overflowNext) {
            overflowNext = false;
            throw new StackOverflowError("thrown on purpose by a hook");
        }
    }

    public static void main(String[] args) throws Exception {
        new LibraryThreadsApp().run();
    }

    private void run() throws Exception {
        // Every path this program takes later runs once now, so that no class is first loaded
        // while the heap is full (a class whose initialisation fails then stays unusable: this
        // program's failure, not the library's).
        List<String> failures = new ArrayList<>();
        check("at the start", failures);
        System.out.println(HeapExhaustionApp.libraryThreads().length());

        for (int round = 0; round < 3; round++) {
            interruptLibraryThreads();
            check("after interrupts, round " + round, failures);
        }
        overflowNext = true;
        check("after hooks threw StackOverflowError", failures);
        for (int round = 0; round < 4; round++) {
            exhaustTheHeapWhileTheLibraryWorks();
            check("after heap exhaustion, round " + round, failures);
        }
        if (failures.isEmpty()) {
            System.out.println(SURVIVED);
            System.exit(0);
        }
        System.out.println("FAILED:\n  " + String.join("\n  ", failures) + "\n" + evicting.stats() + "\n"
                + refilling.stats() + "\n" + reclaiming.stats() + "\n" + aging.stats() + "\n"
                + tracked.stats() + "\n" + HeapExhaustionApp.libraryThreads());
        System.exit(1);
    }

    /** Sets up one of each effect and waits for all five; records the ones that did not come. */
    private void check(String phase, List<String> failures) throws InterruptedException {
        int evictedBefore = evicted.get();
        int agedBefore = aged.get();
        int reportedBefore = reported.get();
        HeapExhaustionApp.idle(evicting, 2); // idle past maxIdleTime: evicted
        HeapExhaustionApp.idle(aging, 4); // never used again: aged out within two cycles
        byte[] x = refilling.acquire();
        refilling.invalidate(x); // below minIdle now, or soon: refilled
        int madeBefore = made.get();
        refilling.invalidate(refilling.acquire()); // an object made or taken, then destroyed
        expect(phase, "bounded eviction", () -> evicted.get() >= evictedBefore + 2, failures);
        expect(phase, "unbounded aging", () -> {
            System.gc(); // aging runs at collections
            return aged.get() >= agedBefore + 4;
        }, failures);
        expect(phase, "leak reports", () -> {
            tracked.acquire(); // dropped without release: a leak
            System.gc();
            return reported.get() >= reportedBefore + 2;
        }, failures);
        leakTheOnlyObject();
        expect(phase, "bounded reclaim of leaked capacity", () -> {
            System.gc(); // the leak is found at a collection
            return handsOutItsOnlyObject();
        }, failures);
        expect(phase, "bounded refill to minIdle", () -> made.get() > madeBefore
                && refilling.stats().idle() >= 2, failures);
    }

    /** Acquires the pool's only object and drops it without release. */
    private void leakTheOnlyObject() {
        try {
            reclaiming.acquire(Duration.ZERO);
        } catch (PoolTimeoutException lastOneNotReclaimed) {
            // already recorded as a failure by the check that waited for it
        }
    }

    private boolean handsOutItsOnlyObject() {
        byte[] x;
        try {
            x = reclaiming.acquire(Duration.ZERO);
        } catch (PoolTimeoutException stillLeaked) {
            return false;
        }
        reclaiming.release(x);
        return true;
    }

    private static void expect(String phase, String what, BooleanSupplier done, List<String> failures)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                String f = what + " stopped " + phase;
                System.out.println(f);
                failures.add(f);
                return;
            }
            Thread.sleep(20); // a poll interval; the deadline bounds the wait
        }
        System.out.println(what + " still runs " + phase);
    }

    /** Interrupts every thread the library started, from outside, as a careless caller might. */
    private static void interruptLibraryThreads() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(Background.THREAD_PREFIX)) {
                t.interrupt();
            }
        }
    }

    /**
     * Fills the heap until even small allocations fail and keeps it full for about half a
     * second, many maintenance periods, while collections run: the library's threads wake and
     * allocate into a full heap.
     */
    private static void exhaustTheHeapWhileTheLibraryWorks() {
        List<Object> hog = HeapExhaustionApp.fillTheHeap();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
        while (System.nanoTime() - end < 0) {
            try {
                hog.add(new long[8]); // take whatever the library's threads free
            } catch (OutOfMemoryError stillFull) {
                // expected
            }
            try {
                System.gc();
            } catch (OutOfMemoryError stillFull) {
                // expected
            }
        }
        hog.clear();
    }
}
