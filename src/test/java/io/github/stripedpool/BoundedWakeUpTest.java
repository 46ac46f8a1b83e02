package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A release wakes the oldest waiter to compete for its object: the waiter does not sleep until
 * its own timer (the starvation threshold) while an object lies idle. The threshold is set far
 * beyond the test's limits here, so that only the release's wake-up can end the wait. Waits end
 * on events (the waiter parked, a future completed), never on sleeps; the limits only fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedWakeUpTest {
    /** Generous: a scheduling stall on a loaded machine is not a failure of the pool. */
    private static final Duration LIMIT = Duration.ofSeconds(10);

    @Test
    void aReleaseWakesTheParkedWaiterLongBeforeTheStarvationThreshold() throws Exception {
        long threshold = TimeUnit.SECONDS.toNanos(40); // the waiter's own timer cannot end the wait
        for (int round = 0; round < 20; round++) {
            try (Pool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                    .acquireTimeout(Duration.ofSeconds(30)).settings("wake-up"), threshold)) {
                Object x = pool.acquire();
                CompletableFuture<Long> waited = new CompletableFuture<>();
                Thread waiter = new Thread(() -> {
                    try {
                        long t0 = System.nanoTime();
                        Object y = pool.acquire();
                        long nanos = System.nanoTime() - t0;
                        pool.release(y);
                        waited.complete(nanos);
                    } catch (Throwable e) {
                        waited.completeExceptionally(e);
                    }
                }, "waiter");
                waiter.start();
                // Queued and parked: a release before the park is found by the waiter's own scan,
                // which would not test the wake-up.
                long deadline = System.nanoTime() + LIMIT.toNanos();
                while (pool.stats().waitingNow() == 0 || waiter.getState() != Thread.State.TIMED_WAITING) {
                    assertTrue(System.nanoTime() - deadline < 0, "the waiter never parked");
                    Thread.onSpinWait();
                }
                pool.release(x);
                long nanos = waited.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                assertTrue(nanos < LIMIT.toNanos(), () -> "waited " + nanos / 1e6 + " ms");
                waiter.join(LIMIT.toMillis());
                PoolAssertions.assertBalanced(pool);
            }
        }
    }
}
