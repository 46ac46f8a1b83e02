package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * When a bounded pool's background maintenance destroys objects: idle eviction stops at minIdle
 * even when acquisitions race a run, an object is never evicted before maxIdleTime even when a
 * run was delayed on the pool's lane, an object released past its maxLifetime is destroyed at the
 * release, and maxIdleTime(FOREVER) never evicts, however many runs the pool has had.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedMaintenanceTimingTest {
    private static final long DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(20);
    private static QuietPoolLog quietLog;

    @BeforeAll
    static void quiet() {
        quietLog = new QuietPoolLog();
    }

    @AfterAll
    static void loud() {
        quietLog.close();
    }

    private static boolean onWorker() {
        return Thread.currentThread().getName().startsWith(Background.WORKER_NAME);
    }

    private static void awaitTrue(BooleanSupplier c, String what) {
        long end = System.nanoTime() + DEADLINE_NANOS;
        while (!c.getAsBoolean()) {
            if (System.nanoTime() - end > 0) {
                fail("gave up waiting for " + what);
            }
            PoolAssertions.pauseForPolling();
        }
    }

    private static void await(CountDownLatch l) {
        try {
            assertTrue(l.await(20, TimeUnit.SECONDS), "latch not reached");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------------ eviction vs minIdle

    /**
     * PoolBuilder.minIdle: "Idle eviction by maxIdleTime never goes below it". Four objects idle
     * too long, minIdle 2: a run evicts two. While the destroy hook of the first runs, acquisitions
     * take the pool below minIdle; eviction then destroys no object that is still idle (its
     * decision came from a count taken after it set its candidates aside, not from one taken
     * before acquisitions it cannot see), and it destroys exactly the two beyond minIdle.
     */
    @Test
    void idleEvictionNeverTakesThePoolBelowMinIdle() {
        final int minIdle = 2;
        CountDownLatch evicting = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicInteger workerDestroys = new AtomicInteger();
        AtomicReference<BoundedPool<?>> self = new AtomicReference<>();
        List<Integer> idleAtLaterDestroys = new java.util.concurrent.CopyOnWriteArrayList<>();
        Pool<Object> pool = Pool.builder(Object::new)
                .destroy(o -> {
                    if (onWorker()) {
                        if (workerDestroys.incrementAndGet() == 1) {
                            evicting.countDown();
                            await(proceed);
                        } else {
                            idleAtLaterDestroys.add(self.get().states().countIdle());
                        }
                    }
                })
                .maxTotal(4).minIdle(minIdle).maxIdleTime(Duration.ofMillis(200)).build();
        BoundedPool<?> bp = (BoundedPool<?>) pool;
        self.set(bp);
        List<Object> taken = new ArrayList<>();
        try {
            awaitTrue(() -> pool.stats().idle() == minIdle, "minIdle filled");
            // Release four objects within one epoch, so that one run finds all four idle too long.
            List<Object> held = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                held.add(pool.acquire());
            }
            long ep = bp.maintenance().epoch();
            awaitTrue(() -> bp.maintenance().epoch() != ep, "a maintenance run");
            for (Object o : held) {
                pool.release(o);
            }
            await(evicting); // the run destroys its first evicted object
            long runs = bp.maintenance().runs();
            while (bp.states().countIdle() >= minIdle) { // below minIdle, by acquisitions
                taken.add(pool.acquire(Duration.ZERO));
            }
            int idleBefore = bp.states().countIdle();
            proceed.countDown();
            awaitTrue(() -> bp.maintenance().runs() > runs, "the run to end");
            for (int idle : idleAtLaterDestroys) {
                assertTrue(idle >= idleBefore, "with " + idleBefore + " object(s) idle and minIdle " + minIdle
                        + ", idle eviction destroyed an idle object as well (" + idle + " left idle)");
            }
            assertEquals(4 - minIdle, workerDestroys.get(), "idle eviction destroys the objects beyond minIdle");
        } finally {
            proceed.countDown();
            for (Object o : taken) {
                pool.release(o);
            }
            pool.close();
        }
    }

    // ------------------------------------------------------------------ early eviction

    /**
     * PoolBuilder.maxIdleTime: "an object is destroyed at most about a quarter of the time late,
     * never early". Idle time is counted in maintenance runs (epochs). A run fired on time and
     * queued behind another job of the pool's lane (here a minIdle refill whose factory is slow)
     * starts late; the next run must then not follow it a moment later and count a second epoch,
     * or an object released in between would be evicted a whole period early.
     */
    @Test
    void idleEvictionIsNeverEarlyWhenARunWasDelayedBehindASlowRefill() {
        long maxIdleNanos = TimeUnit.SECONDS.toNanos(2); // period 500 ms, 4 epochs
        CountDownLatch inFactory = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicReference<Boolean> blockWorker = new AtomicReference<>(false);
        Map<Object, Long> idleSince = new ConcurrentHashMap<>();
        Map<Object, Long> destroyedAt = new ConcurrentHashMap<>();
        Pool<Object> pool = Pool.builder(() -> {
                    if (onWorker() && blockWorker.get()) {
                        inFactory.countDown();
                        await(proceed);
                        Object o = new Object();
                        idleSince.put(o, System.nanoTime()); // published idle right after this
                        return o;
                    }
                    return new Object();
                })
                .destroy(o -> destroyedAt.put(o, System.nanoTime()))
                .maxTotal(4).minIdle(1).maxIdleTime(Duration.ofNanos(maxIdleNanos)).build();
        BoundedPool<?> bp = (BoundedPool<?>) pool;
        long period = bp.maintenance().periodNanos;
        try {
            awaitTrue(() -> pool.stats().idle() == 1, "minIdle filled");
            long ep = bp.maintenance().epoch();
            while (bp.maintenance().epoch() == ep) {
                Thread.onSpinWait();
            }
            long runStart = System.nanoTime(); // run s has just begun; run s+1 is due at +period
            long s = bp.maintenance().epoch();
            blockWorker.set(true);
            Object kept = pool.acquire(); // the idle one
            Object o1 = pool.acquire(); // nothing idle: a refill is queued, and blocks in the factory
            await(inFactory);
            // Run s+1 fires at about +period and is queued behind the refill; release just before
            // +2 periods, when run s+2 is due.
            while (System.nanoTime() - runStart < period * 17 / 10) {
                PoolAssertions.pauseForPolling();
            }
            assertEquals(s, bp.maintenance().epoch(), "run s+1 should be queued behind the refill");
            idleSince.put(o1, System.nanoTime());
            pool.release(o1); // stamped with epoch s
            proceed.countDown(); // the refill publishes its object (epoch s), then run s+1 runs at once
            awaitTrue(() -> !destroyedAt.isEmpty(), "an idle eviction");
            for (Map.Entry<Object, Long> d : destroyedAt.entrySet()) {
                long idle = d.getValue() - idleSince.get(d.getKey());
                assertTrue(idle >= maxIdleNanos, "evicted after " + idle / 1_000_000 + " ms idle, "
                        + "maxIdleTime is " + maxIdleNanos / 1_000_000 + " ms (\"never early\")");
            }
            pool.release(kept);
        } finally {
            proceed.countDown();
            pool.close();
        }
    }

    // ------------------------------------------------------------------ lifetime at release

    /**
     * PoolBuilder.maxLifetime: "borrowed ones when they are released". An object released just
     * past its lifetime, before any maintenance run could see it, is destroyed at the release,
     * not pooled for the next acquire.
     */
    @Test
    void anObjectReleasedPastItsLifetimeIsDestroyedAtTheRelease() {
        long lifetime = TimeUnit.MILLISECONDS.toNanos(400); // period 100 ms
        Map<Object, Long> createdAt = new ConcurrentHashMap<>();
        AtomicInteger destroyed = new AtomicInteger();
        try (Pool<Object> pool = Pool.builder(() -> {
                    Object o = new Object();
                    createdAt.put(o, System.nanoTime());
                    return o;
                })
                .destroy(o -> destroyed.incrementAndGet())
                .maxTotal(1).maxLifetime(Duration.ofNanos(lifetime)).build()) {
            // Several objects, each born anew, so that some release falls before a run.
            for (int attempt = 0; attempt < 10; attempt++) {
                Object x = pool.acquire();
                long born = createdAt.get(x);
                while (System.nanoTime() - born < lifetime + TimeUnit.MILLISECONDS.toNanos(2)) {
                    Thread.onSpinWait();
                }
                int before = destroyed.get();
                pool.release(x); // past its lifetime
                if (destroyed.get() == before) {
                    Object y = pool.acquire();
                    long age = System.nanoTime() - createdAt.get(y);
                    pool.release(y);
                    fail("released " + (lifetime / 1_000_000 + 2) + " ms after its creation (maxLifetime "
                            + lifetime / 1_000_000 + " ms), the object was pooled, not destroyed; the next "
                            + "acquire got " + (y == x ? "it" : "another") + " at age " + age / 1_000_000 + " ms");
                }
            }
        }
    }

    // ------------------------------------------------------------------ "forever" and the epoch counter

    /**
     * PoolBuilder.maxIdleTime: "one too long to count in nanoseconds (about 292 years) means
     * never". With a period of 10 ms (set here by reportHeldLongerThan(40 ms); maxLifetime does
     * the same), 2^31 runs take 248 days: a counter of runs that wrapped, or a cap on the idle
     * time it can count, would evict. The test moves the epoch counter forward by 2^31 - 1 runs,
     * then by 2^62, instead of waiting.
     */
    @Test
    void maxIdleTimeForeverNeverEvictsWhateverTheNumberOfRuns() throws Exception {
        AtomicInteger destroyed = new AtomicInteger();
        try (Pool<Object> pool = Pool.builder(Object::new)
                .destroy(o -> destroyed.incrementAndGet())
                .maxTotal(2).maxIdleTime(java.time.temporal.ChronoUnit.FOREVER.getDuration())
                .reportHeldLongerThan(Duration.ofMillis(40)).build()) {
            BoundedPool<?> bp = (BoundedPool<?>) pool;
            assertEquals(TimeUnit.MILLISECONDS.toNanos(10), bp.maintenance().periodNanos);
            java.lang.reflect.Field epoch = BoundedMaintenance.class.getDeclaredField("epoch");
            epoch.setAccessible(true);
            Object x = pool.acquire();
            long stamp;
            do { // released within one epoch, so that its stamp is known
                stamp = bp.maintenance().epoch();
                pool.release(x);
                if (bp.maintenance().epoch() == stamp) {
                    break;
                }
                x = pool.acquire();
            } while (true);
            // Runs never overlap; a run racing a write here only repeats the wait.
            for (long jump : new long[] {Integer.MAX_VALUE, 1L << 62}) {
                long target = stamp + jump;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                while (System.nanoTime() - end < 0 && destroyed.get() == 0) {
                    long now = bp.maintenance().epoch();
                    if (now - stamp < jump) {
                        epoch.setLong(bp.maintenance(), target);
                    }
                    PoolAssertions.pauseForPolling();
                }
                assertEquals(0, destroyed.get(), "an object idle under maxIdleTime(FOREVER) was evicted "
                        + jump + " maintenance runs after its release");
            }
        }
    }
}
