package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import io.github.stripedpool.LeakTesting.Reports;
import java.util.ArrayList;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/** SAMPLED: about one leak in N is tracked, and every tracked leak is reported. */
class LeakSamplingTest {
    private static final int INTERVAL = 16;
    private static final int LEAKS = 4_000;

    /** Acquires {@code n} buffers into {@code held}, never to release them. */
    private static void leakMany(Pool<Buffer> pool, int n, List<Buffer> held) {
        for (int i = 0; i < n; i++) {
            held.add(pool.acquire());
        }
    }

    @Test
    void aboutOneLeakInTheSamplingIntervalIsReported() throws Exception {
        Reports reports = new Reports();
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("sampled")
                .leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(INTERVAL)
                .onLeak(reports).build();
        // The reports, a few hundred, are captured here; the test log configuration keeps them
        // out of the console.
        try (LeakLogCapture quiet = new LeakLogCapture("io.github.stripedpool")) {
            List<Buffer> held = new ArrayList<>();
            leakMany(pool, LEAKS, held);
            // Counted while the buffers are still reachable: no tracker has been reaped yet.
            int tracked = LeakTesting.tracked(pool);
            held.clear();
            // Binomial(4000, 1/16): mean 250, standard deviation 15.3; 6 deviations either side.
            assertTrue(tracked >= 158 && tracked <= 342, "tracked " + tracked + " of " + LEAKS);

            assertEquals(tracked, reports.await(tracked).size());
            LeakTesting.gcUntil("the tracker table empties", () -> LeakTesting.tracked(pool) == 0);
            assertEquals(tracked, reports.soFar().size(), "exactly the tracked leaks are reported");
            assertEquals(tracked, pool.stats().leaks());
            assertTrue(LeakTesting.hasFrame(reports.taken.get(0).stackTrace(), "leakMany"));
            assertEquals(tracked, quiet.count("LEAK: pool 'sampled'"));
        }
        pool.close();
    }

    @Test
    void releasedSampledObjectsLeaveTheTableWhenReacquired() {
        Pool<Buffer> pool = Pool.builder(Buffer::new).leakDetection(LeakDetection.SAMPLED)
                .leakSamplingInterval(4).maxIdle(1).build();
        Pool<Buffer> leaky = pool;
        for (int i = 0; i < 10_000; i++) {
            Buffer b = pool.acquire();
            pool.release(b);
            assertTrue(LeakTesting.tracked(leaky) <= 1, "at most the one object in circulation is tracked");
        }
        pool.close();
    }

    /**
     * A tracked object released on another thread lands in that thread's private slot; that
     * thread's next acquisition must retire the tracker, or its next release would find the
     * tracker already released and report a double release that never happened.
     */
    @Test
    void aTrackedObjectReleasedOnAnotherThreadIsRetiredThere() throws Exception {
        // No aging during the test: an object that aging drops keeps its tracker until the
        // collector finds the object, and the pool makes another (tracked one time in four) in
        // its place, so the count would depend on when collections come rather than on the
        // retirement this test checks.
        Pool<Buffer> pool = Pool.builder(Buffer::new).leakDetection(LeakDetection.SAMPLED)
                .leakSamplingInterval(4).agingInterval(Duration.ofDays(1)).build();
        ExecutorService other = Executors.newSingleThreadExecutor();
        try {
            for (int i = 0; i < 5_000; i++) {
                Buffer x = pool.acquire(); // tracked about one time in four
                other.submit(() -> {
                    Buffer y = pool.acquire(); // empties the other thread's slot
                    pool.release(x); // into that slot
                    for (int k = 0; k < 3; k++) {
                        pool.release(pool.acquire());
                    }
                    pool.release(y);
                }).get();
            }
            // Every tracker left belongs to an object the pool still holds: the other thread's
            // slot and its spare entries keep up to 1 + PrivateSlot.SPARES of them idle, and the
            // main thread, which never releases, finds none of those and makes new ones.
            PoolStats st = pool.stats();
            int tracked = LeakTesting.tracked(pool);
            assertTrue(tracked <= st.idle() + st.inUse(), "tracked " + tracked + ", " + st);
        } finally {
            other.shutdownNow();
            pool.close();
        }
    }
}
