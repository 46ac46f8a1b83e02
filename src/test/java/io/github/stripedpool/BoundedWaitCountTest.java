package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A wait that close() ends while a platform thread yields, before it queues, is counted in
 * waits() with its time in waitNanosTotal(): the time was recorded, the wait was not, and the
 * statistics showed time waited by no wait.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedWaitCountTest {
    private static final long LIMIT_MS = 20_000;

    @Test
    void aWaitEndedByCloseDuringTheYieldsIsCountedWithItsTime() throws Exception {
        CountDownLatch pausing = new CountDownLatch(1);
        CountDownLatch resume = new CountDownLatch(1);
        AtomicInteger calls = new AtomicInteger();
        BoundedWaiting.Pause pause = () -> {
            if (calls.incrementAndGet() == 1) {
                pausing.countDown();
                try {
                    resume.await(LIMIT_MS, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .acquireTimeout(Duration.ofSeconds(20)).settings("wait-stats"),
                BoundedWaitQueue.STARVATION_NANOS, pause);
        ExecutorService ex = Executors.newSingleThreadExecutor(r -> new Thread(r, "acquirer"));
        try {
            Object x = pool.acquire();
            Future<Object> got = ex.submit(() -> pool.acquire());
            if (!pausing.await(LIMIT_MS, TimeUnit.MILLISECONDS)) {
                throw new AssertionError("the acquirer never yielded");
            }
            pool.close();
            resume.countDown();
            ExecutionException e = assertThrows(ExecutionException.class, () -> got.get(LIMIT_MS, TimeUnit.MILLISECONDS));
            assertTrue(e.getCause() instanceof PoolClosedException, "closed: " + e.getCause());
            pool.release(x);
            PoolStats s = pool.stats();
            assertTrue(s.waitNanosTotal() > 0, "its wait's time is recorded: " + s);
            assertEquals(1, s.waits(), "the wait whose time waitNanosTotal holds (it yielded, then met the "
                    + "close) is counted in waits(): " + s);
        } finally {
            resume.countDown();
            ex.shutdownNow();
            ex.awaitTermination(LIMIT_MS, TimeUnit.MILLISECONDS);
            pool.close();
        }
    }
}
