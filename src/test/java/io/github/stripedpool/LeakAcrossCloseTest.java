package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An object acquired while the pool closed (the acquire returned after close() began) and then
 * leaked is reported: the leak thread ended once the closed pool had nothing tracked, and a
 * tracker made afterwards by the acquire that raced close was never read.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeakAcrossCloseTest {
    static final class Leaky {
        final byte[] payload = new byte[64];
    }

    @Test
    void anObjectAcquiredAcrossCloseAndLeakedIsReported() throws Exception {
        leakAcrossClose(false);
    }

    /**
     * Control: the same leak, then another leak-detecting pool is built, which starts the leak
     * thread again; it reads the stale tracker and the report arrives. So the tracker was fine:
     * only the thread that should read it was gone.
     */
    @Test
    void theSameLeakIsReportedOnceAnotherPoolRestartsTheLeakThread() throws Exception {
        leakAcrossClose(true);
    }

    private void leakAcrossClose(boolean restartLeakThread) throws Exception {
        TestSupport.LeakReports reports = new TestSupport.LeakReports();
        CountDownLatch inValidate = new CountDownLatch(1);
        CountDownLatch letValidateGo = new CountDownLatch(1);
        Thread[] acquirer = new Thread[1];
        Pool<Leaky> pool = Pool.builder(Leaky::new).maxTotal(1).minIdle(1)
                .validate(x -> {
                    if (Thread.currentThread() == acquirer[0]) {
                        inValidate.countDown();
                        try {
                            assertTrue(letValidateGo.await(60, TimeUnit.SECONDS));
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                    }
                    return true;
                })
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).name("leak-across-close").build();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pool.stats().idle() < 1) { // minIdle's refill: an idle object nobody acquired yet
            assertTrue(System.nanoTime() < deadline, "minIdle never refilled");
            Thread.onSpinWait();
        }
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Thread a = new Thread(() -> {
            try {
                Leaky x = pool.acquire(Duration.ofSeconds(30)); // validated across close()
                x = null; // leaked: never released
            } catch (Throwable t) {
                failed.set(t);
            }
        }, "acquirer");
        acquirer[0] = a;
        a.start();
        assertTrue(inValidate.await(30, TimeUnit.SECONDS), "the acquire never validated");
        pool.close(); // the object is in use (being validated): close leaves it to its release
        // The leak thread sees the pool closed and its table empty, and ends.
        deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (leakThreadAlive()) {
            assertTrue(System.nanoTime() < deadline, "the leak thread never ended");
            Thread.sleep(10); // polling with a deadline
        }
        letValidateGo.countDown();
        a.join(30_000);
        assertNull(failed.get(), () -> "the acquire failed: " + failed.get());
        Pool<Object> other = null;
        if (restartLeakThread) {
            other = Pool.builder(Object::new).leakDetection(LeakDetection.PARANOID).name("other").build();
        }
        List<LeakReport> got = reports.await(1); // forces collections, fails at a deadline
        assertEquals(1, got.size());
        if (other != null) {
            other.close();
        }
    }

    static boolean leakThreadAlive() {
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().equals(LeakReaper.THREAD_NAME) && t.isAlive()) {
                return true;
            }
        }
        return false;
    }
}
