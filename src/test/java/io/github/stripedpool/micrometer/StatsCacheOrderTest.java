package io.github.stripedpool.micrometer;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Lease;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Counters only grow, so a registry never reads a reset that did not happen: two polls of one
 * registry that both found the shared snapshot old took one each, and the slower one, holding the
 * older snapshot, wrote it last; every read of the next second returned the older figures, below
 * what the registry had already read.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatsCacheOrderTest {

    /** A pool whose first stats() call, once its snapshot is taken, waits for a latch. */
    static final class GatedPool<T> implements Pool<T> {
        final Pool<T> real;
        final CountDownLatch taken = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicBoolean first = new java.util.concurrent.atomic.AtomicBoolean(true);

        GatedPool(Pool<T> real) {
            this.real = real;
        }

        @Override public T acquire() { return real.acquire(); }
        @Override public void release(T o) { real.release(o); }
        @Override public void invalidate(T o) { real.invalidate(o); }
        @Override public Lease<T> lease() { return real.lease(); }
        @Override public String name() { return real.name(); }
        @Override public boolean isClosed() { return real.isClosed(); }
        @Override public void close() { real.close(); }

        @Override
        public PoolStats stats() {
            PoolStats s = real.stats();
            if (first.compareAndSet(true, false)) {
                taken.countDown();
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return s;
        }
    }

    @Test
    void twoConcurrentPollsNeverMakeACounterGoBack() throws Exception {
        AtomicLong clock = new AtomicLong(10_000_000_000L); // stays put: both polls are within the second
        try (Pool<Object> real = Pool.builder(Object::new).name("regress").build()) {
            GatedPool<Object> pool = new GatedPool<>(real);
            real.release(real.acquire());
            SimpleMeterRegistry registry = new SimpleMeterRegistry();
            try (PoolMetrics metrics = new PoolMetrics(pool, List.of(), clock::get)) {
                metrics.bindTo(registry);
                AtomicReference<Double> slowSaw = new AtomicReference<>();
                AtomicReference<Double> fastSaw = new AtomicReference<>();
                // The first poll finds no snapshot, takes one (1 release) and stops before it
                // publishes it.
                Thread slowPoll = new Thread(() -> slowSaw.set(
                        registry.get(PoolMetrics.RELEASES).functionCounter().count()), "slow-scrape");
                slowPoll.start();
                assertTrue(pool.taken.await(30, TimeUnit.SECONDS));
                for (int i = 0; i < 5; i++) {
                    real.release(real.acquire());
                }
                // A second poll meanwhile: it takes a newer snapshot (6), or waits for the first.
                Thread fastPoll = new Thread(() -> fastSaw.set(
                        registry.get(PoolMetrics.RELEASES).functionCounter().count()), "fast-scrape");
                fastPoll.start();
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
                while (fastPoll.isAlive() && fastPoll.getState() != Thread.State.BLOCKED) {
                    assertTrue(System.nanoTime() < deadline, "the second poll neither ended nor waited");
                    Thread.onSpinWait();
                }
                pool.go.countDown();
                slowPoll.join(30_000);
                fastPoll.join(30_000);
                double after = registry.get(PoolMetrics.RELEASES).functionCounter().count();
                double seen = Math.max(slowSaw.get(), fastSaw.get());
                assertTrue(after >= seen, "the releases counter went back from " + seen + " to " + after
                        + " with no reset: " + real.stats());
            }
        }
    }
}
