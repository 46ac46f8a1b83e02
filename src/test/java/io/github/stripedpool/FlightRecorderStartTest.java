package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Flight Recorder's metadata is set up by the first use of any event class or the first
 * registration of a periodic event: about 180 ms, which every JVM's first {@code build()} paid
 * while the library touched its event classes eagerly, with no recording to take an event. The
 * library now leaves them alone until Flight Recorder is initialised, and must then deliver every
 * event, those of pools built before included; and where the module {@code jdk.jfr} is missing,
 * nothing of it may be loaded at all. Each case runs in a JVM of its own, where no earlier test
 * started Flight Recorder.
 */
@Timeout(180)
class FlightRecorderStartTest {

    @Test
    void poolsUsedWithoutFlightRecorderNeverSetUpItsEvents() throws Exception {
        String out = ChildJvm.run(FlightRecorderStartApp.class, 120, "-Djfr.start=never",
                "-Xlog:class+load=info:stdout");
        assertTrue(out.contains(FlightRecorderStartApp.DONE), out);
        List<String> loaded = out.lines().filter(l -> l.contains("[class,load]"))
                .map(l -> l.substring(l.indexOf("[class,load]") + "[class,load]".length()).trim())
                .map(l -> l.split(" ")[0]).collect(Collectors.toList());
        assertTrue(loaded.contains(Pool.class.getName()), "no class loading was logged:\n" + out);
        List<String> eventSetUp = loaded.stream().filter(c -> c.equals("jdk.jfr.internal.MetadataRepository")
                || c.startsWith("jdk.jfr.internal.event.EventConfiguration")
                || c.startsWith(Pool.class.getPackageName() + ".") && c.endsWith("Event"))
                .collect(Collectors.toList());
        assertEquals(List.of(), eventSetUp, "a JVM that never started Flight Recorder set up event "
                + "classes while it built and used pools (a statistics pool, a failing factory, a "
                + "timed-out wait, a leak)");
    }

    @Test
    void withoutTheModuleJdkJfrEveryPathWorksAndTheFirstLeakReportSaysSoOnce() throws Exception {
        String out = ChildJvm.run(WithoutFlightRecorderApp.class, 120, "--limit-modules", "java.base");
        assertTrue(out.contains(WithoutFlightRecorderApp.DONE), out);
        assertEquals(1, out.split("module jdk.jfr is not available", -1).length - 1, out);
    }

    @Test
    void aRecordingStartedAfterThePoolsWereBuiltGetsEveryEvent() throws Exception {
        String out = ChildJvm.run(FlightRecorderStartApp.class, 120, "-Djfr.start=late");
        assertTrue(out.contains(FlightRecorderStartApp.DONE), out);
    }

    @Test
    void aRefillsFactoryFailureInTheFirstBuildIsRecorded() throws Exception {
        String out = ChildJvm.run(FlightRecorderStartApp.class, 120, "-Djfr.start=first");
        assertTrue(out.contains(FlightRecorderStartApp.DONE), out);
    }

    @Test
    void aWaitIsRecordedWhereNoListenerWasRegistered() throws Exception {
        String out = ChildJvm.run(FlightRecorderStartApp.class, 120, "-Djfr.start=unregistered");
        assertTrue(out.contains(FlightRecorderStartApp.DONE), out);
    }
}
