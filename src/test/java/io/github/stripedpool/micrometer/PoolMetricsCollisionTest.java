package io.github.stripedpool.micrometer;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Pool;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * Two pools whose meters would share ids in one registry: the second binder is refused and
 * registers nothing, and no binder's close() removes another's meters. A pool bound to a
 * composite registry is published to each of its children, so a second pool of the same name
 * bound straight to a child (or to a composite over a registry the first is bound to) passed the
 * claim, which is per registry object, and got the first pool's meters (Micrometer returns the
 * meter it has for an id), which its close() then removed; a filter that drops the tag
 * {@code pool} merged two pools' meters in the same way.
 */
class PoolMetricsCollisionTest {

    @Test
    void aSecondPoolOfTheSameNameBoundToAChildOfACompositeIsRejected() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(child);
        try (Pool<StringBuilder> first = Pool.builder(StringBuilder::new).name("collide-dup").build();
                Pool<StringBuilder> second = Pool.builder(StringBuilder::new).name("collide-dup").build()) {
            first.release(first.acquire()); // first: created 1; second: created 0
            PoolMetrics a = new PoolMetrics(first);
            a.bindTo(composite);
            PoolMetrics b = new PoolMetrics(second);
            try {
                assertThrows(IllegalStateException.class, () -> b.bindTo(child),
                        "the child registry already publishes a pool named 'collide-dup' (through the "
                                + "composite); child shows created = "
                                + child.get(PoolMetrics.CREATED).functionCounter().count()
                                + ", the first pool's figure, not the second's");
            } finally {
                b.close();
                a.close();
            }
        }
    }

    @Test
    void closingTheSecondBinderLeavesTheFirstPoolPublishedInTheChild() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(child);
        try (Pool<StringBuilder> first = Pool.builder(StringBuilder::new).name("collide-dup2").build();
                Pool<StringBuilder> second = Pool.builder(StringBuilder::new).name("collide-dup2").build()) {
            PoolMetrics a = new PoolMetrics(first);
            a.bindTo(composite);
            PoolMetrics b = new PoolMetrics(second);
            try {
                b.bindTo(child);
            } catch (IllegalStateException documented) {
                // the documented outcome: then close() must not touch the first pool's meters
            }
            b.close();
            try {
                assertNotNull(child.find(PoolMetrics.CREATED).tag("pool", "collide-dup2").functionCounter(),
                        "closing the second pool's binder removed the first pool's meters from the child "
                                + "registry, while the first binder is still bound (the composite still has them)");
            } finally {
                a.close();
            }
        }
    }

    /** The same with a registry filter that drops the pool tag (a common cardinality filter). */
    @Test
    void closingABinderNeverRemovesAnotherBindersMeters() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        registry.config().meterFilter(MeterFilter.ignoreTags("pool"));
        try (Pool<StringBuilder> p1 = Pool.builder(StringBuilder::new).name("collide-p1").build();
                Pool<StringBuilder> p2 = Pool.builder(StringBuilder::new).name("collide-p2").build()) {
            PoolMetrics a = new PoolMetrics(p1);
            a.bindTo(registry);
            PoolMetrics b = new PoolMetrics(p2);
            try {
                b.bindTo(registry);
            } catch (IllegalStateException acceptable) {
                // refusing the second binder would be fine too
            }
            b.close();
            try {
                assertNotNull(registry.find(PoolMetrics.CREATED).functionCounter(),
                        "the first binder is still bound, but the second binder's close() removed its meters");
            } finally {
                a.close();
            }
        }
    }

    /** The other way round: the first pool bound to a registry, the second to a composite over it. */
    @Test
    void aSecondPoolOfTheSameNameBoundToACompositeOverTheFirstsRegistryIsRejected() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(child);
        try (Pool<StringBuilder> first = Pool.builder(StringBuilder::new).name("collide-up").build();
                Pool<StringBuilder> second = Pool.builder(StringBuilder::new).name("collide-up").build()) {
            PoolMetrics a = new PoolMetrics(first);
            a.bindTo(child);
            PoolMetrics b = new PoolMetrics(second);
            try {
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> b.bindTo(composite));
                assertTrue(e.getMessage().contains("collide-up") && e.getMessage().contains("composite"),
                        e.getMessage());
                assertTrue(composite.getMeters().isEmpty(), "registered although refused: " + composite.getMeters());
                b.close();
                assertNotNull(child.find(PoolMetrics.CREATED).tag("pool", "collide-up").functionCounter(),
                        "the refused binder's close() removed the first pool's meters");
                b.bindTo(new SimpleMeterRegistry()); // the refused claim was given back: binds elsewhere
            } finally {
                b.close();
                a.close();
            }
        }
    }

    /**
     * The list of names the binder looks for in a composite's registries names every meter it
     * registers: one left out would let a collision through.
     */
    @Test
    void theNamesLookedForBelowACompositeAreEveryMetersName() throws Exception {
        java.lang.reflect.Field f = PoolMetrics.class.getDeclaredField("NAMES");
        f.setAccessible(true);
        java.util.Set<Object> listed = new java.util.HashSet<>((java.util.List<?>) f.get(null));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        try (Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).name("collide-names").build()) {
            PoolMetrics m = new PoolMetrics(pool);
            m.bindTo(registry);
            try {
                java.util.Set<Object> registered = new java.util.HashSet<>();
                registry.getMeters().forEach(x -> registered.add(x.getId().getName()));
                org.junit.jupiter.api.Assertions.assertEquals(registered, listed);
            } finally {
                m.close();
            }
        }
    }
}
