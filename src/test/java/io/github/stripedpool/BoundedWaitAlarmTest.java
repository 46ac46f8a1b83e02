package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter that parks while the queue is starving sets no alarm at its own starvation threshold
 * (see {@link BoundedWaiting}): it would wake only to find the mode already switched. The first
 * waiter switches the queue to starving mode at its threshold; the second, queued after that,
 * parks once and sleeps past its own threshold. Then two releases serve them oldest first. Waits end on events; the one timed wait is the period in
 * which the second waiter must not wake, three thresholds long.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedWaitAlarmTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final long THRESHOLD = TimeUnit.MILLISECONDS.toNanos(50);

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        Spin.until(condition, LIMIT, what);
    }

    @Test
    void aWaiterThatParksWhileTheQueueStarvesSetsNoAlarmAtItsThreshold() throws Exception {
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(LIMIT).settings("alarm"), THRESHOLD);
        try {
            Object x = pool.acquire();
            CompletableFuture<Object> first = new CompletableFuture<>();
            Thread a = BoundedYieldTest.startAcquiring(pool, first, "first");
            // Past its threshold it switched the mode and parked again (or, on a slow first run
            // of this code, it reached the threshold before its first park and parked once).
            await(() -> pool.starving() && a.getState() == Thread.State.TIMED_WAITING,
                    () -> "the first waiter never starved the queue: " + a.getState());
            long before = pool.parks();
            CompletableFuture<Object> second = new CompletableFuture<>();
            Thread b = BoundedYieldTest.startAcquiring(pool, second, "second");
            await(() -> pool.waiting() == 2 && pool.parks() == before + 1 && b.getState() == Thread.State.TIMED_WAITING,
                    () -> "the second waiter never parked: parks " + (pool.parks() - before) + ", waiting "
                            + pool.waiting() + ", " + b.getState());
            long queued = System.nanoTime();
            while (System.nanoTime() - queued < 3 * THRESHOLD) {
                Thread.onSpinWait(); // past the second waiter's own threshold
            }
            assertEquals(before + 1, pool.parks(), "the second waiter woke at its threshold in a starving queue");
            pool.release(x);
            Object y = first.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            assertSame(x, y, "handed to the oldest waiter");
            pool.release(y);
            assertSame(x, second.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            pool.release(x);
            a.join(LIMIT.toMillis());
            b.join(LIMIT.toMillis());
            assertEquals(before + 1, pool.parks(), "served without another park");
            PoolAssertions.assertBalanced(pool);
        } finally {
            pool.close();
        }
    }
}
