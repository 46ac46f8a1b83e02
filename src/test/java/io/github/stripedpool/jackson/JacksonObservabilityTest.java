package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.jmx.PoolJmx;
import io.github.stripedpool.micrometer.PoolMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The recycler pool is seen through the library's own monitoring, as any pool is: after real
 * ObjectMapper round trips on two threads, Micrometer's meters, the JMX MBean and the periodic
 * Flight Recorder event of {@link StripedRecyclerPool#pool()} report the same figures as
 * {@link StripedRecyclerPool#stats()}.
 */
@Timeout(60)
class JacksonObservabilityTest {
    private static final String NAME = "json-observed";

    @Test
    void micrometerJmxAndFlightRecorderReportTheRecyclersOfRealRoundTrips() throws Exception {
        Path file = Files.createTempFile("recyclers", ".jfr");
        StripedRecyclerPool recyclers = StripedRecyclerPool.newPool(b -> b.name(NAME));
        try (Recording recording = new Recording()) {
            recording.enable("io.github.stripedpool.PoolStatistics").withPeriod(Duration.ofMillis(100));
            recording.start();
            ObjectMapper mapper = JsonMapper.builder(JsonFactory.builder().recyclerPool(recyclers).build()).build();
            Runnable trips = () -> {
                for (int i = 0; i < 10; i++) {
                    try {
                        byte[] json = mapper.writeValueAsBytes(Map.of("trip", i, "text", "hello"));
                        assertEquals(i, mapper.readValue(json, Map.class).get("trip"));
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }
            };
            trips.run();
            Thread other = new Thread(trips, "second-thread");
            other.start();
            other.join();

            PoolStats stats = recyclers.stats();
            assertEquals(40, stats.acquired(), "a write and a read per trip, 10 trips on each thread: " + stats);
            assertEquals(0, stats.inUse(), "every recycler came back: " + stats);
            assertTrue(stats.created() >= 1 && stats.created() <= 2, "one recycler per thread at most: " + stats);

            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            new PoolMetrics(recyclers.pool()).bindTo(registry);
            assertEquals(stats.created(), registry.get(PoolMetrics.CREATED).tag("pool", NAME)
                    .functionCounter().count(), 0.0);
            assertEquals(stats.idle(), registry.get(PoolMetrics.IDLE).tag("pool", NAME).gauge().value(), 0.0);
            double acquisitions = registry.get(PoolMetrics.ACQUISITIONS).tag("pool", NAME).functionCounters()
                    .stream().mapToDouble(c -> c.count()).sum();
            assertEquals(40, acquisitions, 0.0, "the acquisitions of every source");

            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            ObjectName name = new ObjectName("io.github.stripedpool:type=Pool,name=\"" + NAME + "\"");
            try (PoolJmx jmx = PoolJmx.register(recyclers.pool())) {
                assertEquals(NAME, server.getAttribute(name, "Name"));
                assertEquals(stats.created(), server.getAttribute(name, "Created"));
                assertEquals(40L, server.getAttribute(name, "Acquired"));
                assertEquals(0L, server.getAttribute(name, "InUse"));
            }
            assertFalse(server.isRegistered(name), "closing the handle unregisters the MBean");

            List<RecordedEvent> ours = statisticsUntilCreatedIs(stats.created(), recording, file);
            assertFalse(ours.isEmpty(), "no statistics event of the recycler pool with its creations");
            RecordedEvent last = ours.get(ours.size() - 1);
            assertEquals(0, last.getLong("inUse"));
            assertFalse(last.getBoolean("bounded"));
        } finally {
            recyclers.pool().close();
            Files.deleteIfExists(file);
        }
    }

    /** Polls the recording (period 100 ms) until the pool's statistics event shows {@code created}. */
    private static List<RecordedEvent> statisticsUntilCreatedIs(long created, Recording recording, Path file)
            throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (;;) {
            recording.dump(file);
            List<RecordedEvent> ours = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals("io.github.stripedpool.PoolStatistics")
                            && NAME.equals(e.getString("pool")) && e.getLong("created") == created)
                    .collect(Collectors.toList());
            if (!ours.isEmpty() || System.nanoTime() > deadline) {
                return ours;
            }
            Thread.sleep(50); // a poll interval, not a wait for an outcome: the deadline bounds it
        }
    }
}
