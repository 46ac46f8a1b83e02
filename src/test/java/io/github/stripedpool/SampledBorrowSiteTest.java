package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.stripedpool.LeakTesting.Buffer;
import io.github.stripedpool.LeakTesting.Reports;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Under sampled leak detection the default engine tracks inside its own acquire, and
 * {@code acquire(Duration)} reaches it through {@link Pool}'s default method: that frame was
 * not cut from the recorded stack, so a leak report, and the "acquired here" of a double
 * release, began at {@code Pool.acquire} rather than at the caller's line, as the docs promise.
 */
class SampledBorrowSiteTest {

    private static void leakWithTimeout(Pool<Buffer> pool) {
        pool.acquire(Duration.ofSeconds(1)).touch(); // never released
    }

    private static Buffer acquireWithTimeout(Pool<Buffer> pool) {
        return pool.acquire(Duration.ofSeconds(1));
    }

    private static Pool<Buffer> sampledEveryTime(String name, Reports reports) {
        PoolBuilder<Buffer> b = Pool.builder(Buffer::new).name(name)
                .leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(1); // every acquisition tracked
        if (reports != null) {
            b.onLeak(reports);
        }
        return b.build();
    }

    @Test
    void theLeakReportOfAnAcquireWithATimeoutStartsAtTheCallersLine() throws Exception {
        Reports reports = new Reports();
        Pool<Buffer> pool = sampledEveryTime("sampled-timeout", reports);
        try (LeakLogCapture quiet = new LeakLogCapture("io.github.stripedpool")) {
            leakWithTimeout(pool);
            LeakReport r = reports.await(1).get(0);
            StackTraceElement first = r.stackTrace()[0];
            assertEquals(SampledBorrowSiteTest.class.getName() + ".leakWithTimeout",
                    first.getClassName() + "." + first.getMethodName(), r.toString());
        } finally {
            pool.close();
        }
    }

    @Test
    void theAcquisitionSiteOfADoubleReleaseStartsAtTheCallersLine() {
        Pool<Buffer> pool = sampledEveryTime("sampled-timeout-twice", null);
        try {
            Buffer b = acquireWithTimeout(pool);
            pool.release(b);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.release(b));
            StackTraceElement first = e.getSuppressed()[0].getStackTrace()[0];
            assertEquals(SampledBorrowSiteTest.class.getName() + ".acquireWithTimeout",
                    first.getClassName() + "." + first.getMethodName(), first.toString());
        } finally {
            pool.close();
        }
    }
}
