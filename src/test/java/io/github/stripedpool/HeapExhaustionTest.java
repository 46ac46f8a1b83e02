package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One {@link OutOfMemoryError} once killed the JVM-wide aging and leak threads: from then on no
 * pool aged and no leak was reported, and PARANOID trackers piled up. The threads must survive
 * any throwable, from user code and from their own allocations.
 *
 * <p>And a bounded pool asked to create while the heap is exhausted
 * ({@link BoundedHeapExhaustionApp}, in a child JVM with a 32 MiB heap): out of memory after the
 * factory had returned (recording the new object) or before it ran (growing the table of
 * entries) left the unit of capacity reserved, or the entry RESERVED with nobody to finish it:
 * each such failure took a unit of maxTotal for good, and the object made was never destroyed.
 * In a pool reporting objects held too long, out of memory for an acquisition's record lost
 * the object.
 */
@Timeout(180)
class HeapExhaustionTest {

    @Test
    void agingAndLeakReportsGoOnAfterTheHeapWasExhaustedAndHooksThrewOutOfMemoryError() throws Exception {
        survives(false);
    }

    /**
     * The background work first runs while the heap is exhausted: every path it takes is set up
     * (classes loaded, call sites linked) at the worst moment. A lambda's call site whose first
     * linkage failed then failed for good, and no pool ever aged again (1 run in 10 of the test
     * above, whenever its first collection fell in the exhaustion; nearly every run here).
     */
    @Test
    void backgroundWorkFirstRunWhileTheHeapIsExhaustedStillWorksAfterwards() throws Exception {
        survives(true);
    }

    @Test
    void aBoundedAcquireThatRunsOutOfMemoryWhileCreatingTakesNoCapacityWithIt() throws Exception {
        boundedPoolKeepsItsCapacity(false);
    }

    /**
     * The same in a pool that reports objects held too long: each acquisition's record (with its
     * call site) is made after the object is taken (the record is now given up instead).
     */
    @Test
    void aBoundedAcquireWhoseHeldTooLongRecordRunsOutOfMemoryLosesNothing() throws Exception {
        boundedPoolKeepsItsCapacity(true);
    }

    /**
     * A bounded pool's first releases, acquisitions of idle objects and invalidation run while
     * the heap is exhausted ({@link ColdPathsApp}): none may run out of memory (building the
     * pool set their paths up: {@link Rehearsal}), and nothing may be lost. Each of them ran out
     * of memory, and one halfway through a first release left an entry idle in no idle stack,
     * never handed out again: two units of maxTotal 4 lost.
     */
    @Test
    void aBoundedPoolsFirstReleasesAndAcquisitionsNeedNoMemory() throws Exception {
        firstPathsNeedNoMemory("bounded");
    }

    /** The same for an unbounded pool with reset and destroy hooks. */
    @Test
    void anUnboundedPoolsFirstReleasesAndAcquisitionsNeedNoMemory() throws Exception {
        firstPathsNeedNoMemory("unbounded");
    }

    /**
     * The same with a pool built on one kind of thread and used by the other (JDK 21+): each
     * kind's paths are rehearsed whatever the builder's kind. Built on a platform thread, a
     * virtual thread's first acquisitions ran out of memory, and one after its object was taken
     * lost it (a unit of maxTotal, never destroyed); built on a virtual thread, a platform
     * thread's first operations lost the unbounded pool's objects as above.
     */
    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"bounded, virtual-user", "bounded, virtual-builder",
        "unbounded, virtual-user", "unbounded, virtual-builder"})
    void eachKindOfThreadsFirstPathsNeedNoMemory(String engine, String threads) throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        firstPathsNeedNoMemory(engine, "-D" + ColdPathsApp.THREADS_PROPERTY + "=" + threads);
    }

    private static void firstPathsNeedNoMemory(String engine, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("-Xmx32m", "-XX:+UseSerialGC",
                "-D" + ColdPathsApp.ENGINE_PROPERTY + "=" + engine));
        args.addAll(List.of(more));
        String out = ChildJvm.run(ColdPathsApp.class, 100, args.toArray(new String[0]));
        System.out.println(out.lines().filter(l -> l.contains(ColdPathsApp.WARM)).findFirst().orElse(""));
        assertTrue(out.contains(ColdPathsApp.WARM), out);
    }

    private static void boundedPoolKeepsItsCapacity(boolean watched) throws Exception {
        String out = ChildJvm.run(BoundedHeapExhaustionApp.class, 100, "-Xmx32m", "-XX:+UseSerialGC",
                "-D" + BoundedHeapExhaustionApp.WATCHED_PROPERTY + "=" + watched);
        System.out.println(out.lines().filter(l -> l.contains(BoundedHeapExhaustionApp.KEPT)).findFirst().orElse(""));
        assertTrue(out.contains(BoundedHeapExhaustionApp.KEPT), out);
    }

    private static void survives(boolean cold) throws Exception {
        String out = ChildJvm.run(HeapExhaustionApp.class, 120, "-Xmx48m", "-XX:+UseSerialGC",
                "-D" + HeapExhaustionApp.COLD_PROPERTY + "=" + cold,
                "-Djava.util.logging.config.file=" + System.getProperty("java.util.logging.config.file", ""));
        String last = out.lines().filter(l -> l.contains(HeapExhaustionApp.SURVIVED)).findFirst().orElse("");
        System.out.println(last);
        assertTrue(out.contains(HeapExhaustionApp.SURVIVED), out);
    }
}
