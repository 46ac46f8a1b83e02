package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The return of a borrowing is reported after its held-too-long report, never before: a
 * maintenance run marked every due borrowing during its scan and delivered the reports after it,
 * one listener call after another, and a borrowing released while its report waited behind a
 * slow listener call had its return reported first, on the releasing thread. A listener that
 * tracks open leaks (add on HELD_TOO_LONG, remove on RETURNED) then kept one for good.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedHeldTooLongOrderTest {
    private static final long LIMIT_MS = 20_000;

    @Test
    void aReturnIsNeverReportedBeforeTheHeldTooLongReportOfTheSameBorrowing() throws Exception {
        List<LeakReport> reports = new CopyOnWriteArrayList<>();
        CountDownLatch firstHeldDelivered = new CountDownLatch(1);
        CountDownLatch letListenerGo = new CountDownLatch(1);
        AtomicBoolean blockedOnce = new AtomicBoolean();
        Duration threshold = Duration.ofSeconds(1);
        BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(4)
                .reportHeldLongerThan(threshold)
                .onLeak(r -> {
                    reports.add(r);
                    if (r.kind() == LeakReport.Kind.HELD_TOO_LONG && blockedOnce.compareAndSet(false, true)) {
                        firstHeldDelivered.countDown();
                        try {
                            // a slow listener (a log appender, an alerting call): the second
                            // report waits behind this one
                            letListenerGo.await(LIMIT_MS, TimeUnit.MILLISECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })
                .name("held-order").build();
        Thread checker = null;
        try {
            Object a = pool.acquire();
            Object b = pool.acquire();
            long now = System.nanoTime() + 2 * threshold.toNanos();
            // the same call a maintenance run makes, on a thread of the test's own (the lane's worker in production)
            checker = new Thread(() -> pool.checkHeldTooLong(now), "maintenance");
            checker.start();
            if (!firstHeldDelivered.await(LIMIT_MS, TimeUnit.MILLISECONDS)) {
                fail("no HELD_TOO_LONG report");
            }
            // both borrowings were due in that one scan; release both now
            pool.release(a);
            pool.release(b);
            letListenerGo.countDown();
            checker.join(LIMIT_MS);
            List<LeakReport.Kind> kinds = new ArrayList<>();
            for (LeakReport r : reports) {
                kinds.add(r.kind());
            }
            assertEquals(4, kinds.size(), "two HELD_TOO_LONG and two RETURNED: " + kinds);
            int held = 0;
            int returned = 0;
            for (LeakReport.Kind k : kinds) {
                if (k == LeakReport.Kind.HELD_TOO_LONG) {
                    held++;
                } else {
                    returned++;
                }
                assertTrue(returned <= held, "a RETURNED report came before the HELD_TOO_LONG report of "
                        + "its borrowing (the listener heard of the return, then that the object is still "
                        + "held too long): " + kinds);
            }
        } finally {
            letListenerGo.countDown();
            if (checker != null) {
                checker.join(LIMIT_MS);
            }
            pool.close();
        }
    }
}
