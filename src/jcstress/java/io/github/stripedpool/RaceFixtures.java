package io.github.stripedpool;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Objects and pools shared by the race tests of this source set.
 *
 * <p>Every race test builds its own pool in its state, so each sample starts from a known
 * layout: one stripe (so "the stripe" of a test is unambiguous) and, where a test needs an object
 * to be reachable from a second thread, no private-slot permits (a private slot is visible only to
 * its owner, aging and close).
 *
 * <p>Extension points. A mode added to the pool (a bounded pool with waiters, leak tracking) gets
 * its own fixture method here and its own tests next to these, one race per class:
 * <ul>
 *   <li>bounded: waiter handoff (a release hands its object to exactly one parked waiter, never
 *       to a waiter that timed out), timeout vs release, close vs waiting acquire;</li>
 *   <li>leak tracking: tracker enqueue (the object became unreachable) vs a late release, so
 *       that an object is reported or returned, never both.</li>
 * </ul>
 */
final class RaceFixtures {
    private RaceFixtures() {
    }

    /** A pooled object that counts its destructions and carries a value a reset must clear. */
    static final class Item {
        final AtomicInteger destroyed = new AtomicInteger();
        int secret;
    }

    /** The value a borrower writes; no later borrower may read it. */
    static final int SECRET = 0x5EC2E7;

    /**
     * A one-stripe pool whose reset clears {@link Item#secret} and whose destroy hook counts.
     * Aging runs only when a test calls it: the interval is long enough that the collector's
     * clock never starts a cycle during a sample.
     */
    static UnboundedPool<Item> pool() {
        return (UnboundedPool<Item>) Pool.builder(Item::new)
                .reset(i -> i.secret = 0)
                .destroy(i -> i.destroyed.incrementAndGet())
                .maxIdle(8)
                .stripes(1)
                .agingInterval(Duration.ofDays(1))
                .name("race")
                .build();
    }

    /**
     * Like {@link #pool()}, with aging at every call of {@code onGarbageCollection} (interval
     * zero), for tests that drive aging themselves.
     */
    static UnboundedPool<Item> agingPool() {
        return (UnboundedPool<Item>) Pool.builder(Item::new)
                .reset(i -> i.secret = 0)
                .destroy(i -> i.destroyed.incrementAndGet())
                .maxIdle(8)
                .stripes(1)
                .agingInterval(Duration.ZERO)
                .name("race-aging")
                .build();
    }

    /** A one-stripe pool without hooks: private-slot accesses are plain (no atomic instruction). */
    static UnboundedPool<Item> plainPool() {
        return (UnboundedPool<Item>) Pool.builder(Item::new)
                .maxIdle(8)
                .stripes(1)
                .agingInterval(Duration.ofDays(1))
                .name("race-plain")
                .build();
    }

    /** Like {@link #plainPool()}, aging at every call of {@code onGarbageCollection}. */
    static UnboundedPool<Item> plainAgingPool() {
        return (UnboundedPool<Item>) Pool.builder(Item::new)
                .maxIdle(8)
                .stripes(1)
                .agingInterval(Duration.ZERO)
                .name("race-plain-aging")
                .build();
    }

    /**
     * Takes every private-slot permit of {@code pool}, so that releases from any thread go to the
     * stripe where other threads can take them: which thread takes a permit otherwise depends on
     * which thread touches the pool first, and jcstress gives no control over that.
     */
    static <T> UnboundedPool<T> withoutPrivateSlots(UnboundedPool<T> pool) {
        pool.permits.withdrawAll();
        return pool;
    }
}
