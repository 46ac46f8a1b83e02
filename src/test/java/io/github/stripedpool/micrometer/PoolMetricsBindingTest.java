package io.github.stripedpool.micrometer;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.stripedpool.Pool;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Binding at its edges: one claim per pool name and registry whatever the registry's filters and
 * however two binds interleave, a bind that fails halfway undone, the extra tags on every meter,
 * one snapshot per scrape of each registry.
 */
@Timeout(60)
class PoolMetricsBindingTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final List<Pool<?>> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(Pool::close);
    }

    private Pool<StringBuilder> pool(String name) {
        Pool<StringBuilder> p = Pool.builder(StringBuilder::new).name(name).build();
        pools.add(p);
        return p;
    }

    /** Spring Boot's management.metrics.enable.stripedpool.idle=false installs this filter. */
    @Test
    void withTheIdleGaugeDeniedASecondPoolOfTheSameNameIsStillRejected() {
        registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals(PoolMetrics.IDLE)));
        new PoolMetrics(pool("bind-denied")).bindTo(registry);
        PoolMetrics second = new PoolMetrics(pool("bind-denied"));
        assertThrows(IllegalStateException.class, () -> second.bindTo(registry),
                "bindTo @throws IllegalStateException if a pool of the same name is bound already");
    }

    /** The consequence: an accepted duplicate's binder owns the first pool's meters. */
    @Test
    void closingTheBinderOfADuplicateDoesNotRemoveTheFirstPoolsMeters() {
        registry.config().meterFilter(MeterFilter.deny(id -> id.getName().equals(PoolMetrics.IDLE)));
        new PoolMetrics(pool("bind-denied2")).bindTo(registry);
        PoolMetrics second = new PoolMetrics(pool("bind-denied2"));
        try {
            second.bindTo(registry);
        } catch (IllegalStateException expected) {
            // the documented outcome
        }
        second.close();
        assertNotNull(registry.find(PoolMetrics.CREATED).tag("pool", "bind-denied2").functionCounter(),
                "closing the second pool's PoolMetrics removed the first pool's meters");
    }

    /**
     * Check-then-act: two binders of same-named pools bound at once both pass the check; the
     * second silently gets the first one's meters. The filter holds each binder at its first
     * registration until the other is there too (2 s at most, so an atomic claim
     * completes).
     */
    @Test
    void twoPoolsOfOneNameBoundAtOnceAreNotBothAccepted() throws Exception {
        CyclicBarrier bothChecked = new CyclicBarrier(2);
        AtomicInteger held = new AtomicInteger();
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (PoolMetrics.IDLE.equals(id.getName()) && "bind-race".equals(id.getTag("pool"))
                        && held.incrementAndGet() <= 2) {
                    try {
                        bothChecked.await(2, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (BrokenBarrierException | TimeoutException e) {
                        // the other binder cannot get here: the check is atomic, fine
                    }
                }
                return id;
            }
        });
        Pool<StringBuilder> first = pool("bind-race");
        Pool<StringBuilder> second = pool("bind-race");
        ExecutorService two = Executors.newFixedThreadPool(2);
        try {
            Future<?> a = two.submit(() -> new PoolMetrics(first).bindTo(registry));
            Future<?> b = two.submit(() -> new PoolMetrics(second).bindTo(registry));
            int rejected = 0;
            for (Future<?> f : List.of(a, b)) {
                try {
                    f.get(30, TimeUnit.SECONDS);
                } catch (ExecutionException e) {
                    assertInstanceOf(IllegalStateException.class, e.getCause());
                    rejected++;
                }
            }
            assertEquals(1, rejected, "two pools named 'bind-race' bound to one registry, and neither "
                    + "rejected: the second pool's figures are never published");
        } finally {
            two.shutdownNow();
        }
    }

    /** A search by tags (find(IDLE).tags(tags)).tags(tags) matches any superset of the tags: a false "bound already". */
    @Test
    void aPoolWithOtherExtraTagsIsNotTakenForTheSamePool() {
        new PoolMetrics(pool("bind-subset"), Tags.of("app", "shop")).bindTo(registry);
        assertDoesNotThrow(() -> new PoolMetrics(pool("bind-subset")).bindTo(registry),
                "@throws only if a pool of the same name AND extra tags is bound");
    }

    /** bindTo is atomic: meters registered before a failure stay, and close() cannot remove them. */
    @Test
    void aBindThatFailsHalfwayLeavesNoMeterThatCloseCannotRemove() {
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (PoolMetrics.LEAKS.equals(id.getName())) {
                    throw new IllegalArgumentException("refused by the registry");
                }
                return id;
            }
        });
        PoolMetrics m = new PoolMetrics(pool("bind-halfway"));
        assertThrows(IllegalArgumentException.class, () -> m.bindTo(registry));
        m.close();
        assertEquals(List.of(), registry.getMeters(), "close() left the meters of the failed bindTo");
    }

    @Test
    void anExtraTagNamedSourceIsRefused() {
        // The binder sets 'source' on the acquisitions counters: a tag of that name is refused,
        // as 'pool' is, rather than overwritten there.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PoolMetrics(pool("bind-source"), Tags.of("source", "eu-west")));
        org.junit.jupiter.api.Assertions.assertTrue(e.getMessage().contains("source"), e.getMessage());
    }

    /**
     * One binder bound to two registries (Prometheus plus a push registry, say) shares one
     * snapshot: a scrape that starts less than a second after the other registry's poll reads its
     * first meters from that poll's snapshot and the rest from a new one.
     */
    @Test
    void theFiguresOfOneScrapeComeFromOneSnapshot() {
        AtomicLong clock = new AtomicLong();
        Pool<StringBuilder> pool = pool("bind-torn");
        PoolMetrics m = new PoolMetrics(pool, Tags.empty(), clock::get);
        SimpleMeterRegistry pushLike = new SimpleMeterRegistry();
        m.bindTo(registry);
        m.bindTo(pushLike);
        pushLike.get(PoolMetrics.CREATED).functionCounter().count(); // t = 0: the push registry polls
        pool.release(pool.acquire());                                // a miss: created 1, factory 1

        clock.set(StatsCache.MAX_AGE_NANOS - 1);                     // the scrape starts
        double created = registry.get(PoolMetrics.CREATED).functionCounter().count();
        clock.set(StatsCache.MAX_AGE_NANOS);                         // 1 ns later, same scrape
        double factory = registry.get(PoolMetrics.ACQUISITIONS).tag("source", "factory")
                .functionCounter().count();
        assertEquals(created, factory, "one scrape: created and factory acquisitions from two snapshots");
    }

    @Test
    void extraTagsGivenAsASingleUseIterableAreKept() {
        Iterator<Tag> once = List.of(Tag.of("app", "shop")).iterator();
        Iterable<Tag> tags = () -> once; // as stream::iterator: iterable once
        new PoolMetrics(pool("bind-once"), tags).bindTo(registry);
        assertEquals("shop", registry.get(PoolMetrics.IDLE).gauge().getId().getTag("app"),
                "the constructor iterated the tags to check them, then found none to add");
    }
}
