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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No waiter sleeps while the pool could serve it: many threads, platform and (on JDK 21+)
 * virtual, on a bounded pool of 1 to 8 objects, with acquire timeouts far longer than any fair
 * wait (60 s), so that a lost wake-up shows as a stall instead of being hidden by a timeout. The
 * threads hold their objects across a yield now and then, release or invalidate them, let a
 * validate hook refuse some (a refused object's capacity goes to a waiter as a permit), and are
 * interrupted at random. A watchdog polls: if no acquisition completes for {@link #STALL}
 * while threads are unfinished, a wake-up was lost (the waiters' bound is the starvation
 * threshold plus a hold: milliseconds), and the round fails with the pool's state. Each round draws the starvation threshold (0, 50 µs or the
 * default 1 ms), so hand-offs, barging and the switch between them all race. After each round:
 * no object held by two threads, the accounting balances, nothing left after close.
 *
 * <p>Found the hand-off whose wake-up the queue's lock took (see
 * {@code BoundedSpentSignalTest.aHandOffWhileTheFrontWaitsForTheQueuesLockWakesIt}): with the
 * waiter's last read of its outcome removed, the first rounds with virtual threads stall.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BoundedLostWakeUpStressTest {
    private static final int ROUNDS = 9;
    private static final int CYCLES = 400;
    /** No acquisition for this long, with waiters and something to give them: a lost wake-up. */
    private static final Duration STALL = Duration.ofSeconds(5);
    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private static final class Round {
        final AtomicLong acquired = new AtomicLong();
        final AtomicInteger finished = new AtomicInteger();
        final Queue<String> violations = new ConcurrentLinkedQueue<>();
        final AtomicInteger validations = new AtomicInteger();
        /** Every worker, for the others to pick one to interrupt. */
        final List<Thread> threads = new CopyOnWriteArrayList<>();
    }

    @Test
    void noWaiterSleepsWhileAnObjectIsIdleOrCapacityIsFree() throws Exception {
        long seed = System.nanoTime();
        Random random = new Random(seed);
        long acquisitions = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int maxTotal = 1 + random.nextInt(8);
            long[] thresholds = {0L, 50_000L, BoundedWaitQueue.STARVATION_NANOS};
            long threshold = thresholds[random.nextInt(thresholds.length)];
            // Rounds of virtual threads only, of platform threads only, and of both.
            int kind = TestSupport.virtualThreadsHere() ? round % 3 : 1;
            int platform = kind == 0 ? 0 : 2 + random.nextInt(12);
            int virtuals = kind == 1 ? 0 : 50 + random.nextInt(250);
            acquisitions += runRound(maxTotal, threshold, platform, virtuals, random.nextInt(40) + 8,
                    "round " + round + " of seed " + seed + ": maxTotal " + maxTotal + ", threshold "
                            + threshold + " ns, " + platform + " platform and " + virtuals + " virtual threads");
        }
        System.out.printf("BoundedLostWakeUpStressTest: %d rounds, %d acquisitions%n", ROUNDS, acquisitions);
    }

    private long runRound(int maxTotal, long threshold, int platform, int virtuals, int refuseOneIn,
            String round) throws Exception {
        Round r = new Round();
        @SuppressWarnings("unchecked")
        BoundedPool<AtomicReference<Thread>> pool = (BoundedPool<AtomicReference<Thread>>) (BoundedPool<?>)
                BoundedPool.start(Pool.builder(AtomicReference<Thread>::new)
                        .maxTotal(maxTotal)
                        .validate(x -> r.validations.incrementAndGet() % refuseOneIn != 0)
                        .acquireTimeout(TIMEOUT)
                        .settings("lost-wake-up"), threshold);
        List<Thread> threads = r.threads;
        try {
            List<Thread> ps = new ArrayList<>();
            for (int i = 0; i < platform; i++) {
                ps.add(new Thread(() -> work(pool, r), "platform-" + i));
            }
            threads.addAll(ps); // before any starts: a worker picks from a list never empty
            ps.forEach(Thread::start);
            for (int i = 0; i < virtuals; i++) {
                threads.add(TestSupport.startVirtual(() -> work(pool, r)));
            }
            watch(pool, maxTotal, r, platform + virtuals, round);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertTrue(!t.isAlive(), round + ": a thread did not finish: " + t);
            }
            assertTrue(r.violations.isEmpty(), round + ": " + r.violations);
            PoolStats s = pool.stats();
            assertEquals(0, s.inUse(), round + ": " + s);
            assertEquals(s.created() - s.dropped(), s.idle(), round + ": made, destroyed and idle disagree: " + s);
            assertEquals(0, pool.waiting(), round + ": " + s);
        } finally {
            pool.close();
        }
        PoolStats s = pool.stats();
        assertEquals(0, s.idle() + s.inUse(), round + ": objects left after close: " + s);
        assertEquals(0, pool.live(), round);
        return r.acquired.get();
    }

    /**
     * Polls until every thread finished; fails if no acquisition completed for {@link #STALL}
     * meanwhile: the workers hold their objects for microseconds, so a stall that long is a
     * thread asleep next to an idle object or free capacity, or asleep with the object handed
     * to it (then it waits no more, and nothing is idle: the pool's figures cannot show it).
     */
    private static void watch(BoundedPool<?> pool, int maxTotal, Round r, int threads, String round) {
        long lastCount = -1;
        long lastMove = System.nanoTime();
        while (r.finished.get() < threads) {
            long now = System.nanoTime();
            long n = r.acquired.get();
            if (n != lastCount) {
                lastCount = n;
                lastMove = now;
            } else if (now - lastMove > STALL.toNanos()) {
                fail(round + ": no acquisition for " + STALL.toSeconds() + " s with " + (threads - r.finished.get())
                        + " threads unfinished, " + pool.waiting() + " of them queued, "
                        + pool.states().countIdle() + " objects idle, " + (maxTotal - pool.live())
                        + " units free (a lost wake-up); starving " + pool.starving() + ", mark "
                        + pool.frontSignalled() + ", " + pool.stats());
            }
            pauseForPolling();
        }
    }

    private static void work(BoundedPool<AtomicReference<Thread>> pool, Round r) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        Thread me = Thread.currentThread();
        try {
            for (int k = 0; k < CYCLES; k++) {
                AtomicReference<Thread> x;
                try {
                    x = pool.acquire();
                } catch (PoolInterruptedException expected) {
                    Thread.interrupted();
                    continue;
                }
                r.acquired.incrementAndGet();
                if (!x.compareAndSet(null, me)) {
                    r.violations.add("handed out while held by " + x.get());
                }
                if (rnd.nextInt(4) == 0) {
                    Thread.yield(); // hold across a switch now and then
                }
                if (rnd.nextInt(64) == 0) { // interrupt a thread, maybe waiting, maybe just served
                    List<Thread> all = r.threads;
                    int size = all.size(); // 0 while the first virtual threads start
                    if (size > 0) {
                        all.get(rnd.nextInt(size)).interrupt();
                    }
                }
                if (!x.compareAndSet(me, null)) {
                    r.violations.add("taken from its holder");
                }
                if (rnd.nextInt(50) == 0) {
                    pool.invalidate(x);
                } else {
                    pool.release(x);
                }
            }
        } catch (Throwable e) {
            r.violations.add(me + ": " + e);
        } finally {
            Thread.interrupted();
            r.finished.incrementAndGet();
        }
    }
}
