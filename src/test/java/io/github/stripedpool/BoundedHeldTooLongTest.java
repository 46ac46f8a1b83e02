package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.pauseForPolling;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link PoolBuilder#reportHeldLongerThan(Duration)}: an object borrowed past the threshold is
 * reported once, with its acquisition site, and again when it comes back. Most tests call the
 * check with a clock reading of their own, so they need no waiting; one runs on the real
 * maintenance clock.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BoundedHeldTooLongTest {
    private static final Duration THRESHOLD = Duration.ofSeconds(1);
    private static final long T = THRESHOLD.toNanos();

    private final Tracked.Factory objects = new Tracked.Factory();
    private final List<LeakReport> reports = new CopyOnWriteArrayList<>();

    private BoundedPool<Tracked> pool(Duration threshold) {
        return (BoundedPool<Tracked>) objects.builder().maxTotal(4)
                .reportHeldLongerThan(threshold).onLeak(reports::add).build();
    }

    @Test
    void anObjectHeldPastTheThresholdIsReportedOnceWithItsAcquisitionSiteThenAgainOnReturn() {
        try (BoundedPool<Tracked> p = pool(THRESHOLD)) {
            long start = System.nanoTime();
            Tracked x = p.acquire();
            p.checkHeldTooLong(start + 2 * T);
            p.checkHeldTooLong(start + 3 * T);
            assertEquals(1, reports.size(), "reported once, not at every check: " + reports);
            LeakReport r = reports.get(0);
            assertEquals(LeakReport.Kind.HELD_TOO_LONG, r.kind());
            assertEquals(p.name(), r.poolName());
            assertEquals(Tracked.class.getName(), r.objectClass());
            assertEquals(Thread.currentThread().getName(), r.threadName());
            assertTrue(r.age().compareTo(THRESHOLD) >= 0, r.toString());
            assertEquals(getClass().getName(), r.stackTrace()[0].getClassName(),
                    "the first frame is the caller of acquire(): " + r);
            assertTrue(r.toString().startsWith("HELD TOO LONG: pool '" + p.name() + "'"), r.toString());
            assertEquals(1, p.stats().heldTooLong());

            p.release(x);
            assertEquals(2, reports.size(), "the return is reported: " + reports);
            LeakReport back = reports.get(1);
            assertEquals(LeakReport.Kind.RETURNED, back.kind());
            assertEquals(r.acquiredAt(), back.acquiredAt());
            assertTrue(back.toString().contains("was released after"), back.toString());

            p.checkHeldTooLong(start + 10 * T);
            assertEquals(2, reports.size(), "nothing is borrowed any more: " + reports);
            assertEquals(1, p.stats().heldTooLong());
        }
    }

    @Test
    void anInvalidatedObjectThatWasHeldTooLongIsReportedAsReturned() {
        try (BoundedPool<Tracked> p = pool(THRESHOLD)) {
            Tracked x = p.acquire();
            p.checkHeldTooLong(System.nanoTime() + 2 * T);
            p.invalidate(x);
            assertEquals(List.of(LeakReport.Kind.HELD_TOO_LONG, LeakReport.Kind.RETURNED),
                    reports.stream().map(LeakReport::kind).toList());
            assertEquals(0, p.live(), "destroyed: its capacity came back");
        }
    }

    @Test
    void objectsReturnedInTimeOrHeldUnderTheThresholdAreNeverReported() {
        try (BoundedPool<Tracked> p = pool(THRESHOLD)) {
            long start = System.nanoTime();
            Tracked returned = p.acquire();
            Tracked held = p.acquire();
            p.release(returned);
            p.checkHeldTooLong(start + T / 2);
            assertEquals(List.of(), reports, "held under the threshold");
            p.release(held);
            p.checkHeldTooLong(start + 100 * T);
            assertEquals(List.of(), reports, "released before the check");
            assertEquals(0, p.stats().heldTooLong());
        }
    }

    @Test
    void eachBorrowingOfAReusedObjectIsWatchedOnItsOwn() {
        try (BoundedPool<Tracked> p = pool(THRESHOLD)) {
            Tracked x = p.acquire();
            p.checkHeldTooLong(System.nanoTime() + 2 * T);
            p.release(x);
            Tracked again = p.acquire();
            assertEquals(x, again, "the same object, borrowed anew");
            p.checkHeldTooLong(System.nanoTime() + T / 2);
            assertEquals(2, reports.size(), "the new borrowing is not late yet: " + reports);
            p.checkHeldTooLong(System.nanoTime() + 2 * T);
            assertEquals(3, reports.size(), reports.toString());
            assertEquals(LeakReport.Kind.HELD_TOO_LONG, reports.get(2).kind());
            p.release(again);
            assertEquals(LeakReport.Kind.RETURNED, reports.get(3).kind());
        }
    }

    @Test
    void aListenerThatThrowsBreaksNeitherTheCheckNorTheRelease() {
        try (QuietPoolLog quiet = new QuietPoolLog();
             BoundedPool<Tracked> p = (BoundedPool<Tracked>) objects.builder().maxTotal(2)
                     .reportHeldLongerThan(THRESHOLD)
                     .onLeak(r -> {
                         reports.add(r);
                         throw new IllegalStateException("listener failure");
                     }).build()) {
            Tracked a = p.acquire();
            Tracked b = p.acquire();
            p.checkHeldTooLong(System.nanoTime() + 2 * T);
            assertEquals(2, reports.size(), "both reported although the first listener call threw");
            p.release(a);
            p.release(b);
            assertEquals(4, reports.size());
            assertEquals(2, p.stats().heldTooLong());
            Tracked c = p.acquire();
            p.release(c);
            assertBalanced(p);
        }
    }

    @Test
    void theMaintenanceClockReportsWithoutAnyCallFromThePool() {
        try (BoundedPool<Tracked> p = pool(Duration.ofMillis(40))) {
            Tracked x = p.acquire();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (reports.isEmpty()) {
                if (System.nanoTime() > deadline) {
                    fail("no report within 10 s of a 40 ms threshold: " + p.stats());
                }
                pauseForPolling();
            }
            p.release(x);
            assertEquals(List.of(LeakReport.Kind.HELD_TOO_LONG, LeakReport.Kind.RETURNED),
                    reports.stream().map(LeakReport::kind).toList());
        }
    }

    @Test
    void virtualThreadsThatHoldTooLongAreReportedByNameWithTheirAcquisitionSite() throws Exception {
        String line;
        if (Runtime.version().feature() >= 21) {
            line = BoundedHeldTooLongVirtualExperiment.run();
        } else {
            String out = ChildJvm.run(VirtualThreadTest.findJdk21(),
                    BoundedHeldTooLongVirtualExperiment.class, 60, "-Xmx128m");
            line = out.lines().filter(l -> l.startsWith(BoundedHeldTooLongVirtualExperiment.RESULT))
                    .findFirst().orElseThrow(() -> new AssertionError("no result line in:\n" + out));
        }
        int n = BoundedHeldTooLongVirtualExperiment.THREADS;
        for (String key : List.of("held", "returned", "sites", "names", "counted")) {
            assertEquals(key.equals("sites") || key.equals("names") ? 2 * n : n,
                    BoundedHeldTooLongVirtualExperiment.value(line, key), key + ": " + line);
        }
    }

    @Test
    void badThresholdsAndUnboundedPoolsAreRejectedSayingWhatToDo() {
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> objects.builder().reportHeldLongerThan(null));
        assertTrue(npe.getMessage().startsWith("reportHeldLongerThan is null: pass a Duration"), npe.getMessage());
        for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(-1))) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> objects.builder().reportHeldLongerThan(bad));
            assertTrue(e.getMessage().contains("reportHeldLongerThan must be positive")
                    && e.getMessage().contains("pass a Duration above zero"), e.getMessage());
        }
        IllegalStateException ise = assertThrows(IllegalStateException.class,
                () -> objects.builder().reportHeldLongerThan(THRESHOLD).build());
        assertTrue(ise.getMessage().startsWith("reportHeldLongerThan applies to bounded pools only")
                && ise.getMessage().contains("maxTotal(n)"), ise.getMessage());
    }
}
