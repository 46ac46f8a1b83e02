package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The pool's Flight Recorder events reach a recording, with the fields an operator reads. */
@Timeout(60)
class FlightRecorderEventsTest {

    @Test
    void aRecordingGetsPeriodicStatisticsFactoryFailuresOfBothEnginesAndLongWaits() throws Exception {
        Path file = Files.createTempFile("pool-events", ".jfr");
        List<RecordedEvent> events;
        try (Recording recording = new Recording()) {
            recording.enable(PoolStatsEvent.NAME).withPeriod(Duration.ofMillis(100));
            recording.enable(FactoryFailureEvent.NAME);
            recording.enable(AcquireWaitEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();

            try (Pool<Object> stats = Pool.builder(Object::new).name("jfr-stats").build();
                 Pool<Object> failing = Pool.builder(() -> {
                     throw new IllegalStateException("no connection");
                 }).name("jfr-factory").build();
                 Pool<Object> erring = Pool.builder(() -> {
                     throw new StackOverflowError("thrown on purpose by a factory");
                 }).name("jfr-factory-error").build();
                 Pool<Object> boundedFailing = Pool.builder(() -> {
                     throw new IllegalStateException("no connection either");
                 }).name("jfr-factory-bounded").maxTotal(1).build();
                 Pool<Object> bounded = Pool.builder(Object::new).name("jfr-wait").maxTotal(1).build()) {
                stats.release(stats.acquire());
                assertThrows(ObjectCreationException.class, failing::acquire);
                assertThrows(StackOverflowError.class, erring::acquire);
                assertThrows(ObjectCreationException.class, boundedFailing::acquire);
                Object only = bounded.acquire();
                assertThrows(PoolTimeoutException.class, () -> bounded.acquire(Duration.ofMillis(20)));
                bounded.release(only);
                events = dumpUntilAStatisticsEventOf("jfr-stats", recording, file);
            }
            // A periodic event may also have been taken between the build and the acquisition.
            List<RecordedEvent> statistics = named(events, PoolStatsEvent.NAME, "jfr-stats").stream()
                    .filter(e -> e.getLong("created") == 1).collect(Collectors.toList());
            assertFalse(statistics.isEmpty(), "no statistics event of the pool after its acquisition: "
                    + names(events));
            RecordedEvent last = statistics.get(statistics.size() - 1);
            assertEquals(1, last.getLong("idle"));
            assertEquals(0, last.getLong("trims"), "a test JVM's heap is far from full");
            assertFalse(last.getBoolean("bounded"));

            List<RecordedEvent> failures = named(events, FactoryFailureEvent.NAME, "jfr-factory");
            assertEquals(1, failures.size(), names(events));
            assertTrue(failures.get(0).getString("failure").contains("no connection"));
            // Both engines record a failure, an Error as well as an exception.
            List<RecordedEvent> errors = named(events, FactoryFailureEvent.NAME, "jfr-factory-error");
            assertEquals(1, errors.size(), names(events));
            assertTrue(errors.get(0).getString("failure").contains("StackOverflowError"));
            assertEquals(1, named(events, FactoryFailureEvent.NAME, "jfr-factory-bounded").size(),
                    names(events));

            List<RecordedEvent> waits = named(events, AcquireWaitEvent.NAME, "jfr-wait");
            assertEquals(1, waits.size(), names(events));
            assertTrue(waits.get(0).getBoolean("timedOut"));
            assertTrue(waits.get(0).getDuration().toMillis() >= 15, "the wait lasted the timeout: " + waits.get(0));
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * Dumps the recording every 50 ms until it holds a statistics event of {@code pool} taken
     * after its one creation.
     */
    private static List<RecordedEvent> dumpUntilAStatisticsEventOf(String pool, Recording recording,
            Path file) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (;;) {
            recording.dump(file);
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            if (named(events, PoolStatsEvent.NAME, pool).stream().anyMatch(e -> e.getLong("created") == 1)
                    || System.nanoTime() > deadline) {
                return events;
            }
            Thread.sleep(50); // a poll interval: the event's period is 100 ms
        }
    }

    private static List<RecordedEvent> named(List<RecordedEvent> events, String type, String pool) {
        return events.stream().filter(e -> e.getEventType().getName().equals(type))
                .filter(e -> pool.equals(e.getString("pool"))).collect(Collectors.toList());
    }

    private static String names(List<RecordedEvent> events) {
        return events.stream().map(e -> e.getEventType().getName() + "/" + e.getString("pool"))
                .distinct().collect(Collectors.joining(", "));
    }
}
