package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The rehearsal of a virtual thread's paths, run at the first build of a JVM with that build's
 * leak detection, gives back what it takes. Under sampled detection it released through the
 * virtual thread's path without marking the tracker, so an idle object's tracker said it was
 * still out: a collection in the short life of the rehearsal's pool reported a leak of an object
 * that had been given back.
 */
class RehearsalSampledTrackerTest {

    @Test
    void theVirtualPathsLeaveNoBorrowedTrackerAndReportNoLeak() throws Exception {
        PoolSettings<Object> settings = Pool.builder(Object::new)
                .leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(1)
                .maxIdle(4 * PrivateSlot.SPARES).settings("rehearsal-like");
        UnboundedPool<Object> engine = new UnboundedPool<>(settings);
        try (LeakLogCapture quiet = new LeakLogCapture("io.github.stripedpool")) {
            engine.rehearseVirtualPaths(); // acquires and gives back twice; nothing is in use after it
            assertEquals(0, engine.stats().inUse(), "precondition: nothing in use");
            assertEquals(0, engine.sampler.table().linked(true), "an idle object's tracker says it is out");

            engine.close(); // drops the idle object; the engine stays reachable here
            LeakTesting.gcUntil("the dropped object's tracker is reaped", () -> engine.sampler.tracked() == 0);
            long deadline = System.nanoTime() + LeakTesting.GC_DEADLINE.toNanos();
            while (!Background.lane(engine.sampler).idle()) { // the reap job has finished
                assertTrue(System.nanoTime() - deadline < 0, "the leak lane never went idle");
                Thread.onSpinWait();
            }
            assertEquals(0, engine.stats().leaks(), "an object that was given back was reported as leaked");
        }
    }
}
