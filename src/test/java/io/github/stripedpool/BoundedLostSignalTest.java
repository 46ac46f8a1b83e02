package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A release that finds the front waiter already woken ("signalled") wakes nobody: it relies on
 * that waiter to take the object or pass the wake-up on. If that waiter is then served a unit of
 * capacity instead (a destroy elsewhere), the hand-off must pass the wake-up to the next waiter
 * ({@code serveFront}); else nobody is woken for the idle object, and the next waiter, parked
 * without an alarm because it queued while the queue was starving, sleeps next to an idle object
 * for its whole timeout.
 *
 * <p>Determinism: the front waiter is stalled between its look at the idle stacks and its park,
 * as a thread descheduled there would be, through its own {@link Thread#isInterrupted()}, which
 * the wait calls at exactly that point. A starvation threshold of 1 s (instead of 1 ms) lets the
 * test end the starving mode by a hand-off to a waiter younger than the threshold; the defect
 * does not depend on the threshold: the last waiter sleeps its whole timeout, not the threshold.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BoundedLostSignalTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final long THRESHOLD = TimeUnit.SECONDS.toNanos(1);

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        Spin.until(condition, LIMIT, what);
    }

    /** A waiter that stops, once, at its first look-then-park, until told to go on. */
    private static final class StallingThread extends Thread {
        final CountDownLatch stalled = new CountDownLatch(1);
        final CountDownLatch proceed = new CountDownLatch(1);
        private boolean once;

        StallingThread(Runnable body) {
            super(body, "stalled-front");
        }

        @Override
        public boolean isInterrupted() {
            if (!once && Thread.currentThread() == this) {
                once = true;
                stalled.countDown();
                try {
                    proceed.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            return super.isInterrupted();
        }
    }

    @Test
    void aWakeUpConsumedByAPermitHandOffLeavesTheNextWaiterAsleepNextToAnIdleObject() throws Exception {
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(3)
                .acquireTimeout(LIMIT).settings("lost-signal"), THRESHOLD);
        try {
            Object x0 = pool.acquire();
            Object x1 = pool.acquire();
            Object x2 = pool.acquire();

            // 1-2. D starves the queue; E queues behind it and parks (no alarm: the queue is
            //    starving); D times out. The mode stays starving, with E, young, at the front.
            CompletableFuture<Object> d = new CompletableFuture<>();
            Thread td = new Thread(() -> {
                try {
                    d.complete(pool.acquire(Duration.ofNanos(THRESHOLD + TimeUnit.MILLISECONDS.toNanos(300))));
                } catch (Throwable t) {
                    d.completeExceptionally(t);
                }
            }, "D");
            td.start();
            await(pool::starving, () -> "D never switched the queue to starving");
            CompletableFuture<Object> e = new CompletableFuture<>();
            Thread te = BoundedYieldTest.startAcquiring(pool, e, "E");
            await(() -> pool.waiting() == 2 && te.getState() == Thread.State.TIMED_WAITING, () -> "E never parked");
            td.join(LIMIT.toMillis());
            assertTrue(d.isCompletedExceptionally(), "nothing was free for D: it should have timed out");
            await(() -> pool.waiting() == 1, () -> "D never left the queue");
            assertTrue(pool.starving(), "E still waits: the queue stays starving");

            // 3. F queues, looks, and is stalled before it parks.
            CompletableFuture<Object> f = new CompletableFuture<>();
            StallingThread tf = new StallingThread(() -> {
                try {
                    f.complete(pool.acquire());
                } catch (Throwable t) {
                    f.completeExceptionally(t);
                }
            });
            tf.start();
            assertTrue(tf.stalled.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS), "F never reached its park");

            // 4. G queues and parks without an alarm (the queue is still starving).
            long parksBefore = pool.parks();
            CompletableFuture<Object> g = new CompletableFuture<>();
            Thread tg = BoundedYieldTest.startAcquiring(pool, g, "G");
            await(() -> pool.waiting() == 3 && pool.parks() == parksBefore + 1
                    && tg.getState() == Thread.State.TIMED_WAITING, () -> "G never parked");
            assertTrue(pool.starving());

            // 5. A release hands x0 to E, younger than the threshold: the mode ends.
            pool.release(x0);
            assertSame(x0, e.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            assertFalse(pool.starving(), "a hand-off to a young waiter ends the starving mode");

            // 6. A release in normal mode wakes F, the front; the releaser takes its object back.
            pool.release(x1);
            assertSame(x1, pool.acquire(Duration.ZERO));

            // 7. Another release finds F signalled and wakes nobody: x2 is idle.
            pool.release(x2);

            // 8. A destroy hands its place to F, the front, as a permit.
            pool.invalidate(x1);
            tf.proceed.countDown();
            Object y = f.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            assertTrue(y != x0 && y != x1 && y != x2, "F was given a permit and made a new object");

            // x2 is idle and G is the only waiter: G must take it, at the latest at its threshold.
            long bound = THRESHOLD + TimeUnit.SECONDS.toNanos(4);
            try {
                Object got = g.get(bound, TimeUnit.NANOSECONDS);
                assertSame(x2, got);
            } catch (TimeoutException stillAsleep) {
                fail("G slept more than " + TimeUnit.NANOSECONDS.toMillis(bound) + " ms next to an idle "
                        + "object: nobody woke it; state " + tg.getState() + ", " + pool.stats());
            } catch (ExecutionException failed) {
                fail("G failed while an object was idle", failed.getCause());
            }
        } finally {
            pool.close();
        }
    }
}
