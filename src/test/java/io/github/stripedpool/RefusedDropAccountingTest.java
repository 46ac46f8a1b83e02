package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.releaseCatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The counters after a release refused because its own {@code retainIf} gave the object back
 * (a nested release that pooled it, or an invalidate that destroyed it) and then said no: the
 * object is not counted as not retained, since this release destroyed nothing
 * ({@link PoolStats#notRetained()}: destroyed instead of pooled).
 */
class RefusedDropAccountingTest {

    /** retainIf releases its own object (pooled by the nested release) then refuses it. */
    @Test
    void retainIfThatReleasesItsObjectThenRefuses_notRetainedCountsAnObjectNeverDropped() {
        Tracked.Factory objects = new Tracked.Factory();
        UnboundedPool<Tracked> pool = retainThatGivesBackThenRefuses(objects, true, "retain-releases-then-refuses");
        Tracked x = releaseRefused(pool);
        assertEquals(0, x.destroys.get());
        PoolStats s = PoolAssertions.assertBalanced(pool);
        assertTrue(s.notRetained() <= s.dropped(),
                "notRetained counts an object that was pooled, not dropped: " + s);
        assertTrue(s.notRetained() <= s.released(), "notRetained above released: " + s);
    }

    /** retainIf invalidates its own object then refuses it: one drop, counted as two kinds. */
    @Test
    void retainIfThatInvalidatesItsObjectThenRefuses_dropCountedAsInvalidatedAndNotRetained() {
        Tracked.Factory objects = new Tracked.Factory();
        UnboundedPool<Tracked> pool = retainThatGivesBackThenRefuses(objects, false, "retain-invalidates-then-refuses");
        Tracked x = releaseRefused(pool);
        assertEquals(1, x.destroys.get());
        PoolStats s = PoolAssertions.assertBalanced(pool);
        assertTrue(s.notRetained() + s.invalidated() <= s.dropped(),
                "one drop counted both invalidated and not retained: " + s);
        // the thread goes on: the next release of another object pools it
        Tracked y = pool.acquire();
        pool.release(y);
        assertEquals(1, UnboundedStats.countIdle(pool), pool.stats().toString());
        PoolAssertions.assertBalanced(pool);
    }

    /** The give-back of the armed release; disarmed by {@link #releaseRefused}. */
    private final SelfGiveBack back = new SelfGiveBack();

    /**
     * A pool whose {@code retainIf}, on the armed release, releases ({@code release}) or
     * invalidates its own object, then refuses it; at any other call, keeps it.
     */
    private UnboundedPool<Tracked> retainThatGivesBackThenRefuses(Tracked.Factory objects, boolean release, String name) {
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                // keeps it unless this call gave it back (a nested or a later release pools it)
                .retainIf(x -> !(release ? back.release(x) : back.invalidate(x)))
                .destroy(objects::destroy), name);
        back.pool.set(pool);
        return pool;
    }

    /**
     * Acquires an object and makes the armed release of it, which must be refused; the releases
     * after it are plain.
     */
    private Tracked releaseRefused(UnboundedPool<Tracked> pool) {
        Tracked x = pool.acquire();
        Throwable thrown = releaseCatching(pool, x);
        back.disarm();
        assertTrue(thrown instanceof IllegalStateException, "outer release not refused: " + thrown);
        return x;
    }
}
