package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One {@link OutOfMemoryError} once killed the JVM-wide aging and leak threads: from then on no
 * pool aged and no leak was reported, and PARANOID trackers piled up. The threads must survive
 * any throwable, from user code and from their own allocations.
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

    private static void survives(boolean cold) throws Exception {
        String out = ChildJvm.run(HeapExhaustionApp.class, 120, "-Xmx48m", "-XX:+UseSerialGC",
                "-D" + HeapExhaustionApp.COLD_PROPERTY + "=" + cold,
                "-Djava.util.logging.config.file=" + System.getProperty("java.util.logging.config.file", ""));
        String last = out.lines().filter(l -> l.contains(HeapExhaustionApp.SURVIVED)).findFirst().orElse("");
        System.out.println(last);
        assertTrue(out.contains(HeapExhaustionApp.SURVIVED), out);
    }
}
