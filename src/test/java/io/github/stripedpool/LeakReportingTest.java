package io.github.stripedpool;

import static io.github.stripedpool.LeakTesting.hasFrame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import io.github.stripedpool.LeakTesting.Reports;
import io.github.stripedpool.buffer.BufferPool;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** PARANOID leak detection end to end: real garbage collections, every delivery channel. */
class LeakReportingTest {
    private static final int LEAKS = 5;

    private LeakLogCapture log;

    @BeforeEach
    void captureLog() throws ReflectiveOperationException {
        log = new LeakLogCapture("io.github.stripedpool");
    }

    @AfterEach
    void stopCapture() throws ReflectiveOperationException {
        log.close();
    }

    /** Acquires {@code n} buffers and drops them: the method every report must point at. */
    private static void forgetToRelease(Pool<Buffer> pool, int n) {
        for (int i = 0; i < n; i++) {
            pool.acquire().touch();
        }
    }

    @Test
    void everyLeakedObjectIsReportedOnceToListenerLoggerAndFlightRecorder() throws Exception {
        Reports reports = new Reports();
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("leaky-buffers")
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).build();
        Instant before = Instant.now();
        Path jfr = Files.createTempFile("leaks", ".jfr");
        try (Recording recording = new Recording()) {
            recording.enable(LeakEvent.NAME);
            recording.start();

            forgetToRelease(pool, LEAKS);
            List<LeakReport> got = reports.await(LEAKS);

            recording.stop();
            recording.dump(jfr);
            assertEquals(LEAKS, got.size());
            for (LeakReport r : got) {
                assertEquals("leaky-buffers", r.poolName());
                assertEquals(Buffer.class.getName(), r.objectClass());
                assertEquals(Thread.currentThread().getName(), r.threadName());
                assertFalse(r.acquiredAt().isBefore(before.minusMillis(1)), r.acquiredAt() + " < " + before);
                assertFalse(r.age().isNegative());
                assertEquals("forgetToRelease", r.stackTrace()[0].getMethodName(),
                        "the pool's own frames are cut from the top:\n" + r);
                assertTrue(r.toString().contains("\tat " + LeakReportingTest.class.getName()
                        + ".forgetToRelease("), r.toString());
            }
            assertEquals(LEAKS, pool.stats().leaks());

            String logText = log.text();
            assertEquals(LEAKS, log.count("WARNING: LEAK: pool 'leaky-buffers': a "
                    + Buffer.class.getName()), logText);
            assertEquals(LEAKS, log.count("\tat " + LeakReportingTest.class.getName()
                    + ".forgetToRelease("), logText);

            List<RecordedEvent> events = RecordingFile.readAllEvents(jfr).stream()
                    .filter(e -> e.getEventType().getName().equals(LeakEvent.NAME))
                    .collect(Collectors.toList());
            assertEquals(LEAKS, events.size());
            for (RecordedEvent e : events) {
                assertEquals("leaky-buffers", e.getString("pool"));
                assertEquals(Buffer.class.getName(), e.getString("objectClass"));
                assertEquals(Thread.currentThread().getName(), e.getString("thread"));
                assertTrue(e.getLong("ageMillis") >= 0);
                assertTrue(e.getString("acquisitionStackTrace").contains(".forgetToRelease("),
                        e.getString("acquisitionStackTrace"));
            }
        } finally {
            Files.deleteIfExists(jfr);
        }
        // Nothing else is found: the reports were exactly the leaks.
        forgetToRelease(pool, 1);
        assertEquals(LEAKS + 1, reports.await(LEAKS + 1).size());
        assertEquals(LEAKS + 1, pool.stats().leaks());
        pool.close();
    }

    @Test
    void aReportNamesAnArrayClassAsJavaSourceWritesIt() throws Exception {
        Reports reports = new Reports();
        Pool<byte[]> pool = Pool.builder(() -> new byte[64]).name("leaky-arrays")
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).build();
        pool.acquire()[0] = 1;
        LeakReport r = reports.await(1).get(0);
        assertEquals("byte[]", r.objectClass());
        assertTrue(r.toString().startsWith("LEAK: pool 'leaky-arrays': a byte[] acquired"), r.toString());
        assertFalse(r.toString().contains("[B"), r.toString());
        assertEquals(1, log.count("WARNING: LEAK: pool 'leaky-arrays': a byte[] acquired"), log.text());
        pool.close();
    }

    @Test
    void leakedObjectsAreStillCountedInUseAndTheCountsBalance() throws Exception {
        Reports reports = new Reports();
        Pool<Buffer> pool = Pool.builder(Buffer::new).leakDetection(LeakDetection.PARANOID)
                .onLeak(reports).build();
        Buffer kept = pool.acquire();
        forgetToRelease(pool, 3);
        reports.await(3);
        pool.release(kept);
        PoolStats s = pool.stats();
        assertEquals(3, s.leaks());
        assertEquals(3, s.inUse());
        assertEquals(s.created() - s.dropped(), s.idle() + s.inUse());
        assertTrue(s.toString().contains("leaks 3"), s.toString());
        pool.close();
    }

    @Test
    void aListenerThatThrowsIsLoggedAndLaterLeaksAreStillReported() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        Reports reports = new Reports();
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("throwing-listener")
                .leakDetection(LeakDetection.PARANOID)
                .onLeak(r -> {
                    reports.accept(r);
                    if (calls.incrementAndGet() == 1) {
                        throw new IllegalStateException("listener failure");
                    }
                }).build();
        forgetToRelease(pool, 1);
        reports.await(1);
        forgetToRelease(pool, 1);
        reports.await(2);
        assertEquals(2, pool.stats().leaks());
        String logText = log.text();
        assertTrue(logText.contains("pool 'throwing-listener': the onLeak listener threw")
                && logText.contains("listener failure"), logText);
        pool.close();
    }

    @Test
    void objectsInUseAtCloseAreStillReportedIfNeverReleased() throws Exception {
        Reports reports = new Reports();
        Pool<Buffer> pool = Pool.builder(Buffer::new).leakDetection(LeakDetection.PARANOID)
                .onLeak(reports).build();
        Buffer back = pool.acquire();
        forgetToRelease(pool, 2);
        pool.close();
        pool.release(back); // accepted after close, and not a leak
        assertEquals(2, reports.await(2).size());
        assertEquals(Duration.ZERO.compareTo(reports.taken.get(0).age()) <= 0, true);
    }

    private static void leakBuffers(BufferPool<byte[]> pool) {
        pool.acquire(100)[0] = 1;              // a class buffer
        pool.acquire(1 << 20)[0] = 1;          // an oversized one
    }

    /**
     * A leak report of the buffer pool starts at the caller's line, as every report does: the
     * buffer pool's own frames are cut like the engine's.
     */
    @Test
    void aBufferPoolsLeakReportStartsAtTheCallersLine() throws Exception {
        Reports reports = new Reports();
        try (BufferPool<byte[]> pool = BufferPool.bytes().name("buffer-frames")
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).build()) {
            leakBuffers(pool);
            for (LeakReport r : reports.await(2)) {
                assertEquals("leakBuffers", r.stackTrace()[0].getMethodName(),
                        "the first frame should be the caller's acquire:\n" + r);
            }
        }
    }
}
