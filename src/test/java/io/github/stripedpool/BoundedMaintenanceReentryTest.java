package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.pauseForPolling;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A destroy hook that acquires from its own bounded pool, at its cap, while a trim under heap
 * pressure or an eviction destroys the pool's idle objects (Pool: a hook may call any method of
 * its pool). Both used to take out every object they would destroy before running the first
 * hook, so the hook found nothing idle and no capacity, and waited its whole timeout (then
 * reported a pool "2 of maxTotal 2 in use" with nothing in use). Without minIdle each object is
 * now destroyed as soon as it is taken out, and the hook gets one of the others.
 */
@Timeout(60)
class BoundedMaintenanceReentryTest {

    private static final Duration HOOK_WAIT = Duration.ofSeconds(10);

    /** A destroy hook that acquires and releases once (not from a destroy it causes itself). */
    private static final class AcquiringDestroy {
        final AtomicReference<Pool<Object>> pool = new AtomicReference<>();
        final List<Throwable> failures = new CopyOnWriteArrayList<>();
        final List<Long> waitsMs = new CopyOnWriteArrayList<>();
        final AtomicInteger destroyed = new AtomicInteger();
        /** Hooks running now. */
        final AtomicInteger running = new AtomicInteger();
        private final ThreadLocal<Boolean> inHook = ThreadLocal.withInitial(() -> false);

        /**
         * Waits until {@code n} objects were destroyed and no hook runs (a run of the pool's own
         * maintenance may be the one destroying them), then checks that no hook's acquire failed:
         * a hook left waiting for the run's claimed objects fails after {@link #HOOK_WAIT}.
         */
        void awaitDestroyed(int n, Pool<Object> p) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while ((destroyed.get() < n || running.get() > 0) && System.nanoTime() - deadline < 0) {
                pauseForPolling();
            }
            assertEquals(List.of(), failures, () -> "the hook's acquire failed; its waits (ms) "
                    + waitsMs + "; " + p.stats());
            assertEquals(n, destroyed.get(), p.stats()::toString);
        }

        void destroy(Object x) {
            running.incrementAndGet();
            destroyed.incrementAndGet();
            Pool<Object> p = pool.get();
            if (inHook.get() || p.isClosed()) {
                running.decrementAndGet();
                return;
            }
            inHook.set(true);
            long t0 = System.nanoTime();
            try {
                p.release(p.acquire(HOOK_WAIT));
            } catch (RuntimeException e) {
                failures.add(e);
            } finally {
                inHook.set(false);
                waitsMs.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0));
                running.decrementAndGet();
            }
        }
    }

    @Test
    void aDestroyHookThatAcquiresDuringATrimIsServed() {
        AcquiringDestroy hook = new AcquiringDestroy();
        Pool<Object> pool = Pool.builder(Object::new).maxTotal(2).trimAboveHeap(Double.MIN_VALUE)
                .destroy(hook::destroy).name("trim-reentry").build();
        hook.pool.set(pool);
        try {
            Object a = pool.acquire();
            Object b = pool.acquire();
            pool.release(a);
            pool.release(b);
            ((BoundedPool<Object>) pool).maintenance()
                    .trimIfHeapShort(System.nanoTime() + 1000 * TrimGate.HOLD_NANOS);
            hook.awaitDestroyed(2, pool);
            assertEquals(0, pool.stats().inUse(), pool.stats()::toString);
        } finally {
            pool.close();
        }
    }

    @Test
    void aDestroyHookThatAcquiresDuringAnEvictionIsServed() {
        AcquiringDestroy hook = new AcquiringDestroy();
        Duration lifetime = Duration.ofMillis(50);
        Pool<Object> pool = Pool.builder(Object::new).maxTotal(2).maxLifetime(lifetime)
                .destroy(hook::destroy).name("evict-reentry").build();
        hook.pool.set(pool);
        try {
            Object a = pool.acquire();
            Object b = pool.acquire();
            long made = System.nanoTime();
            pool.release(a);
            pool.release(b);
            while (System.nanoTime() - made < 2 * lifetime.toNanos()) {
                pauseForPolling(); // until both are past their lifetime
            }
            ((BoundedPool<Object>) pool).maintenance().run(); // or the pool's own run, meanwhile
            hook.awaitDestroyed(2, pool);
        } finally {
            pool.close();
        }
    }
}
