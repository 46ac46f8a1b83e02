package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.pauseForPolling;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fault injection: many threads on a bounded pool of 2 to 4 objects, with random timeouts,
 * every hook (factory, validate, reset, destroy) throwing at random (destroy sometimes a
 * {@link StackOverflowError}, which the pool rethrows once its bookkeeping is done), short idle
 * and life times, and a close at a random point. Each round draws the starvation threshold:
 * 0 (a thread that queues switches releases to hand-off at once, so barging acquires race
 * hand-offs all the time), 50 microseconds, or the default, which the random timeouts of up to 2
 * ms cross. Checks, during the run, that no object is held by two threads
 * and none is handed out after its destroy, and that never more than maxTotal objects exist; and
 * after it, that no thread hangs, the accounting balances and every object was destroyed once.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedStressTest {
    private static final int THREADS = 10;
    private static final int ROUNDS = 12;
    /** Each round closes the pool after a random number of acquisitions up to this. */
    private static final int MAX_OPERATIONS = 60_000;
    /** A thread still running this long after close has hung. */
    private static final Duration JOIN_DEADLINE = Duration.ofSeconds(20);

    /** One pooled object, recording who holds it and whether it was destroyed. */
    static final class Item {
        final AtomicReference<Thread> owner = new AtomicReference<>();
        final AtomicInteger destroys = new AtomicInteger();
        volatile boolean destroyed;
    }

    static final class Faults {
        final Queue<Item> made = new ConcurrentLinkedQueue<>();
        final AtomicInteger alive = new AtomicInteger();
        final AtomicInteger maxAlive = new AtomicInteger();
        final Queue<String> violations = new ConcurrentLinkedQueue<>();

        Item create() {
            if (chance(10)) {
                throw new PoolAssertions.HookFailure("factory");
            }
            Item x = new Item();
            made.add(x);
            maxAlive.accumulateAndGet(alive.incrementAndGet(), Math::max);
            return x;
        }

        boolean validate(Item x) {
            if (x.destroyed) {
                violations.add("validate on a destroyed object");
            }
            if (chance(20)) {
                throw new PoolAssertions.HookFailure("validate");
            }
            return !chance(20);
        }

        void reset(Item x) {
            if (chance(20)) {
                throw new PoolAssertions.HookFailure("reset");
            }
        }

        void destroy(Item x) {
            if (x.destroys.incrementAndGet() == 1) {
                x.destroyed = true;
                alive.decrementAndGet();
            }
            if (chance(50)) {
                throw new StackOverflowError("destroy");
            }
            if (chance(10)) {
                throw new PoolAssertions.HookFailure("destroy");
            }
        }

        private static boolean chance(int oneIn) {
            return ThreadLocalRandom.current().nextInt(oneIn) == 0;
        }
    }

    /**
     * The pool logs every hook failure, and this test makes tens of thousands: its logger is
     * turned down to SEVERE for the duration. Through reflection, because the test code is
     * compiled into the library's module, which does not read {@code java.logging}; where that
     * fails the test only logs more. The logger is held here so that the level sticks.
     */
    private static Object poolLogger;
    private static Object savedLevel;

    @org.junit.jupiter.api.BeforeAll
    static void quietHookFailures() {
        try {
            Class<?> logger = Class.forName("java.util.logging.Logger");
            Class<?> level = Class.forName("java.util.logging.Level");
            poolLogger = logger.getMethod("getLogger", String.class).invoke(null, "io.github.stripedpool");
            savedLevel = logger.getMethod("getLevel").invoke(poolLogger);
            logger.getMethod("setLevel", level).invoke(poolLogger, level.getField("SEVERE").get(null));
        } catch (ReflectiveOperationException | RuntimeException e) {
            poolLogger = null;
        }
    }

    @org.junit.jupiter.api.AfterAll
    static void restoreLogging() throws ReflectiveOperationException {
        if (poolLogger != null) {
            Class<?> level = Class.forName("java.util.logging.Level");
            poolLogger.getClass().getMethod("setLevel", level).invoke(poolLogger, savedLevel);
        }
    }

    @Test
    void invariantsHoldUnderRandomFaultsTimeoutsAndClose() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long operations = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int maxTotal = 2 + random.nextInt(3);
            operations += runRound(maxTotal, random.nextInt(MAX_OPERATIONS) + 1000,
                    "round " + round + " of seed " + seed + ", maxTotal " + maxTotal);
        }
        System.out.printf("BoundedStressTest: %d rounds, %d threads, %d acquisitions in all%n",
                ROUNDS, THREADS, operations);
    }

    private long runRound(int maxTotal, int closeAfter, String round) throws Exception {
        Faults faults = new Faults();
        long[] thresholds = {0L, 50_000L, BoundedWaitQueue.STARVATION_NANOS};
        long threshold = thresholds[random(0, thresholds.length - 1)];
        round += ", starvation threshold " + threshold + " ns";
        Pool<Item> pool = BoundedPool.start(Pool.builder(faults::create)
                .validate(faults::validate)
                .reset(faults::reset)
                .destroy(faults::destroy)
                .maxTotal(maxTotal)
                .minIdle(random(0, maxTotal))
                .maxIdleTime(Duration.ofMillis(15))
                .maxLifetime(Duration.ofMillis(60))
                .settings("stress"), threshold);
        AtomicLong acquired = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Thread t = new Thread(() -> work(pool, faults, acquired), "stress-" + i);
            t.start();
            threads.add(t);
        }
        long deadline = System.nanoTime() + JOIN_DEADLINE.toNanos();
        while (acquired.get() < closeAfter && System.nanoTime() - deadline < 0) {
            pauseForPolling();
        }
        try {
            pool.close();
        } catch (StackOverflowError fromDestroy) {
            // rethrown once every idle object was destroyed: the checks below hold all the same
        }
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())
                    + JOIN_DEADLINE.toMillis()));
            if (t.isAlive()) {
                fail(round + ": " + t.getName() + " hung: " + pool);
            }
        }
        assertTrue(faults.violations.isEmpty(), round + ": " + faults.violations);
        assertTrue(faults.maxAlive.get() <= maxTotal,
                round + ": " + faults.maxAlive.get() + " objects existed at once");
        PoolStats s = pool.stats();
        assertEquals(s.created() - s.dropped(), s.idle() + s.inUse(), round + ": " + s);
        assertEquals(0, s.idle() + s.inUse(), round + ": objects left after close: " + s);
        assertEquals(0, ((BoundedPool<?>) pool).live(), round);
        assertEquals(faults.made.size(), s.created(), round);
        for (Item x : faults.made) {
            assertEquals(1, x.destroys.get(), round + ": an object was destroyed "
                    + x.destroys.get() + " times");
        }
        return acquired.get();
    }

    private static void work(Pool<Item> pool, Faults faults, AtomicLong acquired) {
        ThreadLocalRandom r = ThreadLocalRandom.current();
        Thread me = Thread.currentThread();
        for (;;) {
            Item x;
            try {
                x = pool.acquire(Duration.ofNanos(r.nextLong(2_000_000)));
            } catch (PoolTimeoutException | ObjectCreationException | StackOverflowError expected) {
                continue; // the error: a failed validation's destroy threw it
            } catch (PoolClosedException done) {
                return;
            } catch (Throwable e) {
                faults.violations.add(me.getName() + ": acquire threw " + e);
                return;
            }
            acquired.incrementAndGet();
            if (!x.owner.compareAndSet(null, me)) {
                faults.violations.add("handed out while held by " + x.owner.get());
            }
            if (x.destroyed) {
                faults.violations.add("handed out after its destroy");
            }
            for (int spin = r.nextInt(50); spin > 0; spin--) {
                Thread.onSpinWait();
            }
            if (!x.owner.compareAndSet(me, null)) {
                faults.violations.add("taken from its holder");
            }
            try {
                pool.release(x);
            } catch (StackOverflowError fromDestroy) {
                // the object was destroyed and its capacity given back before this was rethrown
            } catch (Throwable e) {
                faults.violations.add(me.getName() + ": release threw " + e);
                return;
            }
        }
    }

    private static int random(int from, int to) {
        return ThreadLocalRandom.current().nextInt(from, to + 1);
    }
}
