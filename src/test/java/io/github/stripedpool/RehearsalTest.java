package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rehearsal of the pools' paths that the first build of the JVM runs ({@link Rehearsal};
 * whether it does its job is {@code HeapExhaustionTest}'s, in a child JVM): it must not fail the
 * build of a thread that was interrupted, nor clear its interrupt.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RehearsalTest {

    @Test
    void anInterruptedThreadRehearsesAndStaysInterrupted() {
        Thread.currentThread().interrupt();
        try {
            Rehearsal.run(LeakSettings.DISABLED);
            assertTrue(Thread.currentThread().isInterrupted(), "the rehearsal cleared the thread's interrupt");
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * The throwaway pools read no system property: a bad leak-detection property fails only the
     * builds that use it, not one that sets its own level (it failed every build, since the
     * rehearsal was never done).
     */
    @Test
    void aBadLeakDetectionPropertyDoesNotFailTheRehearsal() {
        String before = System.getProperty(LeakSettings.LEVEL_PROPERTY);
        System.setProperty(LeakSettings.LEVEL_PROPERTY, "bogus");
        try {
            Rehearsal.run(LeakSettings.DISABLED);
            Rehearsal.run(LeakSettings.resolve(LeakDetection.PARANOID, 0, null));
            Rehearsal.run(LeakSettings.resolve(LeakDetection.SAMPLED, 3, null));
        } finally {
            if (before == null) {
                System.clearProperty(LeakSettings.LEVEL_PROPERTY);
            } else {
                System.setProperty(LeakSettings.LEVEL_PROPERTY, before);
            }
        }
    }

    @Test
    void aPoolBuiltByAnInterruptedThreadWorks() {
        Thread.currentThread().interrupt();
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(1).name("interrupted-build").build()) {
            pool.release(pool.acquire());
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }
}
