package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A clock's thread outlives a throwable that leaves its loop, and a thread that ended anyway is
 * not trusted afterwards. Before, an {@link OutOfMemoryError} that HotSpot threw past the loop's
 * own catch (a compiled frame whose objects could not be allocated back when it fell back to
 * the interpreter) killed the thread, and the clock kept the dead thread as its own: its work
 * stopped for good.
 */
@Timeout(30)
class ClockThreadTest {

    @Test
    void aThrowableThatLeavesTheLoopEntersItAgainOnTheSameThread() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CountDownLatch secondRun = new CountDownLatch(1);
        ClockThread[] clock = new ClockThread[1];
        clock[0] = new ClockThread("striped-pool-test-clock", () -> {
            threads.add(Thread.currentThread());
            if (runs.incrementAndGet() == 1) {
                throw new OutOfMemoryError("thrown on purpose past the clock's loop");
            }
            secondRun.countDown();
            assertTrue(clock[0].endIfEmpty(List.of()));
        });
        clock[0].ensureRunning();
        assertTrue(secondRun.await(10, TimeUnit.SECONDS), "the loop was not entered again");
        assertEquals(2, runs.get());
        assertSame(threads.get(0), threads.get(1), "the loop should go on on the same thread");
        threads.get(0).join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(threads.get(0).isAlive(), "the thread should end once the clock said so");
    }

    @Test
    void aThreadThatEndedOtherwiseIsReplacedAtTheNextRegistration() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        CountDownLatch secondRun = new CountDownLatch(1);
        ClockThread[] clock = new ClockThread[1];
        clock[0] = new ClockThread("striped-pool-test-clock", () -> {
            threads.add(Thread.currentThread());
            if (runs.incrementAndGet() == 1) {
                return; // ends without endIf: the clock still thinks it has a thread
            }
            secondRun.countDown();
            assertTrue(clock[0].endIfEmpty(List.of()));
        });
        clock[0].ensureRunning();
        Thread first = awaitFirst(threads);
        first.join(TimeUnit.SECONDS.toMillis(10));
        assertFalse(first.isAlive(), "the first thread should have ended");
        clock[0].ensureRunning(); // the next need: a new thread, not the ended one
        assertTrue(secondRun.await(10, TimeUnit.SECONDS), "no second thread was started");
        assertEquals(2, runs.get());
    }

    private static Thread awaitFirst(List<Thread> threads) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (threads.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.sleep(5); // a poll interval; the deadline bounds the wait
        }
        assertFalse(threads.isEmpty(), "the clock's thread never started");
        return threads.get(0);
    }
}
