package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Every library thread survives the JVM's bad moments, checked by what the threads do, not by
 * their names: bounded eviction, the refill to {@code minIdle}, unbounded aging and leak reports
 * must all still happen after interrupts sent from outside, hooks that throw
 * {@link StackOverflowError}, and heap exhaustion while the threads work ({@link LibraryThreadsApp},
 * in a child JVM with a 48 MB heap).
 *
 * <p>Regression: one {@link OutOfMemoryError} inside the maintenance timer (a
 * {@code ScheduledThreadPoolExecutor}, whose worker allocates while it waits for the next task)
 * killed its only thread, and the executor could not start another while the heap was full: no
 * bounded pool evicted, refilled or reclaimed anything again until a new pool was built.
 */
@Timeout(300)
class LibraryThreadsTest {

    @Test
    void backgroundWorkGoesOnAfterInterruptsStackOverflowsAndHeapExhaustion() throws Exception {
        String out = ChildJvm.run(LibraryThreadsApp.class, 280, "-Xmx48m", "-XX:+UseSerialGC",
                "-Djava.util.logging.config.file=" + System.getProperty("java.util.logging.config.file", ""));
        System.out.println(out.lines().filter(l -> l.contains("stopped") || l.contains(LibraryThreadsApp.SURVIVED))
                .reduce("", (a, b) -> a + b + "\n"));
        assertTrue(out.contains(LibraryThreadsApp.SURVIVED), out);
    }
}
