package io.github.stripedpool;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs in a child JVM with a small heap ({@link HeapExhaustionTest}): a bounded pool is
 * asked to create while the heap is full to its last bytes, so that the allocations of its own
 * creation path fail: in phase 1 the new object's record (its reference and index slot), in
 * phase 2 the growth of its table of entries. The factory hands out objects made beforehand and
 * allocates nothing, so the failures are the pool's, after the factory has returned (phase 1)
 * or before it runs (phase 2). Then, the heap free again, the pool must hand out its whole
 * capacity at once, balance its accounting, and destroy every object it made exactly once.
 * Exits 0 and prints {@value #KEPT} if so, exits 1 otherwise.
 */
final class BoundedHeapExhaustionApp {
    static final String KEPT = "a bounded pool kept its capacity through heap exhaustion";

    private static final int MAX_TOTAL = 256;
    /** Acquires tried in each phase, each with the heap topped up first. */
    private static final int ATTEMPTS = 40;
    /** Indexes of the outcomes of the attempts. */
    private static final int GOT = 0;
    private static final int AFTER_FACTORY = 1;
    private static final int BEFORE_FACTORY = 2;
    private static final int OTHER = 3;

    /** Made before the exhaustion: the factory returns them in turn. Each counts its destroys. */
    private static final AtomicInteger[] SUPPLY = new AtomicInteger[4 * MAX_TOTAL + 6 * ATTEMPTS];
    private static int made;
    /**
     * Set by the system property {@value #WATCHED_PROPERTY}: the pool reports objects held too
     * long, so that every acquisition, an idle object's too, allocates its record (with a call
     * site) after the object is taken.
     */
    static final String WATCHED_PROPERTY = "exhaustion.watched";
    private static final boolean WATCHED = Boolean.getBoolean(WATCHED_PROPERTY);
    /** The heap's last bytes, chained, while it is full. */
    private static Object lastBytes;

    private BoundedHeapExhaustionApp() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < SUPPLY.length; i++) {
            SUPPLY[i] = new AtomicInteger();
        }
        PoolBuilder<AtomicInteger> builder = Pool.builder(() -> SUPPLY[made++]).maxTotal(MAX_TOTAL)
                .destroy(AtomicInteger::incrementAndGet).name("exhausted");
        if (WATCHED) {
            builder.reportHeldLongerThan(Duration.ofHours(1)); // a record of each acquisition
        }
        Pool<AtomicInteger> pool = builder.build();
        AtomicInteger[] held = new AtomicInteger[MAX_TOTAL];
        int[] outcomes = new int[4]; // got, out of memory after the factory, before it, other
        warmUp(pool);
        System.out.println("before: " + pool.stats());

        // Phase 1: the table has free entries; the object's record cannot be allocated.
        int n = giveBack(pool, held, whileFull(pool, held, 0, outcomes));
        int failuresInPhase1 = outcomes[AFTER_FACTORY];
        System.out.println("phase 1, the record: " + describe(outcomes) + "; " + pool.stats());

        // Phase 2: every entry of the table is held; the table cannot grow. (A growth that
        // succeeds anyway, which a collector can allow in a heap full to its last bytes, leaves
        // free entries: then the phase runs again with the longer table held.)
        int failuresInPhase2 = 0;
        for (int round = 0; round < 3 && failuresInPhase2 == 0; round++) {
            int tableLength = ((BoundedPool<?>) pool).entriesMade();
            while (n < tableLength) {
                held[n++] = pool.acquire(Duration.ZERO);
            }
            java.util.Arrays.fill(outcomes, 0);
            n = giveBack(pool, held, whileFull(pool, held, n, outcomes));
            failuresInPhase2 = outcomes[BEFORE_FACTORY];
            System.out.println("phase 2, the table (" + tableLength + " entries): " + describe(outcomes) + "; "
                    + pool.stats());
        }

        StringBuilder problems = new StringBuilder();
        // Each phase must have failed where it means to: after the factory, and before it.
        if (failuresInPhase1 == 0) {
            problems.append("\nphase 1: no acquire failed after the factory had returned");
        }
        if (failuresInPhase2 == 0) {
            problems.append("\nphase 2: no acquire failed growing the table");
        }
        n = handOutAtOnce(pool, held, n, MAX_TOTAL, problems);
        giveBack(pool, held, n);
        balancedAndDestroyedOnce(pool, SUPPLY, made, problems);
        System.out.println(problems.length() == 0 ? KEPT + ": " + made + " objects made; " + failuresInPhase1
                + " acquires failed for want of memory after the factory, " + failuresInPhase2 + " growing the table"
                : "FAILED:" + problems);
        System.exit(problems.length() == 0 ? 0 : 1);
    }

    /**
     * Every path the phases take, once before the heap is full, on this pool: an idle entry
     * popped stale (taken through the thread's hint while still in its stack), several objects
     * held at once, an invalidation. A path first run in a full heap can fail halfway through its
     * operation (a VarHandle call site is linked when it first runs, and that allocates): before
     * building a pool rehearsed them ({@link Rehearsal}, tested by {@link ColdPathsApp}), 3 runs
     * of 6 without this ended with the first entry IDLE, its idle-stack flag set, in no stack,
     * never handed out again. This program tests creation in a full heap, not that.
     */
    private static void warmUp(Pool<AtomicInteger> pool) {
        pool.release(pool.acquire(Duration.ZERO));
        pool.invalidate(pool.acquire());
        for (int r = 0; r < 3; r++) {
            AtomicInteger a = pool.acquire();
            AtomicInteger b = pool.acquire();
            AtomicInteger c = pool.acquire();
            pool.release(a);
            pool.release(b);
            pool.release(c);
        }
    }

    /**
     * Fills the heap, tries the acquires ({@link #tryWhileFull}), and frees the heap again.
     *
     * @return how many objects {@code held} holds now
     */
    private static int whileFull(Pool<AtomicInteger> pool, AtomicInteger[] held, int n, int[] outcomes) {
        List<Object> hog = HeapExhaustionApp.fillTheHeap();
        n = tryWhileFull(pool, held, n, outcomes);
        hog.clear();
        freeLastBytes();
        System.gc();
        return n;
    }

    /**
     * {@value #ATTEMPTS} acquires, each object got kept in {@code held} from index {@code n}
     * (a plain store: nothing to allocate), each after the heap's last bytes are taken; counts
     * the outcomes.
     */
    private static int tryWhileFull(Pool<AtomicInteger> pool, AtomicInteger[] held, int n, int[] outcomes) {
        for (int i = 0; i < ATTEMPTS && n < held.length; i++) {
            topUp();
            int before = made;
            try {
                held[n] = pool.acquire(Duration.ZERO);
                n++;
                outcomes[GOT]++;
            } catch (OutOfMemoryError expected) {
                outcomes[made != before ? AFTER_FACTORY : BEFORE_FACTORY]++;
            } catch (Throwable other) { // a timeout, if capacity was lost
                outcomes[OTHER]++;
            }
        }
        return n;
    }

    /** Takes what is left of the heap, to the last few bytes, in the smallest arrays, chained. */
    static void topUp() {
        try {
            for (;;) {
                Object[] link = new Object[1];
                link[0] = lastBytes;
                lastBytes = link;
            }
        } catch (OutOfMemoryError full) {
            // even the smallest array does not fit
        }
    }

    /** Gives back what {@link #topUp} took. */
    static void freeLastBytes() {
        lastBytes = null;
    }

    /**
     * The whole capacity at once, each object to one caller: acquires into {@code held} from
     * index {@code n} up to {@code maxTotal}, and notes in {@code problems} a unit lost (no object
     * within 2 s) or an object handed out twice.
     *
     * @return how many objects {@code held} holds now
     */
    static int handOutAtOnce(Pool<AtomicInteger> pool, AtomicInteger[] held, int n, int maxTotal,
            StringBuilder problems) {
        Set<AtomicInteger> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
        for (int i = 0; i < n; i++) {
            distinct.add(held[i]);
        }
        for (; n < maxTotal; n++) {
            try {
                held[n] = pool.acquire(Duration.ofSeconds(2));
            } catch (PoolTimeoutException e) {
                problems.append("\ncapacity lost: ").append(n).append(" of maxTotal ").append(maxTotal)
                        .append(" handed out at once: ").append(pool.stats());
                break;
            }
            if (!distinct.add(held[n])) {
                problems.append("\none object handed out twice");
            }
        }
        return n;
    }

    /**
     * With every object given back: notes in {@code problems} accounting that does not balance,
     * then closes the pool and notes each of the first {@code made} objects of {@code supply}
     * (each counting its destroys) not destroyed exactly once, and any other destroyed at all.
     */
    static void balancedAndDestroyedOnce(Pool<AtomicInteger> pool, AtomicInteger[] supply, int made,
            StringBuilder problems) {
        PoolStats s = pool.stats();
        if (s.created() - s.dropped() != s.idle() + s.inUse() || s.inUse() != 0) {
            problems.append("\nunbalanced: ").append(s);
        }
        pool.close();
        for (int i = 0; i < supply.length; i++) {
            int destroys = supply[i].get();
            if (destroys != (i < made ? 1 : 0)) {
                problems.append("\nobject ").append(i).append(" of ").append(made).append(" made: destroyed ")
                        .append(destroys).append(" times");
            }
        }
    }

    private static int giveBack(Pool<AtomicInteger> pool, AtomicInteger[] held, int n) {
        while (n > 0) {
            pool.release(held[--n]);
            held[n] = null;
        }
        return 0;
    }

    private static String describe(int[] outcomes) {
        return outcomes[GOT] + " got, out of memory " + outcomes[AFTER_FACTORY] + " after the factory and "
                + outcomes[BEFORE_FACTORY] + " before it, " + outcomes[OTHER] + " other";
    }
}
