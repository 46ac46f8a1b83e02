package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A wake-up signal of normal mode must not outlive the switch to starving mode in a queue of
 * virtual threads. The front waiter A is woken by a release whose object the releaser takes
 * straight back (A is marked as woken, and releases wake nobody while the mark stands); A then
 * sleeps to its threshold and switches the queue to starving. From then on every release hands
 * its object over and none becomes idle, so the mark has nothing left to look for: kept, it
 * would be passed by each hand-off to the next front, which would wake, find nothing and sleep
 * still marked, one wasted wake-up per hand-off for as long as the queue starves (1,000 virtual
 * threads on 16 objects: 1.9 parks per wait instead of 1.0). Then three releases in a row must
 * wake only the waiters they serve: A and B are handed theirs (the hand-off to B, younger than
 * its threshold, ends the starving mode), and C is woken by the third in normal mode. (Platform
 * threads keep the relay: see {@link BoundedWaitQueue#spendSignal}.)
 *
 * <p>Determinism: while the releaser releases and takes its object back, a spinning virtual
 * thread holds every carrier, so the woken waiter cannot run before; should it win all the same
 * (a carrier added by the scheduler), the round starts again. Every wait ends on an event, with a deadline; the threshold (1 s) is far longer
 * than any step before it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedSpentSignalTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final long THRESHOLD = TimeUnit.SECONDS.toNanos(1);

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        Spin.until(condition, LIMIT, what);
    }

    private static Thread acquiring(Pool<Object> pool, CompletableFuture<Object> got) {
        return TestSupport.startVirtual(() -> {
            try {
                got.complete(pool.acquire());
            } catch (Throwable t) {
                got.completeExceptionally(t);
            }
        });
    }

    /**
     * Starts one spinning virtual thread per carrier of the default scheduler and returns once
     * all of them run, so that a virtual thread woken meanwhile waits for a carrier; the
     * returned action stops them.
     */
    private static Runnable occupyEveryCarrier() {
        String set = System.getProperty("jdk.virtualThreadScheduler.parallelism");
        int carriers = set != null ? Integer.parseInt(set) : Runtime.getRuntime().availableProcessors();
        AtomicInteger running = new AtomicInteger();
        AtomicBoolean stop = new AtomicBoolean();
        for (int i = 0; i < carriers; i++) {
            TestSupport.startVirtual(() -> {
                running.incrementAndGet();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
        }
        await(() -> running.get() == carriers, () -> running.get() + " of " + carriers + " carriers taken");
        return () -> stop.set(true);
    }

    private static Object object(CompletableFuture<Object> got) throws Exception {
        return got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A waiter woken by a release whose object the releaser took back before it ran. */
    private static final class Woken {
        final Thread thread;
        final CompletableFuture<Object> got;
        /** The pool's parks once it had parked the first time. */
        final long parked;

        Woken(Thread thread, CompletableFuture<Object> got, long parked) {
            this.thread = thread;
            this.got = got;
            this.parked = parked;
        }
    }

    /**
     * A virtual thread queues and parks on {@code pool}, whose one object {@code x} the caller
     * holds; a release in normal mode wakes it (the mark), and the caller takes {@code x} back
     * before the waiter runs, while a spinning virtual thread holds every carrier. Should the
     * waiter win all the same (a carrier added by the scheduler), the round starts again.
     */
    private static Woken wokenAndBeaten(BoundedPool<Object> pool, Object x) throws Exception {
        for (int round = 0; ; round++) {
            assertTrue(round < 50, "in 50 rounds the woken waiter always won the object back");
            CompletableFuture<Object> got = new CompletableFuture<>();
            long before = pool.parks();
            Thread t = acquiring(pool, got);
            await(() -> pool.waiting() == 1 && pool.parks() == before + 1 && Spin.parked(t),
                    () -> "A never parked: " + t.getState());
            assertFalse(pool.starving());
            Runnable stopSpinning = occupyEveryCarrier();
            try {
                pool.release(x);
                assertSame(x, pool.acquire(Duration.ZERO));
                return new Woken(t, got, before + 1);
            } catch (PoolTimeoutException wonByTheWaiter) {
                stopSpinning.run();
                x = object(got);
                t.join(LIMIT.toMillis());
            } finally {
                stopSpinning.run();
            }
        }
    }

    @Test
    void aSignalOfNormalModeIsSpentOnceAQueueOfVirtualThreadsStarves() throws Exception {
        assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(LIMIT).settings("spent-signal"), THRESHOLD);
        try {
            Object x = pool.acquire();

            // 1. A queues and parks; a release in normal mode wakes it, and the releaser takes
            //    its object back before A runs.
            Woken w = wokenAndBeaten(pool, x);
            Thread a = w.thread;
            CompletableFuture<Object> gotA = w.got;
            long parked = w.parked;
            assertTrue(pool.frontSignalled(), "the release should have woken the front waiter");

            // 2. A finds nothing, sleeps to its threshold, wakes, starves the queue, finds
            //    nothing again and sleeps: two parks more.
            Thread ta = a;
            long p = parked;
            await(() -> pool.starving() && pool.parks() >= p + 2 && Spin.parked(ta),
                    () -> "A never starved the queue and slept again: parks " + (pool.parks() - p)
                            + ", starving " + pool.starving() + ", " + ta.getState());
            assertFalse(pool.frontSignalled(), "A woke, found nothing while the queue starved, and kept "
                    + "the signal: each hand-off would pass it on and wake the next waiter for nothing");

            // 3. B and C queue behind A and park once each, without an alarm (the queue starves).
            CompletableFuture<Object> gotB = new CompletableFuture<>();
            long beforeB = pool.parks();
            Thread b = acquiring(pool, gotB);
            await(() -> pool.waiting() == 2 && pool.parks() == beforeB + 1 && Spin.parked(b),
                    () -> "B never parked: " + b.getState());
            CompletableFuture<Object> gotC = new CompletableFuture<>();
            Thread c = acquiring(pool, gotC);
            await(() -> pool.waiting() == 3 && pool.parks() == beforeB + 2 && Spin.parked(c),
                    () -> "C never parked: " + c.getState());
            long queued = pool.parks();

            // 4. Three releases, oldest first, each waking only the waiter it serves.
            pool.release(x);
            assertSame(x, object(gotA));
            pool.release(x);
            assertSame(x, object(gotB));
            pool.release(x);
            assertSame(x, object(gotC));
            pool.release(x);
            for (Thread t : new Thread[] {a, b, c}) {
                t.join(LIMIT.toMillis());
            }
            assertEquals(queued, pool.parks(), "a waiter parked again: woken without being served");
            PoolAssertions.assertBalanced(pool);
        } finally {
            pool.close();
        }
    }

    /**
     * A hand-off to the front waiter while it waits for the queue's lock to spend the mark must
     * wake it: the lock's park can take the hand-off's unpark, and a waiter that then parks
     * without looking at its outcome sleeps to its timeout with the object handed to it (200
     * virtual threads on 8 objects: a few of them slept their whole 60 s timeout in most runs).
     * A, woken and beaten, sleeps to its threshold holding the mark; the test takes the queue's
     * lock; A wakes, starves the queue, finds nothing and blocks on the lock in
     * {@link BoundedWaitQueue#spendSignal}; the test, still holding the lock (it is reentrant),
     * releases x, which is handed to A and unparks it inside the lock's wait; then unlocks.
     */
    @Test
    void aHandOffWhileTheFrontWaitsForTheQueuesLockWakesIt() throws Exception {
        assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        long threshold = 2 * THRESHOLD; // far longer than the steps before the lock is taken
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(LIMIT).settings("hand-off-in-lock"), threshold);
        ReentrantLock lock = queueLock(pool);
        try {
            Object x = pool.acquire();
            Woken a = wokenAndBeaten(pool, x);
            await(() -> pool.parks() == a.parked + 1 && Spin.parked(a.thread),
                    () -> "A never parked again: " + a.thread.getState());
            lock.lock();
            try {
                assertFalse(pool.starving(), "A reached its threshold before the lock was taken: "
                        + "the test cannot stage the race");
                assertTrue(pool.frontSignalled(), "A should hold the mark");
                await(() -> lock.hasQueuedThread(a.thread),
                        () -> "A never waited for the queue's lock: starving " + pool.starving()
                                + ", mark " + pool.frontSignalled() + ", " + a.thread.getState());
                assertTrue(pool.starving(), "A should have starved the queue");
                pool.release(x); // handed to A, which waits for the lock
                assertEquals(0, pool.waiting(), "x was not handed to A");
            } finally {
                lock.unlock();
            }
            long bound = threshold + TimeUnit.SECONDS.toNanos(3); // far less than LIMIT, A's timeout
            try {
                assertSame(x, a.got.get(bound, TimeUnit.NANOSECONDS));
            } catch (TimeoutException asleep) {
                fail("A was handed x while it waited for the queue's lock and slept on (the lock's "
                        + "park took the hand-off's wake-up): it would sleep to its timeout; "
                        + a.thread.getState() + ", " + pool.stats());
            }
            pool.release(x);
            a.thread.join(LIMIT.toMillis());
            PoolAssertions.assertBalanced(pool);
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
            pool.close();
        }
    }

    /** The queue's lock, to hold while a waiter waits for it. */
    static ReentrantLock queueLock(BoundedPool<?> pool) throws ReflectiveOperationException {
        Field q = BoundedPool.class.getDeclaredField("waitQueue");
        q.setAccessible(true);
        Field l = BoundedWaitQueue.class.getDeclaredField("lock");
        l.setAccessible(true);
        return (ReentrantLock) l.get(q.get(pool));
    }
}
