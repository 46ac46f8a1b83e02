package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A bounded pool asked to create while the heap is exhausted ({@link BoundedHeapExhaustionApp},
 * in a child JVM with a 32 MiB heap). An {@link OutOfMemoryError} after the factory had returned
 * (recording the new object) or before it ran (growing the table of entries) left the unit of
 * capacity reserved, or the entry RESERVED with nobody to finish it: each such failure took a
 * unit of maxTotal for good, and the object made was never destroyed.
 */
@Timeout(120)
class BoundedHeapExhaustionTest {

    @Test
    void anAcquireThatRunsOutOfMemoryWhileCreatingTakesNoCapacityWithIt() throws Exception {
        String out = ChildJvm.run(BoundedHeapExhaustionApp.class, 100, "-Xmx32m", "-XX:+UseSerialGC");
        System.out.println(out.lines().filter(l -> l.contains(BoundedHeapExhaustionApp.KEPT)).findFirst().orElse(""));
        assertTrue(out.contains(BoundedHeapExhaustionApp.KEPT), out);
    }
}
