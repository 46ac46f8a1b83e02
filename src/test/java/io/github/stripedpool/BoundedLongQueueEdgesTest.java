package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
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
 * The edges of the longer hand-off threshold of platform threads in a long queue
 * ({@link BoundedWaitQueue#thresholdFor}): what ends a spell of hand-offs, and a queue that
 * shrinks under a waiter whose alarm was set while it was long.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BoundedLongQueueEdgesTest {
    private static final long MS = 1_000_000L;
    private static final Duration LIMIT = Duration.ofSeconds(20);

    // ------------------------------------------------------------------ defect 1: the gap

    /**
     * A starving spell that ends because its last waiters time out (or are interrupted, or find an
     * object themselves) leaves the queue starving and empty with lastHandOff set: the first
     * hand-off of the next spell counts all the time between (barging time, no waiter at all) as
     * one gap between two hand-offs. The class comment: the gap is "measured in starving mode
     * only, where barging cannot shorten it"; the commit: "the time between two starving spells is
     * not counted". Deterministic: no thread but the test's.
     */
    @Test
    void aSpellEndedByATimeoutDoesNotCountTheTimeUntilTheNextSpellAsATurn() {
        BoundedWaitQueue q = new BoundedWaitQueue(MS);
        long old = System.nanoTime() - 100 * MS;
        BoundedWaitQueue.Waiter a = new BoundedWaitQueue.Waiter(Thread.currentThread(), old);
        BoundedWaitQueue.Waiter b = new BoundedWaitQueue.Waiter(Thread.currentThread(), old);
        assertTrue(q.enqueue(a));
        assertTrue(q.enqueue(b));
        q.starve();
        assertTrue(q.handPermit()); // to a; b waited long: still starving
        assertTrue(q.cancel(b)); // b times out: nobody waits any more
        long first = q.handOffGap();
        spinFor(20 * MS); // barging time: releases make their objects idle, nobody waits
        List<BoundedWaitQueue.Waiter> next = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            BoundedWaitQueue.Waiter w = new BoundedWaitQueue.Waiter(Thread.currentThread(), old);
            assertTrue(q.enqueue(w));
            next.add(w);
        }
        q.starve();
        assertTrue(q.handPermit());
        assertTrue(q.handPermit()); // two hand-offs back to back
        // 8 waiters queued, hand-offs back to back: a turn of about nothing, threshold 1 ms
        assertTrue(q.handOffGap() - first < 2 * MS / 8 && q.thresholdFor(next.get(9)) == MS,
                "gap " + q.handOffGap() + " ns counted the 20 ms without waiters; threshold "
                        + q.thresholdFor(next.get(9)) + " ns for hand-offs back to back");
    }

    // ------------------------------------------------------------------ defect 2: the stale alarm

    private static final long S = 200 * MS; // starvation threshold of this pool: cap 12 x 200 ms

    /**
     * The front waiter F is woken by a release while the queue is long (9 platform threads after a
     * slow turn was measured), loses, and parks with its alarm at the long-queue threshold (12 x S).
     * The waiters behind it leave (interrupted; timeouts do the same); a release then makes an
     * object idle and, F being already woken once, wakes nobody. F, alone in the queue, whose
     * threshold is now S and who has waited longer than S already, sleeps next to the idle
     * object until the alarm of the long queue: about 10 x S more. The documented bound ("a thread
     * at the front waits at most its threshold plus the time until the next release"; "with fewer
     * waiters nothing changes") is broken; with the default 1 ms it is 12 ms instead of 1 ms, and
     * a waiter with a shorter timeout sleeps next to the idle object until its timeout.
     */
    @Test
    void aWokenFrontWaiterLeftAloneTakesAnIdleObjectWithinItsOwnThresholdNotTheLongQueues() throws Exception {
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(Duration.ofSeconds(30)).settings("stale-alarm"), S);
        List<Thread> started = new ArrayList<>();
        try {
            // 1. A slow turn: two hand-offs in a row of starving mode, 400 ms apart.
            Object x = pool.acquire();
            Holder a1 = Holder.start(pool, "A1", started);
            await(() -> pool.waiting() == 1, () -> "A1 never queued");
            Holder a2 = Holder.start(pool, "A2", started);
            await(() -> pool.waiting() == 2, () -> "A2 never queued");
            await(pool::starving, () -> "A1 never starved the queue");
            pool.release(x);
            assertSame(x, a1.got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            assertTrue(pool.starving(), "A2 waited past the threshold: still starving");
            Thread.sleep(400); // the hold between two hand-offs (a workload, not a synchronisation)
            a1.go.countDown(); // its release hands x to A2 and empties the queue
            assertSame(x, a2.got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            a2.go.countDown();
            a2.thread.join(LIMIT.toMillis());
            assertFalse(pool.starving());
            assertTrue(queue(pool).handOffGap() >= 45 * MS, "gap " + queue(pool).handOffGap());

            // 2. G, F and eight more platform threads queue: a long queue, threshold 12 x S.
            x = pool.acquire(Duration.ZERO);
            Holder g = Holder.start(pool, "G", started);
            await(() -> pool.waiting() == 1, () -> "G never queued");
            CompletableFuture<Object> f = new CompletableFuture<>();
            Thread tf = BoundedYieldTest.startAcquiring(pool, f, "F");
            started.add(tf);
            await(() -> pool.waiting() == 2, () -> "F never queued");
            List<Thread> fillers = new ArrayList<>();
            List<CompletableFuture<Object>> fillerGot = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                CompletableFuture<Object> c = new CompletableFuture<>();
                Thread t = BoundedYieldTest.startAcquiring(pool, c, "filler-" + i);
                started.add(t);
                fillers.add(t);
                fillerGot.add(c);
                int n = i + 3;
                await(() -> pool.waiting() == n, () -> "a filler never queued");
            }
            long queuedAt = System.nanoTime();
            // The first alarms, set at S while the queue was short, ring and are set again at 12 x S.
            await(() -> System.nanoTime() - queuedAt > S + 100 * MS && g.thread.getState() == Thread.State.TIMED_WAITING
                    && tf.getState() == Thread.State.TIMED_WAITING
                    && fillers.stream().allMatch(t -> t.getState() == Thread.State.TIMED_WAITING),
                    () -> "the waiters never parked");
            assumeFalse(pool.starving(), "the set-up took longer than S: a waiter starved the queue");
            assertEquals(12 * S, queue(pool).thresholdFor(
                    new BoundedWaitQueue.Waiter(Thread.currentThread(), System.nanoTime())));

            // 3. A release in normal mode wakes G, which takes x and passes the wake-up to F:
            // F finds nothing and parks again, its alarm at the long queue's threshold.
            long parksBefore = pool.parks();
            pool.release(x);
            assertSame(x, g.got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            await(() -> pool.parks() == parksBefore + 1 && tf.getState() == Thread.State.TIMED_WAITING,
                    () -> "F never parked again");

            // 4. The eight behind F leave: F alone, its threshold S, and it has waited more than S.
            for (Thread t : fillers) {
                t.interrupt();
            }
            for (Thread t : fillers) {
                t.join(LIMIT.toMillis());
            }
            assertEquals(1, pool.waiting());
            assertEquals(S, queue(pool).thresholdFor(
                    new BoundedWaitQueue.Waiter(Thread.currentThread(), System.nanoTime())));

            // 5. G releases: x is idle, and nobody wakes F (it was woken once already).
            long idleAt = System.nanoTime();
            g.go.countDown();
            long bound = 5 * S; // S plus a wide margin; F has waited past S already
            try {
                assertSame(x, f.get(bound, TimeUnit.NANOSECONDS));
            } catch (TimeoutException asleep) {
                Object got = f.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
                fail("F, alone in the queue, slept " + (System.nanoTime() - idleAt) / MS + " ms next to an idle "
                        + "object (bound used: " + bound / MS + " ms, threshold " + S / MS + " ms), then took "
                        + (got == x ? "it" : got));
            } catch (ExecutionException e) {
                fail("F failed", e.getCause());
            }
        } finally {
            pool.close();
            for (Thread t : started) {
                t.interrupt();
                t.join(LIMIT.toMillis());
            }
        }
    }

    /** A thread that acquires, reports, and releases when told. */
    private static final class Holder {
        final CompletableFuture<Object> got = new CompletableFuture<>();
        final CountDownLatch go = new CountDownLatch(1);
        Thread thread;

        static Holder start(Pool<Object> pool, String name, List<Thread> started) {
            Holder h = new Holder();
            h.thread = new Thread(() -> {
                Object o;
                try {
                    o = pool.acquire();
                } catch (Throwable t) {
                    h.got.completeExceptionally(t);
                    return;
                }
                h.got.complete(o);
                try {
                    h.go.await();
                } catch (InterruptedException e) {
                    // test over
                }
                pool.release(o);
            }, name);
            h.thread.start();
            started.add(h.thread);
            return h;
        }
    }

    /** The pool's wait queue, for tests that read its threshold. */
    static BoundedWaitQueue queue(BoundedPool<?> pool) throws ReflectiveOperationException {
        Field f = BoundedPool.class.getDeclaredField("waitQueue");
        f.setAccessible(true);
        return (BoundedWaitQueue) f.get(pool);
    }

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        Spin.until(condition, LIMIT, what);
    }

    private static void spinFor(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
