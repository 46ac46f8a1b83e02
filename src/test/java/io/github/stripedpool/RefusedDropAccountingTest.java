package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
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
        Tracked x = pool.acquire();
        Throwable thrown = releaseOnce(pool, x);
        assertTrue(thrown instanceof IllegalStateException, "outer release not refused: " + thrown);
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
        Tracked x = pool.acquire();
        Throwable thrown = releaseOnce(pool, x);
        assertTrue(thrown instanceof IllegalStateException, "outer release not refused: " + thrown);
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

    /** Whether the next release is the one whose {@code retainIf} gives its object back. */
    private final AtomicBoolean armed = new AtomicBoolean(true);

    /**
     * A pool whose {@code retainIf}, on the armed release, releases ({@code release}) or
     * invalidates its own object, then refuses it; at any other call, keeps it.
     */
    private UnboundedPool<Tracked> retainThatGivesBackThenRefuses(Tracked.Factory objects, boolean release, String name) {
        AtomicReference<Pool<Tracked>> ref = new AtomicReference<>();
        ThreadLocal<Boolean> inHook = ThreadLocal.withInitial(() -> false);
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .retainIf(x -> {
                    if (inHook.get() || !armed.get()) {
                        return true; // a nested release pools it
                    }
                    inHook.set(true);
                    try {
                        if (release) {
                            ref.get().release(x);
                        } else {
                            ref.get().invalidate(x);
                        }
                    } finally {
                        inHook.set(false);
                    }
                    return false;
                })
                .destroy(objects::destroy), name);
        ref.set(pool);
        return pool;
    }

    /** The armed release of {@code x}: what it threw, or null; the releases after it are plain. */
    private Throwable releaseOnce(Pool<Tracked> pool, Tracked x) {
        Throwable thrown = NestedSelfGiveBackTest.releaseCatching(pool, x);
        armed.set(false);
        return thrown;
    }
}
