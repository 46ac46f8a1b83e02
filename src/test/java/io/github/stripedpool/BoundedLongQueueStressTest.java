package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The regime of the longer hand-off threshold, under stress: 24 platform threads on 2 objects,
 * each held parked about 100 µs (as across I/O), so that 22 wait and a turn of the queue is
 * longer than 1 ms; some acquires with timeouts short enough to give up, some threads
 * interrupted, so that waiters leave the queue from every position (the cancels that shorten a
 * front waiter's threshold). Checks, during the run, that the threshold did grow (else this
 * tests nothing new), that no object is held by two threads at once and never more than
 * maxTotal exist; at the end, that every thread was served, that the longest wait stayed within
 * the cap plus a wide margin for the scheduler, and that the pool balances.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedLongQueueStressTest {
    private static final int THREADS = 24;
    private static final int MAX_TOTAL = 2;
    private static final long RUN_NANOS = TimeUnit.SECONDS.toNanos(2);
    /** For the scheduler of a loaded 2-core machine, as in {@link BoundedFairnessTest}. */
    private static final long MARGIN_NANOS = TimeUnit.SECONDS.toNanos(2);

    static final class Item {
        final AtomicInteger holders = new AtomicInteger();
    }

    @Test
    void manyPlatformThreadsOnTwoObjectsWithCancelsKeepExclusivityAccountingAndTheBound() throws Exception {
        AtomicInteger alive = new AtomicInteger();
        AtomicInteger maxAlive = new AtomicInteger();
        BoundedPool<Item> pool = BoundedPool.start(Pool.<Item>builder(() -> {
            maxAlive.accumulateAndGet(alive.incrementAndGet(), Math::max);
            return new Item();
        }).destroy(x -> alive.decrementAndGet()).maxTotal(MAX_TOTAL).acquireTimeout(Duration.ofSeconds(20))
                .settings("long-queue-stress"), BoundedWaitQueue.STARVATION_NANOS);
        BoundedWaitQueue queue = BoundedLongQueueEdgesTest.queue(pool);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean stop = new AtomicBoolean();
        AtomicLong longestWait = new AtomicLong();
        long[] served = new long[THREADS];
        List<Thread> threads = new ArrayList<>();
        long end = System.nanoTime() + RUN_NANOS;
        try {
            for (int i = 0; i < THREADS; i++) {
                int me = i;
                Thread t = new Thread(() -> {
                    ThreadLocalRandom random = ThreadLocalRandom.current();
                    while (!stop.get() && failure.get() == null) {
                        boolean giveUp = random.nextInt(16) == 0; // leaves the queue from anywhere
                        long start = System.nanoTime();
                        Item x;
                        try {
                            x = giveUp ? pool.acquire(Duration.ofNanos(random.nextLong(100_000, 3_000_000)))
                                    : pool.acquire();
                        } catch (PoolTimeoutException | PoolInterruptedException e) {
                            Thread.interrupted();
                            continue;
                        } catch (Throwable e) {
                            failure.compareAndSet(null, e);
                            return;
                        }
                        if (!giveUp) {
                            longestWait.accumulateAndGet(System.nanoTime() - start, Math::max);
                        }
                        if (x.holders.incrementAndGet() != 1) {
                            failure.compareAndSet(null, new AssertionError("an object held by two threads"));
                        }
                        LockSupport.parkNanos(random.nextLong(50_000, 150_000)); // the hold, as across I/O
                        x.holders.decrementAndGet();
                        served[me]++;
                        pool.release(x);
                    }
                }, "long-queue-" + i);
                threads.add(t);
                t.start();
            }
            boolean grew = false;
            BoundedWaitQueue.Waiter probe = new BoundedWaitQueue.Waiter(Thread.currentThread(), 0);
            ThreadLocalRandom random = ThreadLocalRandom.current();
            while (System.nanoTime() - end < 0 && failure.get() == null) {
                grew |= queue.thresholdFor(probe) > BoundedWaitQueue.STARVATION_NANOS;
                if (random.nextInt(64) == 0) {
                    threads.get(random.nextInt(THREADS)).interrupt(); // a cancel from any place
                }
                assertTrue(maxAlive.get() <= MAX_TOTAL, "objects alive at once: " + maxAlive.get());
                Thread.onSpinWait();
            }
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertTrue(!t.isAlive(), t.getName() + " never finished");
            }
            if (failure.get() != null) {
                throw new AssertionError("a thread failed", failure.get());
            }
            assertTrue(grew, "the threshold never grew: the long-queue regime was not reached");
            for (int i = 0; i < THREADS; i++) {
                assertTrue(served[i] > 0, "thread " + i + " was never served");
            }
            long bound = BoundedWaitQueue.STARVATION_NANOS * BoundedWaitQueue.MAX_SCALE + MARGIN_NANOS;
            assertTrue(longestWait.get() < bound, String.format("longest wait %.1f ms, bound %.1f ms",
                    longestWait.get() / 1e6, bound / 1e6));
            assertTrue(maxAlive.get() <= MAX_TOTAL, "objects alive at once: " + maxAlive.get());
            PoolAssertions.assertBalanced(pool);
            assertEquals(0, pool.stats().inUse());
        } finally {
            stop.set(true);
            pool.close();
        }
        assertEquals(0, alive.get(), "close destroyed every object");
    }
}
