package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A build rejected for contradicting settings ({@link PoolBuilder#build()}: "@throws
 * IllegalStateException if the settings contradict each other") must leave nothing behind: no
 * pool, and no background thread. The first build of a JVM used to run {@link Rehearsal}
 * (throwaway pools) before it checked the settings, so a build that was rejected started the
 * library's aging thread, and under leak detection its leak thread.
 */
class FailedBuildStartsThreadsTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"DISABLED, unbounded", "DISABLED, bounded", "PARANOID, unbounded", "SAMPLED, bounded"})
    void aBuildRejectedForContradictorySettingsStartsNoThread(String level, String kind) throws Exception {
        String out = ChildJvm.run(FailedBuildStartsThreadsApp.class, 60, "-Dlevel=" + level, "-Dkind=" + kind);
        assertTrue(out.contains("REJECTED="), out);
        assertTrue(out.contains("BEFORE=[]"), out);
        assertTrue(out.contains("AFTER=[]"),
                "a build that threw IllegalStateException started library threads:\n" + out);
    }
}
