package io.github.stripedpool.micrometer;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.Pool;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two binders of pools of one name, one bound to a composite registry and one to its child at
 * the same time, are not both accepted (the checks ran at single moments, and meters the other
 * binder made in between looked like one's own); and a pool whose tags are a subset of another's
 * is not refused through a composite, since their meters do not collide.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PoolMetricsCompositeRaceTest {

    @Test
    void aCompositeBinderAndAChildBinderThatInterleaveAreNotBothAccepted() throws Exception {
        CountDownLatch stalled = new CountDownLatch(1);
        CountDownLatch go = new CountDownLatch(1);
        Thread[] childBinder = new Thread[1];
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        child.config().meterFilter(new MeterFilter() {
            @Override
            public Meter.Id map(Meter.Id id) {
                if (Thread.currentThread() == childBinder[0] && stalled.getCount() > 0) {
                    stalled.countDown();
                    try {
                        if (!go.await(30, TimeUnit.SECONDS)) {
                            throw new AssertionError("never let go");
                        }
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
                return id;
            }
        });
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(child);
        try (Pool<StringBuilder> first = Pool.builder(StringBuilder::new).name("race").build();
                Pool<StringBuilder> second = Pool.builder(StringBuilder::new).name("race").build()) {
            first.release(first.acquire()); // first: created 1; second: created 0
            PoolMetrics a = new PoolMetrics(first);
            PoolMetrics b = new PoolMetrics(second);
            AtomicReference<Throwable> bFailed = new AtomicReference<>();
            Thread t = new Thread(() -> {
                try {
                    b.bindTo(child);
                } catch (Throwable e) {
                    bFailed.set(e);
                }
            }, "child-binder");
            childBinder[0] = t;
            t.start();
            assertTrue(stalled.await(30, TimeUnit.SECONDS), "the child binder never registered");
            Throwable aFailed = null;
            try {
                a.bindTo(composite); // the child has no meter of the pool yet: accepted
            } catch (IllegalStateException e) {
                aFailed = e;
            }
            go.countDown();
            t.join(30_000);
            try {
                if (aFailed == null && bFailed.get() == null) {
                    double created = child.get(PoolMetrics.CREATED).functionCounter().count();
                    b.close(); // removes "its" meters from the child: the composite's children
                    Meter left = child.find(PoolMetrics.CREATED).meter();
                    fail("both binders were accepted: the child publishes one meter for two pools "
                            + "(created = " + created + ", first pool's figure 1, second's 0), and "
                            + "after the child binder's close() the child "
                            + (left == null ? "has no " + PoolMetrics.CREATED + " meter, though the composite binder is still bound"
                                    : "still has it"));
                }
            } finally {
                b.close();
                a.close();
            }
        }
    }

    /**
     * a refusal of meters that do not collide. publishedBelow looks for a child's meter
     * with find(name).tags(tags), which matches any meter whose tags include this binder's: a
     * pool "db" tagged region=eu bound to a child makes a pool "db" with no extra tag refused
     * by the composite, although their ids differ ({pool=db, region=eu} and {pool=db}) and the
     * same two binders bound straight to the child are both accepted.
     */
    @Test
    void aPoolWhoseTagsAreASubsetOfAnotherPoolsIsNotRefusedThroughAComposite() {
        SimpleMeterRegistry child = new SimpleMeterRegistry();
        CompositeMeterRegistry composite = new CompositeMeterRegistry();
        composite.add(child);
        try (Pool<StringBuilder> eu = Pool.builder(StringBuilder::new).name("db").build();
                Pool<StringBuilder> plain = Pool.builder(StringBuilder::new).name("db").build()) {
            PoolMetrics a = new PoolMetrics(eu, io.micrometer.core.instrument.Tags.of("region", "eu"));
            PoolMetrics b = new PoolMetrics(plain);
            PoolMetrics c = new PoolMetrics(plain);
            SimpleMeterRegistry direct = new SimpleMeterRegistry();
            try {
                a.bindTo(child);
                // Control: straight to one registry, the two binders are both accepted.
                new PoolMetrics(eu, io.micrometer.core.instrument.Tags.of("region", "eu")).bindTo(direct);
                c.bindTo(direct);
                try {
                    b.bindTo(composite);
                } catch (IllegalStateException e) {
                    fail("refused through the composite, though its meters ({pool=db}) "
                            + "collide with none of the child's ({pool=db, region=eu}): " + e.getMessage());
                }
            } finally {
                b.close();
                c.close();
                a.close();
            }
        }
    }
}
