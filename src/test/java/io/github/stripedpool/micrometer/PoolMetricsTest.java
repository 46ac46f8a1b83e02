package io.github.stripedpool.micrometer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.testing.StatsCountingPool;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class PoolMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AtomicLong clock = new AtomicLong();

    private static Pool<StringBuilder> pool(String name) {
        return Pool.builder(StringBuilder::new).reset(sb -> sb.setLength(0)).name(name).build();
    }

    private PoolMetrics bind(Pool<?> pool) {
        PoolMetrics m = new PoolMetrics(pool, Tags.empty(), clock::get);
        m.bindTo(registry);
        return m;
    }

    /** Moves the binder's clock past the snapshot's age, as the next scrape would find it. */
    private void nextScrape() {
        clock.addAndGet(StatsCache.MAX_AGE_NANOS);
    }

    private double gauge(String name, String pool) {
        return registry.get(name).tag("pool", pool).gauge().value();
    }

    private double counter(String name, String pool) {
        return registry.get(name).tag("pool", pool).functionCounter().count();
    }

    private double acquisitions(String pool, String source) {
        return registry.get(PoolMetrics.ACQUISITIONS).tag("pool", pool).tag("source", source)
                .functionCounter().count();
    }

    @Test
    void everyDocumentedMeterReportsThePoolsFigures() {
        Pool<StringBuilder> pool = pool("metrics-figures");
        bind(pool);
        List<StringBuilder> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(pool.acquire()); // three misses: nothing idle yet
        }
        held.forEach(pool::release);
        StringBuilder a = pool.acquire(); // two hits
        StringBuilder b = pool.acquire();
        nextScrape();
        PoolStats s = pool.stats();

        assertEquals(s.idle(), gauge(PoolMetrics.IDLE, "metrics-figures"));
        assertEquals(2.0, gauge(PoolMetrics.IN_USE, "metrics-figures"));
        assertEquals(s.idleCapacity(), gauge(PoolMetrics.IDLE_CAPACITY, "metrics-figures"));
        assertEquals(3.0, acquisitions("metrics-figures", "factory"));
        double hits = acquisitions("metrics-figures", "private") + acquisitions("metrics-figures", "home")
                + acquisitions("metrics-figures", "stolen") + acquisitions("metrics-figures", "victim");
        assertEquals(2.0, hits);
        assertEquals(0.4, gauge(PoolMetrics.HIT_RATE, "metrics-figures"), 1e-9, "2 hits in 5");
        assertEquals(s.hitRate(), gauge(PoolMetrics.HIT_RATE, "metrics-figures"));
        assertEquals(s.privateHits(), acquisitions("metrics-figures", "private"));
        assertEquals(s.homeHits(), acquisitions("metrics-figures", "home"));
        assertEquals(3.0, counter(PoolMetrics.RELEASES, "metrics-figures"));
        assertEquals(3.0, counter(PoolMetrics.CREATED, "metrics-figures"));
        assertEquals(0.0, counter(PoolMetrics.DROPPED, "metrics-figures"));
        assertEquals(0.0, counter(PoolMetrics.HOOK_FAILURES, "metrics-figures"));
        assertEquals(s.agingCycles(), counter(PoolMetrics.AGING_CYCLES, "metrics-figures"));
        assertEquals(s.trims(), counter(PoolMetrics.TRIMS, "metrics-figures"));
        assertEquals(0.0, counter(PoolMetrics.LEAKS, "metrics-figures"));

        assertEquals(0.0, counter(PoolMetrics.INVALIDATED, "metrics-figures"));

        pool.release(a);
        pool.invalidate(b);
        pool.close(); // destroys the two idle objects; a closed pool still reports
        nextScrape();
        assertEquals(0.0, gauge(PoolMetrics.IDLE, "metrics-figures"));
        assertEquals(3.0, counter(PoolMetrics.DROPPED, "metrics-figures"));
        assertEquals(5.0, counter(PoolMetrics.RELEASES, "metrics-figures"));
        assertEquals(1.0, counter(PoolMetrics.INVALIDATED, "metrics-figures"));
        assertEquals(0.0, counter(PoolMetrics.NOT_RETAINED, "metrics-figures"));
    }

    @Test
    void theMetersAreExactlyTheDocumentedOnesEachWithThePoolTagAndTheExtraTags() {
        Pool<StringBuilder> pool = pool("metrics-names");
        new PoolMetrics(pool, Tags.of("app", "shop")).bindTo(registry);
        Set<String> names = new TreeSet<>();
        for (Meter m : registry.getMeters()) {
            names.add(m.getId().getName());
            assertEquals("metrics-names", m.getId().getTag("pool"), m.getId().toString());
            assertEquals("shop", m.getId().getTag("app"), m.getId().toString());
        }
        assertEquals(new TreeSet<>(List.of(PoolMetrics.IDLE, PoolMetrics.IN_USE,
                PoolMetrics.IDLE_CAPACITY, PoolMetrics.ACQUISITIONS, PoolMetrics.RELEASES,
                PoolMetrics.CREATED, PoolMetrics.DROPPED, PoolMetrics.HOOK_FAILURES,
                PoolMetrics.AGING_CYCLES, PoolMetrics.LEAKS, PoolMetrics.MAX_TOTAL,
                PoolMetrics.WAITING, PoolMetrics.WAIT, PoolMetrics.WAIT_MAX, PoolMetrics.TIMEOUTS,
                PoolMetrics.CREATIONS_FAILED, PoolMetrics.MAINTENANCE_RUNS, PoolMetrics.INVALIDATED,
                PoolMetrics.NOT_RETAINED, PoolMetrics.HELD_TOO_LONG, PoolMetrics.HIT_RATE, PoolMetrics.TRIMS)), names);
        assertEquals(5, registry.find(PoolMetrics.ACQUISITIONS).functionCounters().size(),
                "one acquisitions counter per source");
        assertEquals("objects", registry.get(PoolMetrics.IDLE).gauge().getId().getBaseUnit());
        assertEquals("objects", registry.get(PoolMetrics.CREATED).functionCounter().getId().getBaseUnit());
        pool.close();
    }

    @Test
    void oneScrapeOfEveryMeterTakesOneSnapshotAndTheNextScrapeAFreshOne() {
        StatsCountingPool<StringBuilder> pool = new StatsCountingPool<>(pool("metrics-snapshots"));
        bind(pool);
        assertEquals(0, pool.snapshots(), "binding must not read the pool");

        for (Meter m : registry.getMeters()) {
            m.measure().forEach(ms -> ms.getValue());
        }
        assertEquals(1, pool.snapshots(), "every meter of one scrape shares one snapshot");

        pool.release(pool.acquire());
        assertEquals(0.0, counter(PoolMetrics.CREATED, "metrics-snapshots"),
                "within one scrape the figures come from the same snapshot");
        nextScrape();
        assertEquals(1.0, counter(PoolMetrics.CREATED, "metrics-snapshots"));
        assertEquals(1.0, counter(PoolMetrics.RELEASES, "metrics-snapshots"));
        assertEquals(2, pool.snapshots());
        pool.close();
    }

    @Test
    void aSecondPoolOfTheSameNameIsRejectedWithAMessageThatSaysWhatToDo() {
        Pool<StringBuilder> first = pool("metrics-twin");
        Pool<StringBuilder> second = pool("metrics-twin");
        bind(first);
        int meters = registry.getMeters().size();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> bind(second));
        assertTrue(e.getMessage().contains("'metrics-twin'"), e.getMessage());
        assertTrue(e.getMessage().contains("PoolBuilder.name("), e.getMessage());
        assertEquals(meters, registry.getMeters().size(), "nothing of the second pool registered");
        first.close();
        second.close();
    }

    @Test
    void closeRemovesEveryMeterOnceAndTheBinderCanBindAgain() {
        Pool<StringBuilder> pool = pool("metrics-close");
        Pool<StringBuilder> other = pool("metrics-other");
        PoolMetrics m = bind(pool);
        bind(other);
        int perPool = registry.getMeters().size() / 2;
        assertEquals(26, perPool, "the meters of one pool: see theMetersAreExactlyTheDocumentedOnes");
        SimpleMeterRegistry second = new SimpleMeterRegistry();
        m.bindTo(second);

        m.close();
        assertTrue(registry.find(PoolMetrics.IDLE).tag("pool", "metrics-close").meters().isEmpty());
        assertTrue(second.getMeters().isEmpty(), "removed from every registry it was bound to");
        assertEquals(perPool, registry.getMeters().size(), "the other pool's meters stay");
        m.close(); // idempotent

        m.bindTo(registry); // the name is free again
        assertEquals(2 * perPool, registry.getMeters().size());
        pool.close();
        other.close();
    }

    @Test
    void aTagNamedPoolOrNullArgumentsAreRejected() {
        Pool<StringBuilder> pool = pool("metrics-bad-input");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PoolMetrics(pool, Tags.of("pool", "x")));
        assertTrue(e.getMessage().contains("PoolBuilder.name("), e.getMessage());
        assertThrows(NullPointerException.class, () -> new PoolMetrics(null));
        assertThrows(NullPointerException.class, () -> new PoolMetrics(pool, null));
        assertThrows(NullPointerException.class, () -> new PoolMetrics(pool).bindTo(null));
        pool.close();
    }

    @Test
    void theMetersDoNotKeepAnAbandonedPoolAlive() throws InterruptedException {
        Pool<StringBuilder> pool = pool("metrics-abandoned");
        PoolMetrics binder = bind(pool);
        Gauge idle = registry.get(PoolMetrics.IDLE).gauge();
        FunctionCounter created = registry.get(PoolMetrics.CREATED).functionCounter();
        assertEquals(0.0, created.count());
        WeakReference<Pool<StringBuilder>> ref = new WeakReference<>(pool);
        pool = null;
        binder = null; // the binder holds the pool; an application that drops both drops the pool
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(null, ref.get(), "the registry's meters kept the pool reachable");
        nextScrape();
        assertTrue(Double.isNaN(idle.value()), "a gauge of a collected pool reads NaN");
        assertEquals(0.0, created.count(), "a function counter keeps its last count");
        assertEquals(null, binder);
    }
}
