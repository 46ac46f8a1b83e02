package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The threshold after which a waiter makes releases hand their objects over: 1 ms, and for
 * platform threads in a queue too long to serve within it, {@link BoundedWaitQueue#TURNS} turns
 * of the queue in strict order, at most {@link BoundedWaitQueue#MAX_SCALE} times 1 ms (see the
 * class comment of {@link BoundedWaitQueue}). The rule at its extremes, the measurement of a
 * turn, and what stays out of it.
 */
class BoundedHandOffThresholdTest {
    private static final long MS = 1_000_000L;
    private static final long CAP = BoundedWaitQueue.MAX_SCALE * MS;

    @Test
    void aShortQueueOrAFastOneKeepsTheBaseThreshold() {
        assertEquals(MS, BoundedWaitQueue.threshold(MS, 0, 0));
        assertEquals(MS, BoundedWaitQueue.threshold(MS, 64, 0)); // nothing measured yet
        assertEquals(MS, BoundedWaitQueue.threshold(MS, 0, 50_000));
        assertEquals(MS, BoundedWaitQueue.threshold(MS, 10, 100_000)); // a turn of exactly 1 ms
        assertEquals(MS, BoundedWaitQueue.threshold(MS, 3, 20_000));
        // 4 threads on 2 objects and 2 cores: hand-offs a time slice apart, but no long queue
        assertEquals(MS, BoundedWaitQueue.threshold(MS, 2, 3 * MS));
        assertEquals(MS, BoundedWaitQueue.threshold(MS, BoundedWaitQueue.LONG_QUEUE - 1, 3 * MS));
        assertEquals(CAP, BoundedWaitQueue.threshold(MS, BoundedWaitQueue.LONG_QUEUE, 3 * MS));
    }

    @Test
    void aLongQueueGetsEightTurnsUpToTheCap() {
        // 12 waiters 100 µs apart: a turn of 1.2 ms, 8 turns 9.6 ms
        assertEquals(BoundedWaitQueue.TURNS * 1_200_000L, BoundedWaitQueue.threshold(MS, 12, 100_000));
        assertTrue(BoundedWaitQueue.threshold(MS, 12, 100_000) < CAP);
        assertEquals(CAP, BoundedWaitQueue.threshold(MS, 15, 100_000)); // 12 ms: the cap itself
        // 64 threads on 8 objects held 50 µs: about 56 queued, a hand-off every 25 µs
        assertEquals(8 * 1_400_000L, BoundedWaitQueue.threshold(MS, 56, 25_000));
        assertEquals(CAP, BoundedWaitQueue.threshold(MS, 56, 30_000));
        assertEquals(CAP, BoundedWaitQueue.threshold(MS, 8, 600_000)); // a 5 ms hold: strict order anyway
    }

    @Test
    void theRuleNeverOverflowsAtItsExtremes() {
        long[] bases = {0, 1, MS, Long.MAX_VALUE / BoundedWaitQueue.MAX_SCALE + 1, Long.MAX_VALUE};
        int[] sizes = {0, 1, 2, BoundedWaitQueue.LONG_QUEUE, Integer.MAX_VALUE};
        long[] gaps = {0, 1, MS, Long.MAX_VALUE / 2, Long.MAX_VALUE};
        for (long base : bases) {
            for (int n : sizes) {
                for (long gap : gaps) {
                    long t = BoundedWaitQueue.threshold(base, n, gap);
                    long cap = base > Long.MAX_VALUE / BoundedWaitQueue.MAX_SCALE
                            ? Long.MAX_VALUE : base * BoundedWaitQueue.MAX_SCALE;
                    String at = "base " + base + ", queued " + n + ", gap " + gap + ": " + t;
                    assertTrue(t >= base, at);
                    assertTrue(t <= cap, at);
                }
            }
        }
        assertEquals(0, BoundedWaitQueue.threshold(0, Integer.MAX_VALUE, Long.MAX_VALUE)); // tests' "at once"
        assertEquals(CAP, BoundedWaitQueue.threshold(MS, Integer.MAX_VALUE, Long.MAX_VALUE));
    }

    /**
     * Hand-offs in starving mode at least 300 µs apart, to a queue of platform waiters: the gap
     * is measured, and a waiter's threshold grows with it. A pool that keeps 1 ms fails here.
     */
    @Test
    void handOffsInStrictOrderMeasureTheTurnAndRaiseAPlatformThreadsThreshold() {
        BoundedWaitQueue q = new BoundedWaitQueue(MS);
        List<BoundedWaitQueue.Waiter> waiters = starvingQueueServed(q, 40, 30);
        assertTrue(q.starving(), "every waiter was queued long ago: still starving");
        long gap = q.handOffGap();
        assertTrue(gap >= 290_000 * (1 - Math.pow(7.0 / 8, 29)) && gap < 100 * MS, "gap " + gap);
        // 10 waiters left, ≥ 290 µs apart: a turn of about 3 ms, past what the cap allows
        assertEquals(CAP, q.thresholdFor(waiters.get(39)));
        assertEquals(10, q.size());
    }

    /** Time in normal mode, between two times of starving, is no gap between hand-offs. */
    @Test
    void theTimeBetweenTwoStarvingSpellsIsNotCountedAsATurn() {
        BoundedWaitQueue q = new BoundedWaitQueue(MS);
        long old = System.nanoTime() - 100 * MS;
        q.enqueue(new BoundedWaitQueue.Waiter(Thread.currentThread(), old));
        q.enqueue(new BoundedWaitQueue.Waiter(Thread.currentThread(), old));
        q.starve();
        assertTrue(q.handPermit());
        assertTrue(q.handPermit()); // empties the queue: starving ends
        assertTrue(!q.starving());
        long first = q.handOffGap();
        spinFor(20 * MS); // barging time
        q.enqueue(new BoundedWaitQueue.Waiter(Thread.currentThread(), old));
        q.enqueue(new BoundedWaitQueue.Waiter(Thread.currentThread(), old));
        q.starve();
        assertTrue(q.handPermit());
        assertTrue(q.handPermit());
        assertTrue(q.handOffGap() - first < 2 * MS / 8, "gap " + q.handOffGap() + " counted the 20 ms between");
    }

    @Test
    void aVirtualThreadKeepsTheBaseThresholdInAnyQueue() throws Exception {
        assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        BoundedWaitQueue q = new BoundedWaitQueue(MS);
        List<BoundedWaitQueue.Waiter> waiters = starvingQueueServed(q, 40, 20);
        AtomicReference<BoundedWaitQueue.Waiter> virtual = new AtomicReference<>();
        Thread t = TestSupport.startVirtual(() -> virtual.set(
                new BoundedWaitQueue.Waiter(Thread.currentThread(), System.nanoTime())));
        t.join();
        assertEquals(MS, q.thresholdFor(virtual.get()));
        assertEquals(CAP, q.thresholdFor(waiters.get(39)));
    }

    /** Queues {@code n} long-waiting platform waiters, starves, serves {@code served} of them ≥ 300 µs apart. */
    private static List<BoundedWaitQueue.Waiter> starvingQueueServed(BoundedWaitQueue q, int n, int served) {
        List<BoundedWaitQueue.Waiter> waiters = queue(q, n, Thread.currentThread());
        q.starve();
        for (int i = 0; i < served; i++) {
            spinFor(300_000);
            assertTrue(q.handPermit());
        }
        return waiters;
    }

    private static List<BoundedWaitQueue.Waiter> queue(BoundedWaitQueue q, int n, Thread thread) {
        long old = System.nanoTime() - 100 * MS; // waited far past any threshold
        List<BoundedWaitQueue.Waiter> ws = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            BoundedWaitQueue.Waiter w = new BoundedWaitQueue.Waiter(thread, old);
            assertTrue(q.enqueue(w));
            ws.add(w);
        }
        return ws;
    }

    /** Lets time pass on the clock the queue reads; no other thread is waited for. */
    private static void spinFor(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
