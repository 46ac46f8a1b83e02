package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 180, unit = TimeUnit.SECONDS)
/**
 * The validate hook's refusals in a bounded pool: the acquiring thread destroys the refused object
 * and makes a new one with its unit of capacity. Whatever happens on that path (an overflow at the
 * end of the stack, a factory that fails, a close, hooks that throw or re-enter), no unit of
 * capacity is lost or doubled, no object goes to two threads or is destroyed twice, and minIdle is
 * refilled.
 */
class BoundedRefusalTest {
    private static QuietPoolLog quietLog;

    @BeforeAll
    static void quiet() { // the refusals' hook failures are logged
        quietLog = new QuietPoolLog();
    }

    @AfterAll
    static void loud() {
        quietLog.close();
    }

    /**
     * As StackLimitTest.creatingAtTheEndOfTheStackLosesNoCapacity, but every deep acquire finds
     * an idle object, which the validate hook refuses: the acquire destroys it and makes a new
     * object with its unit. Only acquires run deep (objects are kept and given back at the top),
     * so no release overflows.
     */
    @Test
    void replacementCreatedAtTheEndOfTheStackLosesNoCapacity() throws Exception {
        for (int pool = 0; pool < 6; pool++) {
            refuseAndReplaceDeep(true); // a new pool each time: its first walk only
        }
    }

    @Test
    void refusedObjectDestroyedAtTheEndOfTheStackLosesNoCapacity() throws Exception {
        refuseAndReplaceDeep(false);
    }

    private void refuseAndReplaceDeep(boolean checkReplacement) throws Exception {
        int capacity = 2 * StackWalk.NEAR;
        Tracked.Factory objects = new Tracked.Factory();
        java.util.Set<Tracked> validated = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (Pool<Tracked> pool = objects.builder().validate(t -> !validated.add(t)).maxTotal(capacity)
                .name("deep-refuse-keep").build()) {
            long overflows = 0;
            long kept = 0;
            for (int round = 0; round < (checkReplacement ? 1 : 8); round++) {
                // every place made and idle: each deep acquire takes one and validates it
                Tracked[] all = awaitWholeCapacity(pool, capacity, "before round " + round);
                java.util.Set<Tracked> beforeWalk = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
                beforeWalk.addAll(objects.made);
                StackWalk deep = StackWalk.keeping(pool);
                Thread t = new Thread(null, () -> deep.down(0), "deep", 256 * 1024);
                t.start();
                t.join(60_000);
                assertTrue(!t.isAlive(), "stuck");
                overflows += deep.overflows;
                kept += deep.holding;
                for (int i = 0; i < deep.holding; i++) {
                    pool.invalidate(deep.held[i]);
                }
                // Entries left RESERVED for good (their unit lost): by where they stuck.
                int stuckRefused = 0;
                int stuckReplacement = 0;
                for (BoundedEntry e : ((BoundedPool<?>) pool).states().table.array()) {
                    if (e.state() == BoundedEntry.RESERVED && e.ref != null) {
                        Tracked x = (Tracked) e.ref.get();
                        if (beforeWalk.contains(x)) { // idle before the walk: refused and destroyed
                            stuckRefused++;
                        } else {
                            stuckReplacement++;
                        }
                    }
                }
                System.out.println("round " + round + ": stuck after refusing " + stuckRefused
                        + ", stuck while making the replacement " + stuckReplacement + ", overflows " + deep.overflows);
                assertEquals(0, checkReplacement ? stuckReplacement : stuckRefused, "round " + round + ": units lost for good: "
                        + stuckRefused + " in the refused object's destroy, " + stuckReplacement
                        + " in the replacement's creation; " + pool.stats() + entryStates(pool));
            }
            assertTrue(overflows > 0, "the stack never overflowed");
            assertTrue(kept > 0, "no deep acquire succeeded");
        }
        assertEquals(java.util.List.of(), objects.destroyedTwice());
    }

    /**
     * PoolBuilder.minIdle: objects are created in the background "after objects are destroyed".
     * A validation refuses an idle object (destroyed) and the factory fails once on the
     * replacement: the pool is one below minIdle, and nothing asks for a refill (the next
     * maintenance run is maxIdleTime / 4 away, up to 30 s).
     */
    @Test
    void aRefusedObjectWhoseReplacementFailsIsRefilledToMinIdle() throws Exception {
        java.util.concurrent.atomic.AtomicInteger calls = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean failNext = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean refuseNext = new java.util.concurrent.atomic.AtomicBoolean();
        try (Pool<Object> pool = Pool.builder(() -> {
                    calls.incrementAndGet();
                    if (failNext.getAndSet(false)) {
                        throw new IllegalStateException("database briefly down");
                    }
                    return new Object();
                }).maxTotal(4).minIdle(2).maxIdleTime(Duration.ofHours(1))
                .validate(x -> !refuseNext.getAndSet(false)).name("refill-after-refusal").build()) {
            awaitIdle(pool, 2, 10_000);
            refuseNext.set(true);
            failNext.set(true);
            try {
                pool.acquire(Duration.ofSeconds(1));
                fail("the replacement's factory call was to fail");
            } catch (ObjectCreationException expected) {
                // the refused object is destroyed, its replacement failed
            }
            awaitIdle(pool, 2, 5_000); // not 30 s later, at the next maintenance run
        }
    }

