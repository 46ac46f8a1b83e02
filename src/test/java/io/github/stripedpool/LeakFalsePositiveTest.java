package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import io.github.stripedpool.LeakTesting.Reports;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** PARANOID never reports an object that was released, however often the collector runs. */
class LeakFalsePositiveTest {
    private static final int THREADS = 2;
    /** Acquire/release cycles in all: each loop turn below makes two. */
    private static final int CYCLES = 1_000_000;
    private static final int GC_EVERY = 100_000;

    private static void leakCanary(Pool<Buffer> pool) {
        pool.acquire().touch();
    }

    @Test
    void aMillionReleasedCyclesUnderForcedCollectionsReportNothing() throws Exception {
        Reports reports = new Reports();
        // maxIdle 1: most objects are dropped on release, so released trackers die all the time.
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("well-behaved").maxIdle(1)
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).build();
        AtomicLong cycles = new AtomicLong();
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < CYCLES / THREADS / 2; i++) {
                    Buffer a = pool.acquire();
                    Lease<Buffer> b = pool.lease();
                    a.touch();
                    b.get().touch();
                    pool.release(a);
                    b.close();
                    if (cycles.addAndGet(2) % GC_EVERY == 0) {
                        System.gc();
                    }
                }
            }, "cycler-" + t);
            th.setUncaughtExceptionHandler((x, e) -> {
                synchronized (failures) {
                    failures.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        assertTrue(failures.isEmpty(), () -> "a cycle threw: " + failures);
        assertEquals(CYCLES, cycles.get());
        assertEquals(CYCLES, pool.stats().released());

        // The canary proves the collector and the leak thread have had their turn: every tracker
        // of the cycles that died is enqueued no later than the canary's.
        leakCanary(pool);
        List<LeakReport> got = reports.await(1);
        LeakTesting.gcUntil("released trackers are gone",
                () -> LeakTesting.tracked(pool) <= 1);
        assertEquals(1, reports.soFar().size(), () -> "false positive: " + reports.soFar().get(1));
        assertEquals("leakCanary", got.get(0).stackTrace()[0].getMethodName());
        assertEquals(1, pool.stats().leaks());
        pool.close();
    }
}
