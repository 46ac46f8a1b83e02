package io.github.stripedpool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Pools built and used before Flight Recorder is initialised, in a JVM of their own
 * ({@link FlightRecorderStartTest}). Every path that can record an event runs first: a
 * statistics-bearing pool, a factory that fails, a bounded wait that times out, a leak. With
 * {@code -Djfr.start=late} a recording then starts, the same paths run again, and each event must
 * reach it, the periodic statistics of a pool built before Flight Recorder came up included;
 * then, every pool closed, a pool built afterwards must still get its statistics. With
 * {@code -Djfr.start=unregistered}, a wait of a pool made without the builder (which registers
 * nothing with Flight Recorder) must be recorded once a recording starts; with
 * {@code -Djfr.start=first}, a factory failure of the first pool's refill, under a recording
 * started before it was built. Prints
 * {@link #DONE} at the end; any failed check throws, and the JVM exits non-zero.
 */
public final class FlightRecorderStartApp {
    static final String DONE = "flight-recorder-start: done";

    private FlightRecorderStartApp() {
    }

    public static void main(String[] args) throws Exception {
        if ("unregistered".equals(System.getProperty("jfr.start"))) {
            unregistered();
            return;
        }
        if ("first".equals(System.getProperty("jfr.start"))) {
            recordingBeforeTheFirstBuild();
            return;
        }
        boolean late = "late".equals(System.getProperty("jfr.start"));
        List<LeakReport> leaks = new CopyOnWriteArrayList<>();
        try (Pool<Object> stats = Pool.builder(Object::new).name("early-stats").build();
             Pool<Object> failing = Pool.builder(() -> {
                 throw new IllegalStateException("no connection");
             }).name("early-factory").build();
             Pool<Object> bounded = Pool.builder(Object::new).name("early-wait").maxTotal(1).build();
             Pool<Object> tracked = Pool.builder(Object::new).name("early-leak")
                     .leakDetection(LeakDetection.PARANOID).onLeak(leaks::add).build()) {
            WithoutFlightRecorderApp.everyEventsPath(stats, failing, bounded, tracked, leaks);
            check(FlightRecorderEvents.available() && !FlightRecorderEvents.recording(),
                    "Flight Recorder was not started, yet the library set up its events");
            if (!late) {
                System.out.println(DONE);
                return;
            }
            Path file = Files.createTempFile("late-start", ".jfr");
            try (Recording recording = new Recording()) {
                recording.enable(PoolStatsEvent.NAME).withPeriod(Duration.ofMillis(100));
                recording.enable(FactoryFailureEvent.NAME);
                recording.enable(AcquireWaitEvent.NAME).withThreshold(Duration.ZERO);
                recording.enable(LeakEvent.NAME);
                recording.start();
                check(FlightRecorderEvents.recording(), "the listener did not hear that Flight Recorder started");
                WithoutFlightRecorderApp.everyEventsPath(stats, failing, bounded, tracked, leaks);
                List<RecordedEvent> events = dumpUntil(recording, file,
                        e -> is(e, PoolStatsEvent.NAME, "early-stats") && e.getLong("created") == 1);
                check(events.stream().anyMatch(e -> is(e, PoolStatsEvent.NAME, "early-stats")),
                        "no statistics of a pool built before Flight Recorder started: " + names(events));
                check(events.stream().filter(e -> is(e, FactoryFailureEvent.NAME, "early-factory")).count() == 1,
                        "not one factory failure of the second round: " + names(events));
                check(events.stream().filter(e -> is(e, AcquireWaitEvent.NAME, "early-wait")).count() == 1,
                        "not one wait of the second round: " + names(events));
                check(events.stream().anyMatch(e -> is(e, LeakEvent.NAME, "early-leak")),
                        "no leak event of the second round: " + names(events));
            } finally {
                Files.deleteIfExists(file);
            }
        }
        // Every pool closed: the listener and the hook are gone; a new pool must bring the hook back.
        Path file = Files.createTempFile("after-close", ".jfr");
        try (Recording recording = new Recording();
             Pool<Object> later = Pool.builder(Object::new).name("later-stats").build()) {
            recording.enable(PoolStatsEvent.NAME).withPeriod(Duration.ofMillis(100));
            recording.start();
            later.release(later.acquire());
            List<RecordedEvent> events = dumpUntil(recording, file,
                    e -> is(e, PoolStatsEvent.NAME, "later-stats"));
            check(events.stream().anyMatch(e -> is(e, PoolStatsEvent.NAME, "later-stats")),
                    "no statistics of a pool built after every earlier pool was closed: " + names(events));
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println(DONE);
    }

    /**
     * A pool made without the builder registers no listener, and nothing else in this JVM does:
     * once a recording starts, its wait must still be recorded (the event's path asks Flight
     * Recorder itself).
     */
    private static void unregistered() throws Exception {
        Path file = Files.createTempFile("unregistered", ".jfr");
        try (BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1)
                .settings("unregistered-wait"))) {
            Object only = pool.acquire();
            try (Recording recording = new Recording()) {
                recording.enable(AcquireWaitEvent.NAME).withThreshold(Duration.ZERO);
                recording.start();
                try {
                    pool.acquire(Duration.ofMillis(5));
                    throw new AssertionError("a second object of a pool of one");
                } catch (PoolTimeoutException expected) {
                    // recorded as a wait
                }
                checkOne(recording, file, AcquireWaitEvent.NAME, "unregistered-wait",
                        "not one wait of a pool that registered no listener");
            } finally {
                pool.release(only);
                Files.deleteIfExists(file);
            }
        }
        System.out.println(DONE);
    }

    /**
     * A recording runs before the first pool is built, whose {@code minIdle} refill starts on a
     * worker inside {@code build()}, with a factory that fails once: the failure must be
     * recorded (it once fell into the time the builder spent setting the events up).
     */
    private static void recordingBeforeTheFirstBuild() throws Exception {
        Path file = Files.createTempFile("first-build", ".jfr");
        AtomicInteger calls = new AtomicInteger();
        try (Recording recording = new Recording()) {
            recording.enable(FactoryFailureEvent.NAME);
            recording.start();
            try (Pool<Object> pool = Pool.builder(() -> {
                if (calls.incrementAndGet() == 1) {
                    throw new IllegalStateException("down at first");
                }
                return new Object();
            }).name("first-refill").maxTotal(2).minIdle(1).build()) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (pool.stats().created() == 0) { // the refill tries again after its failure
                    check(System.nanoTime() < deadline, "the refill made nothing in 30 s: " + pool.stats());
                    Thread.sleep(10);
                }
            }
            checkOne(recording, file, FactoryFailureEvent.NAME, "first-refill",
                    "not one factory failure of the first pool's refill");
        } finally {
            Files.deleteIfExists(file);
        }
        System.out.println(DONE);
    }

    /** Stops the recording and checks that it holds exactly one event of {@code type} and {@code pool}. */
    private static void checkOne(Recording recording, Path file, String type, String pool, String message)
            throws Exception {
        recording.stop();
        recording.dump(file);
        List<RecordedEvent> events = RecordingFile.readAllEvents(file);
        check(events.stream().filter(e -> is(e, type, pool)).count() == 1, message + ": " + names(events));
    }

    /** Dumps the recording every 50 ms until an event matches, or 20 s have passed. */
    private static List<RecordedEvent> dumpUntil(Recording recording, Path file, Predicate<RecordedEvent> wanted)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (;;) {
            recording.dump(file);
            List<RecordedEvent> events = RecordingFile.readAllEvents(file);
            if (events.stream().anyMatch(wanted) || System.nanoTime() > deadline) {
                return events;
            }
            Thread.sleep(50); // a poll interval: the statistics event's period is 100 ms
        }
    }

    private static boolean is(RecordedEvent e, String type, String pool) {
        return e.getEventType().getName().equals(type) && pool.equals(e.getString("pool"));
    }

    private static String names(List<RecordedEvent> events) {
        return events.stream().map(e -> e.getEventType().getName() + "/" + e.getString("pool"))
                .distinct().collect(Collectors.joining(", "));
    }

    private static void check(boolean ok, String message) {
        if (!ok) {
            throw new AssertionError(message);
        }
    }
}