    static void awaitIdle(Pool<?> pool, int idle, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        while (pool.stats().idle() < idle) {
            if (System.nanoTime() - deadline > 0) {
                fail("not refilled to " + idle + " idle within " + millis + " ms: " + pool.stats());
            }
            PoolAssertions.pauseForPolling();
        }
    }

    /**
     * PoolStats.misses(): acquisitions that called the factory, which a refused object's
     * replacement does even while other objects sit idle.
     */
    @Test
    void aReplacementCountsAsAMissWhileObjectsAreIdle() {
        java.util.concurrent.atomic.AtomicBoolean refuseNext = new java.util.concurrent.atomic.AtomicBoolean();
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(4)
                .validate(x -> !refuseNext.getAndSet(false)).name("miss-while-idle").build()) {
            Object a = pool.acquire();
            Object b = pool.acquire();
            pool.release(b);
            pool.release(a);
            PoolStats before = pool.stats();
            assertEquals(2, before.idle());
            refuseNext.set(true);
            Object c = pool.acquire();
            PoolStats after = pool.stats();
            pool.release(c);
            assertEquals(1, after.idle(), after.toString());
            assertEquals(before.misses() + 1, after.misses(), after.toString());
            assertEquals(before.created() + 1, after.created(), after.toString());
        }
    }

    /**
     * Stress: validate refuses or throws at random, the factory fails at random, the destroy
     * hook sometimes acquires from its own pool; threads acquire and release. Checks: objects
     * alive never above maxTotal, none held by two threads, and at the end the whole capacity
     * can be taken, and after close every object is destroyed exactly once.
     */
    @Test
    void refusalsUnderLoadKeepCapacityExact() throws Exception {
        int maxTotal = 4;
        java.util.concurrent.atomic.AtomicInteger alive = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger maxAlive = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicReference<String> bad = new java.util.concurrent.atomic.AtomicReference<>();
        java.util.concurrent.ConcurrentLinkedQueue<Tracked> made = new java.util.concurrent.ConcurrentLinkedQueue<>();
        java.util.concurrent.atomic.AtomicReference<Pool<Tracked>> self = new java.util.concurrent.atomic.AtomicReference<>();
        Tracked.Factory f = new Tracked.Factory();
        java.util.concurrent.atomic.AtomicBoolean chaos = new java.util.concurrent.atomic.AtomicBoolean(true);
        Pool<Tracked> pool = Pool.builder(() -> {
                    if (chaos.get() && java.util.concurrent.ThreadLocalRandom.current().nextInt(10) == 0) {
                        if (java.util.concurrent.ThreadLocalRandom.current().nextBoolean()) {
                            throw new IllegalStateException("factory down");
                        }
                        return null;
                    }
                    Tracked t = f.create();
                    int a = alive.incrementAndGet();
                    maxAlive.accumulateAndGet(a, Math::max);
                    made.add(t);
                    return t;
                }).maxTotal(maxTotal).acquireTimeout(Duration.ofSeconds(5))
                .validate(t -> {
                    if (!chaos.get()) {
                        return true;
                    }
                    int r = java.util.concurrent.ThreadLocalRandom.current().nextInt(10);
                    if (r == 0) {
                        throw new IllegalStateException("validate threw");
                    }
                    return r > 3;
                })
                .destroy(t -> {
                    if (t.destroys.incrementAndGet() > 1) {
                        bad.compareAndSet(null, t + " destroyed twice");
                    }
                    alive.decrementAndGet();
                    if (chaos.get() && java.util.concurrent.ThreadLocalRandom.current().nextInt(20) == 0) {
                        try {
                            Tracked x = self.get().acquire(Duration.ofMillis(1));
                            self.get().release(x);
                        } catch (RuntimeException ignored) {
                            // timeout, creation failure
                        }
                    }
                }).name("refusal-stress").build();
        self.set(pool);
        int threads = 8;
        long end = System.nanoTime() + 3_000_000_000L;
        Thread[] ts = new Thread[threads];
        for (int i = 0; i < threads; i++) {
            boolean virtual = i % 2 == 0 && VirtualThreads.AVAILABLE;
            Runnable body = () -> {
                while (System.nanoTime() - end < 0 && bad.get() == null) {
                    Tracked t;
                    try {
                        t = pool.acquire(Duration.ofMillis(50));
                    } catch (PoolTimeoutException | ObjectCreationException e) {
                        continue;
                    }
                    if (!t.owner.compareAndSet(null, Thread.currentThread())) {
                        bad.compareAndSet(null, t + " held by two threads");
                    }
                    Thread.yield();
                    t.owner.set(null);
                    if (java.util.concurrent.ThreadLocalRandom.current().nextInt(8) == 0) {
                        pool.invalidate(t);
                    } else {
                        pool.release(t);
                    }
                }
            };
            ts[i] = virtual ? VirtualThreads.start(body) : new Thread(body);
            if (!virtual) {
                ts[i].start();
            }
        }
        for (Thread t : ts) {
            t.join(30_000);
        }
        chaos.set(false);
        assertEquals(null, bad.get());
        assertTrue(maxAlive.get() <= maxTotal, "objects alive at once: " + maxAlive.get());
        PoolStats s = pool.stats();
        assertEquals(s.created() - s.dropped(), s.idle() + s.inUse(), s.toString());
        assertEquals(0, s.inUse(), s.toString());
        Tracked[] all = new Tracked[maxTotal];
        for (int i = 0; i < maxTotal; i++) {
            all[i] = pool.acquire(Duration.ofSeconds(2));
        }
        for (Tracked t : all) {
            pool.release(t);
        }
        pool.close();
        for (Tracked t : made) {
            assertEquals(1, t.destroys.get(), t + " destroyed " + t.destroys.get() + " times");
        }
        System.out.println("stress: " + pool.stats());
    }

    /** Close while a refusal is under way, at each of three points: validate, destroy, factory. */
    @Test
    void closeDuringARefusalLeavesNothingBehind() throws Exception {
        for (int point = 0; point < 3; point++) {
            final int at = point;
            Tracked.Factory f = new Tracked.Factory();
            java.util.concurrent.CountDownLatch inHook = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean();
            Runnable stop = () -> {
                if (armed.getAndSet(false)) {
                    inHook.countDown();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
            };
            Pool<Tracked> pool = Pool.builder(() -> {
                        if (at == 2) {
                            stop.run();
                        }
                        return f.create();
                    }).destroy(t -> {
                        if (at == 1) {
                            stop.run();
                        }
                        f.destroy(t);
                    }).validate(t -> {
                        if (at == 0) {
                            stop.run();
                        }
                        return false;
                    }).maxTotal(1).name("close-in-refusal-" + at).build();
            Tracked first = pool.acquire();
            pool.release(first);
            armed.set(true);
            // Threads of its own, not the common pool: with 2 processors that pool may have one
            // worker (JDK 25), and the second acquire would wait behind the first, stopped in its hook.
            java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
            Object ra;
            Object rb;
            try {
                java.util.concurrent.Callable<Object> acquire = () -> {
                    try {
                        return pool.acquire(Duration.ofSeconds(10));
                    } catch (RuntimeException e) {
                        return e;
                    }
                };
                java.util.concurrent.Future<Object> a = threads.submit(acquire);
                assertTrue(inHook.await(10, TimeUnit.SECONDS));
                java.util.concurrent.Future<Object> b = threads.submit(acquire);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (((BoundedPool<?>) pool).waiting() == 0 && !b.isDone() && System.nanoTime() < deadline) {
                    PoolAssertions.pauseForPolling();
                }
                pool.close();
                rb = b.get(10, TimeUnit.SECONDS);
                go.countDown();
                ra = a.get(10, TimeUnit.SECONDS);
            } finally {
                go.countDown(); // never leave a hook stopped, whatever failed
                threads.shutdownNow();
            }
            if (ra instanceof Tracked) {
                pool.release((Tracked) ra);
            }
            if (rb instanceof Tracked) {
                pool.release((Tracked) rb);
            }
            assertEquals(0, ((BoundedPool<?>) pool).live(), "point " + at + ": " + ra + " / " + rb + " " + pool.stats());
            for (Tracked t : f.made) {
                assertEquals(1, t.destroys.get(), "point " + at + ": " + t + " destroyed " + t.destroys.get());
            }
            assertTrue(rb instanceof PoolClosedException, "point " + at + ": waiter got " + rb);
        }
    }

    static Tracked[] awaitWholeCapacity(Pool<Tracked> pool, int capacity, String what) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        Tracked[] got = new Tracked[capacity];
        for (int n = 0; n < capacity; ) {
            try {
                got[n] = pool.acquire(Duration.ofMillis(200));
                n++;
            } catch (PoolTimeoutException e) {
                if (System.nanoTime() - deadline > 0) {
                    fail(what + ": capacity lost for good (" + (n) + " of " + capacity + "): " + pool.stats()
                            + entryStates(pool));
                }
                System.gc();
            }
        }
        for (Tracked t : got) {
            pool.release(t);
        }
        return got;
    }

    static String entryStates(Pool<?> pool) {
        Pool<?> engine = pool instanceof LeakDetectingPool ? ((LeakDetectingPool<?>) pool).engine() : pool;
        int[] byState = new int[4];
        int withRef = 0;
        for (BoundedEntry e : ((BoundedPool<?>) engine).states().table.array()) {
            byState[e.state()]++;
            if (e.state() == BoundedEntry.RESERVED && e.ref != null) {
                withRef++;
            }
        }
        return "; FREE " + byState[BoundedEntry.FREE] + ", IDLE " + byState[BoundedEntry.IDLE] + ", BORROWED "
                + byState[BoundedEntry.BORROWED] + ", RESERVED " + byState[BoundedEntry.RESERVED]
                + " (with a ref " + withRef + "), live " + ((BoundedPool<?>) engine).live();
    }
}
