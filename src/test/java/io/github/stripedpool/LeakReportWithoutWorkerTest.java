package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import io.github.stripedpool.LeakTesting.Reports;
import java.lang.reflect.Field;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * When no worker thread can be started for a pool's lane (the JVM cannot create a thread), the
 * leak thread runs the report itself (LeakAware). The lane swallowed the failure to start a
 * worker, so the leak thread's fallback never ran and the report waited in the lane for the
 * pool's next leak, possibly for good. The lane's executor here fails as a thread start does.
 */
class LeakReportWithoutWorkerTest {

    private static void leakOne(Pool<Buffer> pool) {
        pool.acquire().touch();
    }

    @Test
    void aLeakIsReportedEvenWhenNoWorkerCanBeStarted() throws Exception {
        Reports reports = new Reports();
        AtomicReference<String> deliveredOn = new AtomicReference<>();
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("no-worker")
                .leakDetection(LeakDetection.PARANOID).onLeak(r -> {
                    deliveredOn.set(Thread.currentThread().getName());
                    reports.accept(r);
                }).build();
        LeakDetectingPool<Buffer> detector = (LeakDetectingPool<Buffer>) pool;
        Field f = Background.class.getDeclaredField("lanes");
        f.setAccessible(true);
        @SuppressWarnings("unchecked")
        Map<Object, Lane> lanes = (Map<Object, Lane>) f.get(null);
        AtomicInteger refusals = new AtomicInteger();
        Executor noThreads = job -> {
            refusals.incrementAndGet();
            throw new OutOfMemoryError("unable to create native thread (expected by the test)");
        };
        synchronized (lanes) {
            lanes.put(detector, new Lane(noThreads, Lane.TAKE_OVER_NANOS));
        }
        try (LeakLogCapture log = new LeakLogCapture("io.github.stripedpool")) {
            leakOne(pool);
            assertEquals(1, reports.await(1).size());
            assertTrue(refusals.get() > 0, "precondition: the lane tried to start a worker");
            assertEquals(LeakReaper.THREAD_NAME, deliveredOn.get(),
                    "the report ran on the leak thread, no worker being available");
        } finally {
            synchronized (lanes) {
                lanes.remove(detector);
            }
            pool.close();
        }
    }
}
