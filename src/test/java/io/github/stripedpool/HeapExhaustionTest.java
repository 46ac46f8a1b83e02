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
        String out = ChildJvm.run(HeapExhaustionApp.class, 120, "-Xmx48m", "-XX:+UseSerialGC",
                "-Djava.util.logging.config.file=" + System.getProperty("java.util.logging.config.file", ""));
        String last = out.lines().filter(l -> l.contains(HeapExhaustionApp.SURVIVED)).findFirst().orElse("");
        System.out.println(last);
        assertTrue(out.contains(HeapExhaustionApp.SURVIVED), out);
    }
}
