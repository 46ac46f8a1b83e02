package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The pool called at every depth of a thread's stack up to its very end, so that a
 * {@link StackOverflowError} is thrown from every call inside it that can overflow: the pool
 * keeps working afterwards. Two defects this keeps out: an overflow while one of the library's
 * locks was held (a bounded pool's wait queue) left the lock taken for good, and every later
 * waiter of the pool waited for ever; a class of the library, or of the JDK, whose static
 * initialiser first ran at the end of a stack failed there, and could never be used again by any
 * pool of the JVM ({@link NoClassDefFoundError}).
 *
 * A third: an overflow on a bounded pool's creation path, between reserving a unit of capacity
 * and recording the new object, lost the unit for good.
 *
 * <p>Not promised, and not checked: an overflow in a release, or between handing an object out
 * and returning it to the caller, loses that object (an unbounded pool counts it in use; a
 * bounded pool loses its unit of capacity, until a collection finds a lost borrowed object).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StackLimitTest {
    private static QuietPoolLog quietLog;

    @BeforeAll
    static void quiet() {
        quietLog = new QuietPoolLog();
    }

    @AfterAll
    static void loud() {
        quietLog.close();
    }

    /**
     * Unbounded pools in every mode. (A bounded pool is walked through its waiting path and its
     * creation path, below: an overflow at the end of the stack inside a bounded pool's release
     * can still lose its unit of capacity.)
     */
    static Stream<Arguments> pools() {
        return StackLimitApp.modes().entrySet().stream().map(e -> Arguments.of(e.getKey(), e.getValue()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("pools")
    void noDepthOfTheStackBreaksThePool(String mode, Function<Tracked.Factory, PoolBuilder<Tracked>> builder)
            throws Exception {
        Tracked.Factory objects = new Tracked.Factory();
        try (Pool<Tracked> pool = builder.apply(objects).name("deep").build()) {
            long overflows = 0;
            // Threads of their own with a small stack: the walk down is short, and rounds with
            // the code interpreted and compiled cover different frame sizes.
            for (int round = 0; round < 12; round++) {
                StackWalk deep = walk(pool, mode + ", round " + round);
                assertEquals(0, deep.holding, "releases left undone at the top of the stack");
                overflows += deep.overflows;
                awaitWholeCapacity(mode, pool);
            }
            assertTrue(overflows > 0, "the stack never overflowed");
            PoolStats s = pool.stats(); // the counting lock is free
            assertTrue(s.acquired() > 0, s::toString);
        }
        assertEquals(java.util.List.of(), objects.destroyedTwice());
    }

    /**
     * The same walk in a new JVM, where no class of the library or of the JDK's concurrency
     * package has been initialised by other tests: a class whose static initialiser first runs
     * at the end of a stack fails there, and can never be used again by any pool of the JVM.
     */
    @org.junit.jupiter.api.Test
    void aFreshJvmsFirstAcquireAtTheEndOfTheStackBreaksNothing() throws Exception {
        String out = ChildJvm.run(StackLimitApp.class, 120, "-Xss256k");
        assertTrue(out.contains("walked: unbounded, unbounded with hooks, unbounded, paranoid, unbounded, sampled"),
                out);
    }

    /**
     * A bounded pool's only object is held, and a thread waits for it at every depth of its
     * stack, to the end: the wait queue's lock is taken and given back at each, and an overflow
     * while it is held would keep it taken for good. The object's next waiter gets it.
     */
    @org.junit.jupiter.api.Test
    void waitingAtTheEndOfTheStackLeavesTheQueueWorking() throws Exception {
        try (Pool<Tracked> pool = new Tracked.Factory().builder().maxTotal(1).name("deep-wait").build()) {
            Tracked held = pool.acquire();
            long overflows = 0;
            for (int round = 0; round < 6; round++) {
                StackWalk deep = walk(pool, "round " + round);
                assertEquals(0, deep.holding, "it never had the object");
                assertTrue(deep.timeouts > 0, "round " + round + ": no wait timed out");
                overflows += deep.overflows;
            }
            assertTrue(overflows > 0, "the stack never overflowed");
            java.util.concurrent.CompletableFuture<Tracked> next = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> pool.acquire(Duration.ofSeconds(20)));
            long deadline = System.nanoTime() + 20_000_000_000L;
            while (((BoundedPool<?>) pool).waiting() == 0 && !next.isDone() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            pool.release(held);
            Tracked got = next.get(30, TimeUnit.SECONDS);
            assertTrue(got == held, "the only object");
            pool.release(got);
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.inUse(), s::toString);
            assertEquals(0, ((BoundedPool<?>) pool).waiting());
        }
    }

    /** Bounded pools: plain, with every hook and leak detection, and watching for objects held too long. */
    static Stream<Arguments> boundedPools() {
        Function<Tracked.Factory, PoolBuilder<Tracked>> plain = f -> Pool.builder(f::create);
        Function<Tracked.Factory, PoolBuilder<Tracked>> hooks = f -> f.builder().validate(t -> true)
                .leakDetection(LeakDetection.PARANOID);
        Function<Tracked.Factory, PoolBuilder<Tracked>> watched = f -> Pool.builder(f::create)
                .reportHeldLongerThan(Duration.ofHours(1));
        return Stream.of(Arguments.of("bounded", plain), Arguments.of("bounded with hooks, paranoid", hooks),
                Arguments.of("bounded, reporting objects held too long", watched));
    }

    /**
     * A bounded pool with room for every object a walk keeps, so that each frame's acquire, down
     * to the end of the stack, reserves a unit of capacity and runs the factory: an overflow
     * anywhere on the way from the reservation to the caller must not take the unit with it,
     * nor the object (the factory here keeps every object reachable, so a lost one would never
     * come back, as a leak's unit does after a collection). Then the pool's whole capacity goes
     * out at once, each object to one caller. PARANOID and held-too-long pools record each
     * acquisition after the object is taken: a record that overflows is given up, not the object.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("boundedPools")
    void creatingAtTheEndOfTheStackLosesNoCapacity(String mode, Function<Tracked.Factory, PoolBuilder<Tracked>> builder)
            throws Exception {
        int capacity = 2 * StackWalk.NEAR; // more than a walk keeps: every acquire of a walk creates
        Tracked.Factory objects = new Tracked.Factory();
        try (Pool<Tracked> pool = builder.apply(objects).maxTotal(capacity).name("deep-create").build()) {
            long overflows = 0;
            long kept = 0;
            for (int round = 0; round < 8; round++) {
                StackWalk deep = walk(pool, StackWalk.keeping(pool), mode + ", round " + round);
                overflows += deep.overflows;
                kept += deep.holding;
                for (int i = 0; i < deep.holding; i++) {
                    pool.invalidate(deep.held[i]); // capacity back; the next walk creates again
                }
            }
            assertTrue(overflows > 0, "the stack never overflowed");
            assertTrue(kept > 0, "no acquire at the end of the stack succeeded");
            Tracked[] all = awaitWholeCapacity(mode, pool, capacity);
            for (Tracked t : all) {
                pool.release(t);
            }
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.inUse(), s::toString);
        }
        assertEquals(java.util.List.of(), objects.destroyedTwice());
    }

    /**
     * Walks a new thread with a 256 KiB stack down to its end (see {@link StackWalk}); fails,
     * with where it is, if the thread has not come back within 60 s.
     */
    private static StackWalk walk(Pool<Tracked> pool, String what) throws InterruptedException {
        return walk(pool, new StackWalk(pool), what);
    }

    private static StackWalk walk(Pool<Tracked> pool, StackWalk deep, String what) throws InterruptedException {
        Thread t = new Thread(null, () -> deep.down(0), "deep", 256 * 1024);
        t.start();
        t.join(60_000);
        if (t.isAlive()) {
            StringBuilder where = new StringBuilder();
            for (StackTraceElement f : t.getStackTrace()) {
                where.append("\n\tat ").append(f);
            }
            fail(what + ": a thread stuck for 60 s in the pool, after " + deep.overflows + " overflows:" + where);
        }
        return deep;
    }

    /**
     * Two objects at once, each to one caller, within 30 s (an unbounded pool hands them out at
     * once); given back.
     */
    private static void awaitWholeCapacity(String mode, Pool<Tracked> pool) {
        for (Tracked t : awaitWholeCapacity(mode, pool, 2)) {
            pool.release(t);
        }
    }

    /**
     * {@code capacity} objects at once, each to one caller, within 30 s: a bounded pool's whole
     * capacity, back once collections have found the objects that overflows lost to their callers
     * (a leak's unit comes back after a collection, when the pool has no other left).
     */
    private static Tracked[] awaitWholeCapacity(String mode, Pool<Tracked> pool, int capacity) {
        long deadline = System.nanoTime() + 30_000_000_000L;
        Tracked[] got = new Tracked[capacity];
        java.util.Set<Tracked> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int n = 0; n < capacity; ) {
            try {
                got[n] = pool.acquire(Duration.ofMillis(200));
                assertTrue(distinct.add(got[n]), "one object handed out twice");
                n++;
            } catch (PoolTimeoutException e) {
                if (System.nanoTime() - deadline > 0) {
                    fail(mode + ": capacity lost for good (" + n + " of " + capacity + " handed out): " + pool.stats()
                            + entryStates(pool));
                }
                System.gc();
            }
        }
        return got;
    }

    /** A bounded pool's entries by state, for a failure report. */
    private static String entryStates(Pool<Tracked> pool) {
        Pool<?> engine = pool instanceof LeakDetectingPool ? ((LeakDetectingPool<?>) pool).engine() : pool;
        if (!(engine instanceof BoundedPool)) {
            return "";
        }
        int[] byState = new int[4];
        int holding = 0;
        int cleared = 0;
        for (BoundedEntry e : ((BoundedPool<?>) engine).states().table.array()) {
            byState[e.state()]++;
            if (e.state() == BoundedEntry.BORROWED) {
                holding += e.item != null ? 1 : 0;
                cleared += e.ref != null && e.ref.refersTo(null) ? 1 : 0;
            }
        }
        return "; entries FREE " + byState[BoundedEntry.FREE] + ", IDLE " + byState[BoundedEntry.IDLE] + ", BORROWED "
                + byState[BoundedEntry.BORROWED] + " (" + holding + " still holding their object, " + cleared
                + " whose object was collected), RESERVED " + byState[BoundedEntry.RESERVED];
    }
}
