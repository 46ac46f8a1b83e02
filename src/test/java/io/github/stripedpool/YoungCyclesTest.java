package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Generational ZGC's young cycles process no weak references, so the aging clock's sentinel is
 * cleared only by its major cycles, which a heap under pressure may run a few times a minute
 * while it runs thousands of young ones: pools stopped aging and trimming just when the heap
 * was short. In a JVM of its own on generational ZGC (JDK 21+).
 */
@Timeout(120)
class YoungCyclesTest {

    @Test
    void idleObjectsAgeWithGenerationalZgcsYoungCycles() throws Exception {
        int feature = Runtime.version().feature();
        assumeTrue(feature >= 21, "generational ZGC needs JDK 21 or later; this is JDK " + feature);
        List<String> flags = new ArrayList<>(List.of("-XX:+UseZGC", "-Xmx256m"));
        if (feature < 23) {
            flags.add("-XX:+ZGenerational"); // the default from JDK 23, the only mode from 24
        }
        String out = ChildJvm.run(YoungCyclesApp.class, 100, flags.toArray(new String[0]));
        assertTrue(out.contains(YoungCyclesApp.DONE), out);
    }
}
