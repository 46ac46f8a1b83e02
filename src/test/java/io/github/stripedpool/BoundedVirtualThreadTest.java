package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Thousands of virtual threads on a bounded pool of a few objects: all of them finish, none
 * holds an object another holds, and none pins its carrier thread while waiting (see
 * {@link BoundedVirtualThreadExperiment}). Needs JDK 21+; on an older JVM it runs in a child JVM
 * on a JDK 21+ found beside this one, and is skipped with a message if there is none.
 */
@Timeout(240)
class BoundedVirtualThreadTest {
    @Test
    void thousandsOfVirtualThreadsOnFourObjectsAllFinishWithoutPinning() throws Exception {
        String line;
        if (Runtime.version().feature() >= 21) {
            line = BoundedVirtualThreadExperiment.run();
        } else {
            line = runInChildJvm(VirtualThreadTest.findJdk21());
        }
        System.out.println(line);
        int n = BoundedVirtualThreadExperiment.THREADS;
        assertEquals(n, value(line, "finished"), line);
        assertEquals(0, value(line, "failures"), line);
        assertEquals(0, value(line, "overlaps"), "two threads held one object at once: " + line);
        assertEquals(0, value(line, "pinned"), "a virtual thread pinned its carrier: " + line);
        assertEquals(0, value(line, "lateClasses"), "a class of the library was first loaded while "
                + "virtual threads used the pool (a virtual thread that waits for it pins its carrier): " + line);
        assertEquals(0, value(line, "imbalance"), line);
        assertEquals(0, value(line, "timeouts"), line);
        assertTrue(value(line, "created") <= BoundedVirtualThreadExperiment.MAX_TOTAL, line);
        assertTrue(value(line, "waits") > 0, "the threads never waited: the test proves nothing. " + line);
    }

    private static long value(String line, String key) {
        return BoundedVirtualThreadExperiment.value(line, key);
    }

    private static String runInChildJvm(Path jdk) throws Exception {
        System.out.println("running " + BoundedVirtualThreadExperiment.class.getName() + " in a child JVM on " + jdk);
        // ChildJvm: its timeout holds even if the child hangs (it reads the output from a file).
        String out = ChildJvm.run(jdk, VirtualThreadTest.childClassPath(), BoundedVirtualThreadExperiment.class, 200,
                "-Xmx256m");
        System.out.print(out);
        String line = out.lines().filter(l -> l.startsWith(BoundedVirtualThreadExperiment.RESULT))
                .findFirst().orElse(null);
        assertNotNull(line, "the child JVM printed no result line:\n" + out);
        return line;
    }
}
