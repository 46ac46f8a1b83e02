package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A virtual waiter W that waits for the queue's lock in spendSignal (it read "starving"
 * and "front signalled", the mark then held by the front F) while a hand-off to F ends the
 * starving mode (F younger than its threshold) and passes F's mark on to W. The hand-off's
 * unpark of W is taken by the lock's park; spendSignal then returns false (not starving any
 * more), and W parks with the {@code starving} it read before the lock: no alarm, holding the
 * mark, in normal mode. Every release now sees the mark and wakes nobody; W slept its whole
 * timeout next to an idle object (the end of a burst, W the last waiter). A waiter that kept the
 * signal now reads the mode again and looks again before it parks.
 *
 * <p>Determinism: the test holds the queue's lock while W waits for it, and hands x over
 * reentrantly; W's wake-up before that is a spurious one, which {@code LockSupport.park} allows.
 * Deadlines only.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BoundedMarkPassedInLockTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final long THRESHOLD = TimeUnit.SECONDS.toNanos(2);

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        Spin.until(condition, Duration.ofSeconds(30), what);
    }

    private static Thread platform(Pool<Object> pool, CompletableFuture<Object> got) {
        Thread t = new Thread(() -> {
            try {
                got.complete(pool.acquire());
            } catch (Throwable e) {
                got.completeExceptionally(e);
            }
        });
        t.setDaemon(true);
        t.start();
        return t;
    }

    @Test
    void aMarkPassedToAWaiterInTheQueuesLockAsTheModeEndsIsNotLost() throws Exception {
        assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(LIMIT).settings("mark-in-lock"), THRESHOLD);
        ReentrantLock lock = BoundedSpentSignalTest.queueLock(pool);
        try {
            Object x = pool.acquire();

            // 1. S, a platform thread, queues; a release wakes it (the mark) and the test takes
            //    x straight back. S sleeps to its threshold, starves the queue, keeps the mark.
            CompletableFuture<Object> gotS;
            Thread s;
            long p0;
            for (int round = 0; ; round++) {
                assertTrue(round < 50, "S always won x back");
                gotS = new CompletableFuture<>();
                p0 = pool.parks();
                long base = p0;
                s = platform(pool, gotS);
                Thread ts = s;
                await(() -> pool.waiting() == 1 && pool.parks() == base + 1 && Spin.parked(ts),
                        () -> "S never parked");
                pool.release(x);
                try {
                    assertSame(x, pool.acquire(Duration.ZERO));
                    break;
                } catch (PoolTimeoutException sWon) {
                    x = gotS.get(20, TimeUnit.SECONDS);
                    s.join(20_000);
                }
            }
            assertTrue(pool.frontSignalled(), "S should hold the mark");
            long pS = p0;
            Thread ts = s;
            await(() -> pool.starving() && pool.parks() >= pS + 3 && Spin.parked(ts),
                    () -> "S never starved the queue");
            assertTrue(pool.frontSignalled(), "S, a platform thread, keeps the mark");

            // 2. F (platform) and W (virtual) queue behind S, after the switch: both younger than
            //    the threshold. Both park without an alarm (the queue starves).
            CompletableFuture<Object> gotF = new CompletableFuture<>();
            long pF = pool.parks();
            Thread f = platform(pool, gotF);
            await(() -> pool.waiting() == 2 && pool.parks() == pF + 1 && Spin.parked(f), () -> "F never parked");
            CompletableFuture<Object> gotW = new CompletableFuture<>();
            Thread w = TestSupport.startVirtual(() -> {
                try {
                    gotW.complete(pool.acquire());
                } catch (Throwable e) {
                    gotW.completeExceptionally(e);
                }
            });
            await(() -> pool.waiting() == 3 && pool.parks() == pF + 2 && Spin.parked(w), () -> "W never parked");

            // 3. x is handed to S (old: the mode goes on); S's mark goes to F, which wakes,
            //    finds nothing and sleeps again, keeping it (a platform thread).
            pool.release(x);
            assertSame(x, gotS.get(20, TimeUnit.SECONDS));
            await(() -> pool.parks() == pF + 3 && Spin.parked(f), () -> "F never parked again");
            assertTrue(pool.starving());
            assertTrue(pool.frontSignalled(), "F should hold the mark");

            // 4. W wakes (a spurious wake-up, as park allows: in practice a permit left by an
            //    earlier hand-off whose waiter read its outcome without parking), finds nothing,
            //    and waits for the queue's lock in spendSignal, the lock held by the test.
            long pW = pool.parks(); // W's park after the lock comes after this read
            lock.lock();
            try {
                LockSupport.unpark(w);
                await(() -> lock.hasQueuedThread(w), () -> "W never waited for the queue's lock: " + w.getState());
                // 5. x is handed to F, younger than its threshold: the mode ends, and F's mark
                //    goes to W, with an unpark the lock's park takes.
                pool.release(x);
                assertSame(x, gotF.get(20, TimeUnit.SECONDS));
                assertFalse(pool.starving(), "the hand-off to F should have ended the mode");
                assertTrue(pool.frontSignalled(), "F's mark should have gone to W");
            } finally {
                lock.unlock();
            }
            await(() -> pool.parks() == pW + 1 && Spin.parked(w), () -> "W never parked again");

            // 6. x comes back in normal mode: it becomes idle, and the release wakes nobody (W
            //    holds the mark). W must find it within its threshold.
            pool.release(x);
            assertEquals(1, pool.stats().idle());
            long bound = THRESHOLD + TimeUnit.SECONDS.toNanos(3);
            try {
                assertSame(x, gotW.get(bound, TimeUnit.NANOSECONDS));
            } catch (TimeoutException asleep) {
                String state = pool.stats() + ", mark " + pool.frontSignalled() + ", starving " + pool.starving()
                        + ", W " + w.getState();
                long t0 = System.nanoTime();
                String end;
                try {
                    end = "got " + gotW.get(LIMIT.toSeconds() + 10, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException e) {
                    end = String.valueOf(e.getCause());
                }
                fail("W slept next to an idle object (" + state + "); it parked without an alarm holding the"
                        + " mark. It ended " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0)
                        + " ms later with: " + end);
            }
            pool.release(x);
            PoolAssertions.assertBalanced(pool);
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
            pool.close();
        }
    }
}
