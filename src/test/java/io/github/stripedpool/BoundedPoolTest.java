package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.pauseForPolling;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The behaviour of a bounded pool ({@code maxTotal} set), one feature per test. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BoundedPoolTest {
    /** How long a test waits for something another thread or the maintenance thread does. */
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    /** A timeout no passing test reaches. */
    private static final Duration LONG = Duration.ofSeconds(20);

    private final Tracked.Factory objects = new Tracked.Factory();

    // ---------------------------------------------------------------- building

    @Test
    void maxTotalMakesTheBuilderReturnABoundedPool() {
        try (Pool<Tracked> bounded = objects.builder().maxTotal(2).build();
             Pool<Tracked> unbounded = objects.builder().build()) {
            assertInstanceOf(BoundedPool.class, bounded);
            assertInstanceOf(UnboundedPool.class, unbounded);
        }
    }

    @Test
    void boundedOptionsWithoutMaxTotalAreRejectedNamingTheOption() {
        List<PoolBuilder<Tracked>> builders = List.of(
                objects.builder().minIdle(1),
                objects.builder().acquireTimeout(Duration.ofSeconds(1)),
                objects.builder().validate(t -> true),
                objects.builder().maxIdleTime(Duration.ofSeconds(1)),
                objects.builder().maxLifetime(Duration.ofSeconds(1)));
        List<String> options = List.of("minIdle", "acquireTimeout", "validate", "maxIdleTime", "maxLifetime");
        for (int i = 0; i < builders.size(); i++) {
            IllegalStateException e = assertThrows(IllegalStateException.class, builders.get(i)::build);
            assertTrue(e.getMessage().startsWith(options.get(i)), e.getMessage());
            assertTrue(e.getMessage().contains("maxTotal"), e.getMessage());
        }
    }

    @Test
    void minIdleAboveMaxTotalIsRejected() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> objects.builder().maxTotal(2).minIdle(3).build());
        assertTrue(e.getMessage().contains("minIdle (3)") && e.getMessage().contains("maxTotal (2)"),
                e.getMessage());
    }

    @Test
    void invalidBoundedSettingsAreRejectedAtOnce() {
        assertThrows(IllegalArgumentException.class, () -> objects.builder().maxTotal(0));
        assertThrows(IllegalArgumentException.class, () -> objects.builder().minIdle(-1));
        assertThrows(IllegalArgumentException.class, () -> objects.builder().acquireTimeout(Duration.ofMillis(-1)));
        assertThrows(IllegalArgumentException.class, () -> objects.builder().maxIdleTime(Duration.ZERO));
        assertThrows(IllegalArgumentException.class, () -> objects.builder().maxLifetime(Duration.ofSeconds(-1)));
        assertThrows(NullPointerException.class, () -> objects.builder().validate(null));
    }

    // ---------------------------------------------------------------- the cap and waiting

    @Test
    void neverMoreThanMaxTotalObjectsExist() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(2).acquireTimeout(Duration.ZERO).build()) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            assertThrows(PoolTimeoutException.class, pool::acquire);
            assertEquals(2, objects.made.size());
            pool.release(a);
            assertSame(a, pool.acquire());
            pool.release(a);
            pool.release(b);
            assertBalanced(pool);
        }
    }

    @Test
    void timeoutMessageNamesPoolCapInUseWaitersAndTimeout() throws Exception {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).name("conns").build()) {
            Tracked held = pool.acquire();
            CompletableFuture<Tracked> other = onOwnThread(() -> pool.acquire(LONG));
            awaitTrue(() -> ((BoundedPool<?>) pool).waiting() == 1, "the other thread to wait");
            PoolTimeoutException e = assertThrows(PoolTimeoutException.class,
                    () -> pool.acquire(Duration.ofMillis(30)));
            String m = e.getMessage();
            assertTrue(m.contains("'conns'"), m);
            assertTrue(m.contains("1 of maxTotal 1 in use"), m);
            assertTrue(m.contains("1 other thread(s) waiting"), m);
            assertTrue(m.contains("30 ms"), m);
            pool.release(held);
            assertSame(held, other.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            pool.release(held);
        }
    }

    @Test
    void acquireWaitsAtMostTheBuilderTimeout() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1)
                .acquireTimeout(Duration.ofMillis(20)).build()) {
            Tracked held = pool.acquire();
            assertThrows(PoolTimeoutException.class, pool::acquire);
            assertThrows(PoolTimeoutException.class, pool::lease);
            pool.release(held);
            assertBalanced(pool);
            assertEquals(0, ((BoundedPool<?>) pool).waiting());
        }
    }

    @Test
    void perCallTimeoutOverridesTheBuilderTimeout() throws Exception {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).acquireTimeout(Duration.ZERO).build()) {
            Tracked held = pool.acquire();
            CompletableFuture<Tracked> waiter = onOwnThread(() -> pool.acquire(LONG));
            awaitTrue(() -> ((BoundedPool<?>) pool).waiting() == 1, "the waiter to queue");
            pool.release(held);
            assertSame(held, waiter.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            pool.release(held);
            assertBalanced(pool);
        }
    }

    @Test
    void releaseGoesToTheOldestWaiterFirst() throws Exception {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).build()) {
            BoundedPool<?> p = (BoundedPool<?>) pool;
            Tracked held = pool.acquire();
            List<String> served = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                String name = "waiter-" + i;
                Thread t = new Thread(() -> {
                    Tracked x = pool.acquire(LONG);
                    served.add(name);
                    pool.release(x);
                }, name);
                t.start();
                threads.add(t);
                int queued = i + 1;
                awaitTrue(() -> p.waiting() == queued, name + " to queue");
            }
            pool.release(held);
            for (Thread t : threads) {
                t.join(DEADLINE.toMillis());
                assertFalse(t.isAlive(), t.getName() + " still waiting");
            }
            assertEquals(List.of("waiter-0", "waiter-1", "waiter-2"), served);
            assertEquals(1, objects.made.size(), "the one object went from waiter to waiter");
            assertBalanced(pool);
        }
    }

    @Test
    void interruptedWaiterGetsAnExceptionAndKeepsItsInterruptStatus() throws Exception {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).build()) {
            BoundedPool<?> p = (BoundedPool<?>) pool;
            Tracked held = pool.acquire();
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicBoolean stillInterrupted = new AtomicBoolean();
            Thread t = new Thread(() -> {
                try {
                    pool.acquire(LONG);
                } catch (Throwable e) {
                    thrown.set(e);
                    stillInterrupted.set(Thread.currentThread().isInterrupted());
                }
            });
            t.start();
            awaitTrue(() -> p.waiting() == 1, "the thread to wait");
            t.interrupt();
            t.join(DEADLINE.toMillis());
            assertInstanceOf(PoolInterruptedException.class, thrown.get());
            assertInstanceOf(InterruptedException.class, thrown.get().getCause());
            assertTrue(stillInterrupted.get(), "the interrupt status was cleared");
            assertEquals(0, p.waiting());
            pool.release(held);
            assertSame(held, pool.acquire(Duration.ZERO), "nothing was lost");
            pool.release(held);
            assertBalanced(pool);
        }
    }

    // ---------------------------------------------------------------- creation and validation

    @Test
    void factoryFailureGivesItsCapacityBack() {
        AtomicInteger calls = new AtomicInteger();
        try (Pool<Tracked> pool = Pool.builder(() -> {
            if (calls.incrementAndGet() <= 3) {
                throw new IllegalStateException("backend down");
            }
            return objects.create();
        }).maxTotal(1).acquireTimeout(Duration.ZERO).build()) {
            for (int i = 0; i < 3; i++) {
                ObjectCreationException e = assertThrows(ObjectCreationException.class, pool::acquire);
                assertEquals("backend down", e.getCause().getMessage());
            }
            Tracked x = pool.acquire();
            pool.release(x);
            assertEquals(1, ((BoundedPool<?>) pool).live());
            assertBalanced(pool);
        }
    }

    @Test
    void destroyedObjectsCapacityGoesToAWaiterAsANewObject() throws Exception {
        AtomicInteger resets = new AtomicInteger();
        try (Pool<Tracked> pool = Pool.builder(objects::create).reset(t -> {
            if (resets.incrementAndGet() == 1) {
                throw new PoolAssertions.HookFailure("reset failed");
            }
        }).destroy(objects::destroy).maxTotal(1).build()) {
            BoundedPool<?> p = (BoundedPool<?>) pool;
            Tracked held = pool.acquire();
            CompletableFuture<Tracked> waiter = onOwnThread(() -> pool.acquire(LONG));
            awaitTrue(() -> p.waiting() == 1, "the waiter to queue");
            pool.release(held);
            Tracked fresh = waiter.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
            assertNotSame(held, fresh);
            assertEquals(1, held.destroys.get());
            pool.release(fresh);
            PoolStats s = assertBalanced(pool);
            assertEquals(1, s.hookFailures());
            assertEquals(2, s.created());
        }
    }

    @Test
    void objectFailingValidationIsDestroyedAndReplaced() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1)
                .validate(t -> !"stale".equals(t.payload)).build()) {
            Tracked a = pool.acquire();
            pool.release(a);
            a.payload = "stale"; // went bad while idle
            Tracked b = pool.acquire();
            assertNotSame(a, b);
            assertEquals(1, a.destroys.get());
            pool.release(b);
            assertSame(b, pool.acquire(), "a valid object is reused");
            pool.release(b);
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.hookFailures());
        }
    }

    @Test
    void throwingValidationDestroysTheObjectAndCountsAHookFailure() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).validate(t -> {
            if (t.id == 1) {
                throw new PoolAssertions.HookFailure("validation failed");
            }
            return true;
        }).build()) {
            Tracked a = pool.acquire(); // new objects are not validated
            pool.release(a);
            Tracked b = pool.acquire();
            assertNotSame(a, b);
            assertEquals(1, a.destroys.get());
            pool.release(b);
            assertEquals(1, assertBalanced(pool).hookFailures());
        }
    }

    // ---------------------------------------------------------------- maintenance

    @Test
    void objectsIdleLongerThanMaxIdleTimeAreDestroyed() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(3)
                .maxIdleTime(Duration.ofMillis(40)).build()) {
            List<Tracked> xs = List.of(pool.acquire(), pool.acquire(), pool.acquire());
            xs.forEach(pool::release);
            awaitTrue(() -> objects.destroyed.get() == 3, "idle objects to be evicted");
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.idle());
            assertEquals(0, ((BoundedPool<?>) pool).live());
            assertTrue(s.maintenanceRuns() > 0, "maintenance runs are counted: " + s);
        }
    }

    @Test
    void idleEvictionKeepsMinIdle() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(4).minIdle(1)
                .maxIdleTime(Duration.ofMillis(40)).build()) {
            List<Tracked> xs = List.of(pool.acquire(), pool.acquire(), pool.acquire());
            xs.forEach(pool::release);
            awaitTrue(() -> pool.stats().idle() == 1 && objects.destroyed.get() >= 2,
                    "eviction down to minIdle");
            assertEquals(1, ((BoundedPool<?>) pool).live());
            assertBalanced(pool);
        }
    }

    @Test
    void minIdleIsFilledInTheBackgroundAfterBuild() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(4).minIdle(3).build()) {
            awaitTrue(() -> pool.stats().idle() == 3, "the prefill");
            assertEquals(3, objects.made.size());
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.misses());
            Tracked x = pool.acquire();
            assertEquals(1, pool.stats().hits());
            pool.release(x);
        }
    }

    @Test
    void minIdleIsRefilledAfterADestroy() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(2).minIdle(1)
                .validate(t -> t.payload == null).build()) {
            awaitTrue(() -> pool.stats().idle() == 1, "the prefill");
            Tracked first = objects.made.peek();
            first.payload = "bad";
            Tracked x = pool.acquire(); // destroys the bad one, then creates
            pool.release(x);
            awaitTrue(() -> objects.destroyed.get() == 1 && pool.stats().idle() >= 1, "the refill");
            assertBalanced(pool);
        }
    }

    @Test
    void objectsOlderThanMaxLifetimeAreDestroyedIdleNowAndBorrowedAtRelease() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(2)
                .maxLifetime(Duration.ofMillis(50)).build()) {
            Tracked idle = pool.acquire();
            Tracked borrowed = pool.acquire();
            pool.release(idle);
            awaitTrue(() -> idle.destroys.get() == 1, "the idle object to expire");
            assertEquals(0, borrowed.destroys.get(), "a borrowed object is never destroyed under its user");
            pool.release(borrowed);
            assertEquals(1, borrowed.destroys.get(), "an expired object is destroyed at its release");
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.idle());
        }
    }

    // ---------------------------------------------------------------- close

    @Test
    void closeWakesEveryWaiterWithPoolClosedException() throws Exception {
        Pool<Tracked> pool = objects.builder().maxTotal(1).build();
        BoundedPool<?> p = (BoundedPool<?>) pool;
        Tracked held = pool.acquire();
        List<CompletableFuture<Tracked>> waiters = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            waiters.add(onOwnThread(() -> pool.acquire(LONG)));
        }
        awaitTrue(() -> p.waiting() == 3, "three waiters");
        pool.close();
        for (CompletableFuture<Tracked> w : waiters) {
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> w.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            assertInstanceOf(PoolClosedException.class, e.getCause());
        }
        assertEquals(0, held.destroys.get());
        pool.release(held);
        assertEquals(1, held.destroys.get());
        assertEquals(0, p.live());
        assertBalanced(pool);
    }

    @Test
    void closeDestroysIdleObjectsNowAndBorrowedOnesAtRelease() {
        Pool<Tracked> pool = objects.builder().maxTotal(3).build();
        Tracked a = pool.acquire();
        Tracked b = pool.acquire();
        pool.release(a);
        pool.close();
        pool.close(); // idempotent
        assertTrue(pool.isClosed());
        assertEquals(1, a.destroys.get());
        assertEquals(0, b.destroys.get());
        assertThrows(PoolClosedException.class, pool::acquire);
        assertThrows(PoolClosedException.class, () -> pool.acquire(Duration.ZERO));
        pool.release(b);
        assertEquals(1, b.destroys.get());
        assertEquals(1, b.resets.get(), "reset runs before destroy, as in the core pool");
        PoolStats s = assertBalanced(pool);
        assertTrue(s.isClosed());
        assertEquals(2, s.dropped());
    }

    // ---------------------------------------------------------------- misuse

    @Test
    void releasingTwiceThrowsAndLeavesThePoolConsistent() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(2).build()) {
            Tracked a = pool.acquire();
            pool.release(a);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.release(a));
            assertTrue(e.getMessage().contains("released twice"), e.getMessage());
            assertSame(a, pool.acquire());
            Tracked b = pool.acquire();
            assertNotSame(a, b, "a was not pooled twice");
            pool.release(a);
            pool.release(b);
            PoolStats s = assertBalanced(pool);
            assertEquals(2, s.idle());
        }
    }

    @Test
    void releasingAForeignObjectThrowsAndChangesNothing() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).acquireTimeout(Duration.ZERO).build()) {
            Tracked a = pool.acquire();
            Tracked stranger = objects.create();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> pool.release(stranger));
            assertTrue(e.getMessage().contains("does not hold"), e.getMessage());
            assertThrows(NullPointerException.class, () -> pool.release(null));
            assertThrows(PoolTimeoutException.class, pool::acquire, "the cap still holds");
            pool.release(a);
            assertBalanced(pool);
        }
    }

    @Test
    void leaseReleasesOnClose() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).acquireTimeout(Duration.ZERO).build()) {
            Tracked x;
            try (Lease<Tracked> lease = pool.lease()) {
                x = lease.get();
            }
            assertSame(x, pool.acquire());
            pool.release(x);
        }
    }

    // ---------------------------------------------------------------- leaks

    @Test
    void capacityOfAGarbageCollectedBorrowedObjectIsReclaimed() {
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).acquireTimeout(Duration.ZERO).build()) {
            BoundedPool<?> p = (BoundedPool<?>) pool;
            leakOne(pool);
            objects.made.clear(); // the factory's list must not keep it alive
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            // Reclaimed by this call or by the pool itself, after a collection that found it exhausted
            while (p.reclaimLeaked() == 0 && p.live() != 0) {
                if (System.nanoTime() - deadline > 0) {
                    fail("the leaked object was never collected");
                }
                System.gc();
                pauseForPolling();
            }
            Tracked x = pool.acquire();
            pool.release(x);
            PoolStats s = assertBalanced(pool);
            assertEquals(2, s.created());
            assertEquals(1, s.dropped());
        }
    }

    @Test
    void leakDetectionGivesALeakedObjectsCapacityBack() {
        List<LeakReport> reports = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (Pool<Tracked> pool = objects.builder().maxTotal(1).leakDetection(LeakDetection.PARANOID)
                .onLeak(reports::add).build()) {
            leakOne(pool);
            objects.made.clear();
            long deadline = System.nanoTime() + DEADLINE.toNanos();
            Tracked x = null;
            while (x == null) {
                try {
                    x = pool.acquire(Duration.ZERO);
                } catch (PoolTimeoutException stillHeld) {
                    if (System.nanoTime() - deadline > 0) {
                        fail("the leaked object's capacity never came back");
                    }
                    System.gc();
                    pauseForPolling();
                }
            }
            pool.release(x);
            // The place comes back before the report reaches the listener (which may acquire)
            while (reports.isEmpty()) {
                if (System.nanoTime() - deadline > 0) {
                    fail("the leak was never reported");
                }
                pauseForPolling();
            }
            assertEquals(1, reports.size());
            assertBalanced(pool);
        }
    }

    /** Acquires an object and drops it, in a frame of its own so that no local keeps it. */
    private static void leakOne(Pool<Tracked> pool) {
        pool.acquire().payload = "leaked";
    }

    // ---------------------------------------------------------------- helpers

    /** Polls {@code condition} until it holds or {@link #DEADLINE} passes. */
    static void awaitTrue(BooleanSupplier condition, String what) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("gave up after " + DEADLINE.toSeconds() + " s waiting for " + what);
            }
            pauseForPolling();
        }
    }

    /**
     * Runs {@code call} on a thread of its own. Not the common fork-join pool: it has a single
     * worker on a 2-core machine, so a second waiter would never start while the first blocks.
     */
    static <V> CompletableFuture<V> onOwnThread(java.util.function.Supplier<V> call) {
        CompletableFuture<V> f = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                f.complete(call.get());
            } catch (Throwable e) {
                f.completeExceptionally(e);
            }
        }, "bounded-test-waiter");
        t.setDaemon(true);
        t.start();
        return f;
    }
}
