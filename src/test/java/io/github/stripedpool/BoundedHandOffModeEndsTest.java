package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Hand-off ("starving") mode lasts until the queue is empty (Pool's class Javadoc), whichever
 * way it empties. A queue emptied by a timeout, not by a hand-off, used to stay in the mode: the
 * next thread at the cap skipped its yields and parked for a hand-off as if it had waited its
 * threshold, and the next release handed it the object although it had waited no time. No
 * sleeps: the waiters' own timeouts are the events under test.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedHandOffModeEndsTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);

    @Test
    void aQueueEmptiedByATimeoutLeavesHandOffModeAndTheNextPlatformWaiterYields() {
        AtomicInteger pauses = new AtomicInteger();
        BoundedWaiting.Pause counting = () -> {
            pauses.incrementAndGet();
            Thread.yield();
        };
        try (BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(LIMIT).settings("hand-off-mode-ends"), BoundedWaitQueue.STARVATION_NANOS, counting)) {
            Object x = pool.acquire();

            // A lone waiter passes its 1 ms threshold (it switches the queue to hand-offs), then
            // times out: nobody waits any more.
            assertThrows(PoolTimeoutException.class, () -> pool.acquire(Duration.ofMillis(50)));
            assertEquals(0, pool.waiting());
            assertFalse(pool.starving(), "the queue is empty, so releases no longer hand objects over");

            // The next platform thread at the cap finds nobody waiting: it yields before it queues
            // (only a thread that finds the pool handing off skips the yields).
            int before = pauses.get();
            assertThrows(PoolTimeoutException.class, () -> pool.acquire(Duration.ofMillis(5)));
            assertTrue(pauses.get() > before, "no yield: the thread found the queue still handing off");

            pool.release(x);
            assertEquals(1, pool.stats().idle(), "released with nobody waiting: idle");
        }
    }
}
