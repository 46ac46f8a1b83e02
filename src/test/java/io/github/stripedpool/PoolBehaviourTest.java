package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** What a caller sees: reuse, the tier each hit comes from, hooks, maxIdle, stats and leases. */
@Timeout(60)
class PoolBehaviourTest {
    private final Tracked.Factory objects = new Tracked.Factory();

    /** Two stripes, so that stealing has somewhere to steal from, and aging only by hand. */
    private UnboundedPool<Tracked> pool(int maxIdle) {
        return engine(objects.builder().maxIdle(maxIdle).stripes(2).agingInterval(MANUAL_AGING),
                "behaviour");
    }

    /**
     * A snapshot walks the tiers while objects move between them and may meet one twice
     * (PlainModeStressTest saw 9 idle in a pool of maxIdle 8); the pool never holds more than its
     * capacity idle, so neither does a snapshot.
     */
    @Test
    void aSnapshotNeverReportsMoreIdleThanTheCapacity() {
        assertEquals(8, new PoolStats("p", new long[Counts.SIZE], 0, 9, 8, false).idle());
        assertEquals(7, new PoolStats("p", new long[Counts.SIZE], 0, 7, 8, false).idle());
    }

    @Test
    void acquireOnEmptyPoolCreatesAnObject() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked x = pool.acquire();
            PoolStats s = pool.stats();
            assertEquals(1, s.created());
            assertEquals(1, s.misses());
            assertEquals(0, s.hits());
            assertEquals(1, s.inUse());
            assertEquals(0, s.idle());
            pool.release(x);
            assertBalanced(pool);
        }
    }

    @Test
    void releaseThenAcquireOnSameThreadReturnsSameObjectFromPrivateSlot() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked x = pool.acquire();
            pool.release(x);
            assertSame(x, pool.acquire());
            PoolStats s = pool.stats();
            assertEquals(1, s.privateHits());
            assertEquals(1, s.created());
            pool.release(x);
            assertBalanced(pool);
        }
    }

    @Test
    void secondObjectReleasedOnSameThreadIsReusedFromHomeStripe() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            pool.release(a); // private slot
            pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
            pool.release(b); // home stripe: the slot holds a
            assertSame(a, pool.acquire());
            assertSame(b, pool.acquire());
            PoolStats s = pool.stats();
            assertEquals(1, s.privateHits(), s::toString);
            assertEquals(1, s.homeHits(), s::toString);
            assertEquals(0, s.stolenHits(), s::toString);
            assertEquals(2, s.misses(), s::toString);
            pool.release(a);
            pool.release(b);
            assertBalanced(pool);
        }
    }

    @Test
    void objectReleasedToAnotherThreadsStripeIsStolen() throws InterruptedException {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            // Homes are handed out round-robin: the first thread to use the pool gets stripe 0,
            // the second (this one) stripe 1.
            List<Tracked> released = new ArrayList<>();
            Thread filler = new Thread(() -> {
                Tracked a = pool.acquire();
                Tracked b = pool.acquire();
                pool.release(a); // the filler's private slot
                pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
                pool.release(b); // stripe 0
                released.add(b);
            });
            filler.start();
            filler.join();

            Tracked x = pool.acquire();
            assertSame(released.get(0), x);
            PoolStats s = pool.stats();
            assertEquals(1, s.stolenHits(), s::toString);
            assertEquals(0, s.homeHits() + s.privateHits() + s.victimHits(), s::toString);
            pool.release(x);
            assertBalanced(pool);
        }
    }

    @Test
    void objectIdleThroughOneAgingCycleIsAVictimHit() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            pool.release(a);
            pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
            pool.release(b);
            forceAgingCycle(pool);
            assertEquals(2, pool.stats().idle(), "one cycle must not drop anything");

            assertSame(a, pool.acquire()); // the private slot does not tell victims apart
            assertSame(b, pool.acquire());
            PoolStats s = pool.stats();
            assertEquals(1, s.privateHits(), s::toString);
            assertEquals(1, s.victimHits(), s::toString);
            assertEquals(0, s.homeHits() + s.stolenHits(), s::toString);
            pool.release(a);
            pool.release(b);
            assertBalanced(pool);
        }
    }

    @Test
    void objectIdleThroughTwoAgingCyclesIsDestroyed() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            pool.release(a);
            pool.release(b);
            forceAgingCycle(pool);
            forceAgingCycle(pool);
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.idle(), s::toString);
            assertEquals(2, s.dropped(), s::toString);
            assertEquals(1, a.destroys.get());
            assertEquals(1, b.destroys.get());
            assertNotSame(a, pool.acquire());
        }
    }

    @Test
    void resetRunsOnReleaseBeforeTheObjectIsReused() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked x = pool.acquire();
            x.payload = "secret of the first borrower";
            pool.release(x);
            assertEquals(1, x.resets.get(), "reset must run inside release()");
            assertNull(x.payload, "reset must run before release() returns");
            assertSame(x, pool.acquire());
            assertNull(x.payload);
            pool.release(x);
        }
    }

    @Test
    void resetRunsBeforeAnotherThreadCanTakeTheObject() throws Exception {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            a.payload = "a";
            b.payload = "b";
            pool.release(a);
            pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
            pool.release(b); // reaches the stripes, where other threads can take it
            Tracked[] taken = new Tracked[1];
            Thread other = new Thread(() -> taken[0] = pool.acquire());
            other.start();
            other.join();
            assertSame(b, taken[0]);
            assertNull(taken[0].payload);
        }
    }

    @Test
    void resetThatThrowsDestroysTheObjectCountsTheFailureAndKeepsThePoolWorking() {
        AtomicInteger calls = new AtomicInteger();
        try (Pool<Tracked> pool = Pool.builder(objects::create)
                .reset(t -> {
                    if (calls.incrementAndGet() == 1) {
                        throw new PoolAssertions.HookFailure("reset failure for the test");
                    }
                })
                .destroy(objects::destroy).name("throwing-reset").build()) {
            Tracked x = pool.acquire();
            assertDoesNotThrow(() -> pool.release(x));
            PoolStats s = assertBalanced(pool);
            assertEquals(1, s.hookFailures(), s::toString);
            assertEquals(1, s.dropped(), s::toString);
            assertEquals(0, s.idle(), s::toString);
            assertEquals(1, x.destroys.get(), "the object whose reset failed must be destroyed");

            Tracked y = pool.acquire();
            assertNotSame(x, y, "an object whose reset failed must never be handed out again");
            pool.release(y);
            assertSame(y, pool.acquire());
            pool.release(y);
            s = assertBalanced(pool);
            assertEquals(1, s.hookFailures(), s::toString);
        }
    }

    @Test
    void destroyThatThrowsIsCountedAndTheObjectIsDroppedAnyway() {
        AtomicInteger destroyCalls = new AtomicInteger();
        Pool<Tracked> pool = Pool.builder(objects::create)
                .destroy(t -> {
                    destroyCalls.incrementAndGet();
                    throw new PoolAssertions.HookFailure("destroy failure for the test");
                })
                .maxIdle(1).stripes(1).name("throwing-destroy").build();
        Tracked a = pool.acquire();
        Tracked b = pool.acquire();
        pool.release(a); // the one idle place: the private slot
        assertDoesNotThrow(() -> pool.release(b)); // over maxIdle: destroyed
        PoolStats s = assertBalanced(pool);
        assertEquals(1, s.dropped(), s::toString);
        assertEquals(1, s.hookFailures(), s::toString);
        assertEquals(1, s.idle(), s::toString);

        assertDoesNotThrow(pool::close);
        s = pool.stats();
        assertEquals(2, destroyCalls.get());
        assertEquals(2, s.dropped(), s::toString);
        assertEquals(2, s.hookFailures(), s::toString);
        assertEquals(0, s.idle(), s::toString);
        assertBalanced(pool);
    }

    @Test
    void releaseBeyondMaxIdleDestroysTheObject() {
        int maxIdle = 5;
        try (UnboundedPool<Tracked> pool = pool(maxIdle)) {
            List<Tracked> held = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                held.add(pool.acquire());
            }
            held.forEach(pool::release);
            PoolStats s = assertBalanced(pool);
            assertTrue(s.idle() <= maxIdle, s::toString);
            // One thread can fill its private slot and the stripes, maxIdle in all, no more.
            assertEquals(maxIdle, s.idle(), s::toString);
            assertEquals(20 - s.idle(), s.dropped(), s::toString);
            assertEquals(s.dropped(), objects.destroyed.get(), "every excess object is destroyed");
            assertTrue(objects.destroyedTwice().isEmpty());
        }
    }

    @Test
    void releaseBeyondMaxIdleFromManyThreadsNeverHoldsMoreThanMaxIdle() throws Exception {
        int maxIdle = 7;
        int threads = 8;
        int perThread = 25;
        try (UnboundedPool<Tracked> pool = pool(maxIdle)) {
            CountDownLatch allAcquired = new CountDownLatch(threads);
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread w = new Thread(() -> {
                    List<Tracked> held = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        held.add(pool.acquire());
                    }
                    allAcquired.countDown();
                    try {
                        allAcquired.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    held.forEach(pool::release);
                });
                workers.add(w);
                w.start();
            }
            for (Thread w : workers) {
                w.join();
            }
            PoolStats s = assertBalanced(pool);
            assertEquals(threads * perThread, s.created(), s::toString);
            assertEquals(maxIdle, s.idle(), "private slots borrow the stripes' capacity: "
                    + s);
            assertEquals(s.created() - maxIdle, s.dropped(), s::toString);
            assertEquals(s.dropped(), objects.destroyed.get());
            assertTrue(objects.destroyedTwice().isEmpty());
        }
    }

    @Test
    void statsToStringIsReadableAndNamesThePool() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            pool.release(pool.acquire());
            pool.release(pool.acquire());
            String text = pool.stats().toString();
            System.out.println(text);
            assertTrue(text.startsWith("Pool 'behaviour': "), text);
            assertTrue(text.contains("1 idle (max 16)"), text);
            assertTrue(text.contains("hit rate 50.00%"), text);
            assertTrue(text.contains("private 1"), text);
            assertTrue(text.contains("created 1, dropped 0"), text);
            assertTrue(!text.contains("\n"), "one line: " + text);
        }
    }

    @Test
    void leaseGetsAnObjectAndReleasesItOnClose() {
        try (UnboundedPool<Tracked> pool = pool(16)) {
            Tracked seen;
            try (Lease<Tracked> lease = pool.lease()) {
                seen = lease.get();
                seen.payload = "in use";
                assertEquals(1, pool.stats().inUse());
                assertTrue(lease.toString().contains("behaviour"), lease::toString);
            }
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.inUse(), s::toString);
            assertEquals(1, s.released(), s::toString);
            assertNull(seen.payload, "the lease's release runs the reset hook");
            try (Lease<Tracked> lease = pool.lease()) {
                assertSame(seen, lease.get());
            }
            assertBalanced(pool);
        }
    }

    @Test
    void oneBuilderBuildsIndependentPoolsAndLaterChangesDoNotReachABuiltPool() {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(8).name("first");
        try (Pool<Tracked> first = b.build()) {
            b.maxIdle(3).name("second");
            try (Pool<Tracked> second = b.build()) {
                assertEquals("first", first.name());
                assertEquals(8, first.stats().idleCapacity());
                assertEquals("second", second.name());
                assertEquals(3, second.stats().idleCapacity());
                Tracked x = first.acquire();
                first.release(x);
                assertNotSame(x, second.acquire());
            }
        }
    }

    @Test
    void unnamedPoolsGetDistinctGeneratedNames() {
        try (Pool<Tracked> a = objects.builder().build(); Pool<Tracked> b = objects.builder().build()) {
            assertTrue(a.name().startsWith("pool-"), a.name());
            assertTrue(b.name().startsWith("pool-"), b.name());
            assertTrue(!a.name().equals(b.name()), a.name());
        }
    }
}
