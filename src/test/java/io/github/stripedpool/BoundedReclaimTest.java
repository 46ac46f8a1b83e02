package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.LeakTesting.Buffer;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Giving back the place of a borrowed object that became garbage unreleased
 * ({@link BoundedStates#reclaim}): only that object's place, never the place of the object that
 * took the entry after it; before a leak report reaches the listener; and without any report.
 */
class BoundedReclaimTest {

    private static BoundedEntry entryOf(BoundedPool<?> pool, Object x) {
        for (BoundedEntry e : pool.states().table.array()) {
            if (e.holds(x)) {
                return e;
            }
        }
        throw new AssertionError("no entry holds " + x);
    }

    /**
     * A reclaimer that read an entry (BORROWED) and its object's weak reference, then was held up
     * while that object was invalidated, collected, and a new object borrowed in the same entry:
     * its stale, cleared reference must not free the new object's place.
     */
    @Test
    void aReclaimerHeldUpAcrossAnObjectsEndLeavesTheNextObjectsPlaceAlone() {
        AtomicInteger destroyed = new AtomicInteger();
        BoundedPool<Object> pool = (BoundedPool<Object>) Pool.<Object>builder(() -> new byte[64])
                .destroy(x -> destroyed.incrementAndGet()).maxTotal(1).acquireTimeout(Duration.ZERO)
                .name("reclaim-life").build();
        try {
            Object x = pool.acquire();
            BoundedEntry e = entryOf(pool, x);
            int seen = e.word();                 // the reclaimer's reads...
            BoundedEntry.ObjectRef r = e.ref;
            pool.invalidate(x);                  // ...then the object ends,
            x = null;
            LeakTesting.gcUntil("the invalidated object collected", () -> r.refersTo(null));
            Object y = pool.acquire();           // and the entry takes a new one
            assertSame(e, entryOf(pool, y), "maxTotal 1: the same entry");
            assertEquals(BoundedEntry.BORROWED, BoundedEntry.stateOf(seen));
            assertEquals(BoundedEntry.BORROWED, e.state());

            assertFalse(pool.states().reclaim(e, seen, r),
                    "a reference of the previous object's life freed the place of the object borrowed now");
            assertEquals(1, pool.live(), "the place of the object in use");
            pool.release(y); // accepted: still the borrower's
            assertSame(y, pool.acquire(), "the one object, no second one beyond maxTotal 1");
            assertEquals(1, destroyed.get());
        } finally {
            pool.close();
        }
    }

    /** The same reads, with no life in between: the leaked object's place is given back. */
    @Test
    void aReclaimerGivesBackThePlaceOfTheObjectItRead() {
        // maxTotal 2, one object: a collection that finds every place taken reclaims on its own
        BoundedPool<Object> pool = (BoundedPool<Object>) Pool.<Object>builder(() -> new byte[64]).maxTotal(2)
                .acquireTimeout(Duration.ZERO).name("reclaim-same-life").build();
        try {
            Object x = pool.acquire();
            BoundedEntry e = entryOf(pool, x);
            int seen = e.word();
            BoundedEntry.ObjectRef r = e.ref;
            x = null; // leaked
            LeakTesting.gcUntil("the leaked object collected", () -> r.refersTo(null));
            assertTrue(pool.states().reclaim(e, seen, r));
            assertEquals(0, pool.live());
            assertNotNull(pool.acquire(), "the place is free again");
            assertTrue(e.word() != seen, "the entry is in a new life");
        } finally {
            pool.close();
        }
    }

    private static void leakOne(Pool<Buffer> pool) {
        pool.acquire().touch();
    }

    /**
     * Pool's Javadoc lets a listener call any method of its pool; the leaked object's place is
     * given back before the report reaches the listener, so a listener that acquires from its
     * bounded pool, whose only object leaked, gets one.
     */
    @Test
    void aLeakListenerThatAcquiresFromItsBoundedPoolGetsTheLeakedObjectsPlace() throws Exception {
        AtomicReference<Object> nested = new AtomicReference<>();
        AtomicReference<Pool<Buffer>> self = new AtomicReference<>();
        LinkedBlockingQueue<LeakReport> reports = new LinkedBlockingQueue<>();
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("listener-acquires").maxTotal(1)
                .leakDetection(LeakDetection.PARANOID)
                .onLeak(r -> {
                    try {
                        Buffer b = self.get().acquire(Duration.ofSeconds(2));
                        nested.set(b);
                        self.get().release(b);
                    } catch (Throwable t) {
                        nested.set(t);
                    }
                    reports.add(r);
                })
                .build();
        self.set(pool);
        try {
            leakOne(pool);
            long deadline = System.nanoTime() + LeakTesting.GC_DEADLINE.toNanos();
            LeakReport r = null;
            while (r == null && System.nanoTime() - deadline < 0) {
                System.gc();
                r = reports.poll(20, TimeUnit.MILLISECONDS);
            }
            assertNotNull(r, "no leak report");
            assertTrue(nested.get() instanceof Buffer,
                    "the listener's acquire should get the leaked object's place, got: " + nested.get());
        } finally {
            pool.close();
        }
    }

    /**
     * A bounded pool whose leaks no report covers (SAMPLED, none sampled; the same holds with
     * leak detection off) and that has no time limits, so no maintenance runs: once its objects
     * are garbage, a collection that finds every place taken gives them back.
     */
    @Test
    void aPoolWhoseLeaksWereNotSampledGetsItsPlacesBackAfterACollection() {
        Pool<Buffer> pool = Pool.builder(Buffer::new).name("unsampled-leaks").maxTotal(2)
                .leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(1 << 30)
                .acquireTimeout(Duration.ofMillis(200)).build();
        try {
            leakOne(pool);
            leakOne(pool);
            BoundedPool<?> engine = (BoundedPool<?>) ((LeakDetectingPool<?>) pool).engine();
            LeakTesting.gcUntil("both leaked objects collected and their places given back",
                    () -> engine.live() == 0);
            Buffer b = pool.acquire();
            pool.release(b);
            assertEquals(0, pool.stats().leaks(), "nothing was reported: the leaks were not sampled");
        } catch (PoolTimeoutException e) {
            fail("both leaked objects are collected, yet the pool is exhausted: " + pool.stats(), e);
        } finally {
            pool.close();
        }
    }
}
