package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import io.github.stripedpool.LeakTesting.Reports;
import java.lang.reflect.Field;
import java.util.Collection;
import org.junit.jupiter.api.Test;

/**
 * The leak thread's list of pools forgets collected ones even while dead objects keep the thread
 * busy. It was pruned only after a second with nothing to do, which a service under sampled
 * detection rarely has, so an application that builds pools over and over grew it for good.
 */
class LeakReaperRegistryGrowthTest {

    private static void buildAndDropClosedPools(int n) {
        for (int i = 0; i < n; i++) {
            Pool.builder(Buffer::new).leakDetection(LeakDetection.PARANOID).build().close();
        }
    }

    private static void leakOne(Pool<Buffer> pool) {
        pool.acquire().touch();
    }

    @Test
    void collectedPoolsLeaveTheListWhileLeaksKeepTheThreadBusy() throws Exception {
        Field f = LeakReaper.class.getDeclaredField("POOLS");
        f.setAccessible(true);
        Collection<?> pools = (Collection<?>) f.get(null);
        Reports reports = new Reports();
        Pool<Buffer> busy = Pool.builder(Buffer::new).name("busy")
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).build();
        try (LeakLogCapture quiet = new LeakLogCapture("io.github.stripedpool")) {
            int built = 0;
            int leaked = 0;
            long end = System.nanoTime() + 4 * LeakReaper.IDLE_CHECK_MILLIS * 1_000_000L;
            while (System.nanoTime() - end < 0) {
                buildAndDropClosedPools(50);
                built += 50;
                leakOne(busy);
                reports.await(++leaked); // collects until reported: the leak thread just took a tracker
            }
            // Every pool built above is closed, empty and collected (the collections of await),
            // and more than IDLE_CHECK_MILLIS has passed several times over.
            assertTrue(pools.size() < built / 2,
                    "the list holds " + pools.size() + " pools after " + built + " were built and dropped");
        } finally {
            busy.close();
        }
    }
}
