package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.releaseCatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hook that gives back, from inside a release, the very object being released: a reset that
 * "closes" the object, whose close returns it to its pool; a reset that finds it broken and
 * invalidates it. That is the same object given back twice in a row on one thread, which every
 * pool catches, and hooks may call back into the pool with nothing lost or destroyed twice. The
 * outer release checked for a double release before its hooks only, so it then pooled the object
 * again: idle twice (handed out twice), or pooled after the nested invalidate destroyed it. Now
 * the nested call does its work and the outer release throws {@link IllegalStateException},
 * leaving the object idle once, or destroyed once and never handed out.
 */
class NestedSelfGiveBackTest {

    /** 0: a reset hook (release fast path); 1: reset and destroy (exact); 2: retainIf and destroy. */
    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2})
    void aHookThatReleasesItsOwnObjectLeavesItIdleTwice(int mode) {
        Tracked.Factory objects = new Tracked.Factory();
        SelfGiveBack back = new SelfGiveBack();
        Consumer<Tracked> selfRelease = back::release; // "x.close()" returning itself to its pool
        PoolBuilder<Tracked> b = Pool.builder(objects::create).agingInterval(MANUAL_AGING);
        if (mode == 0) {
            b.reset(selfRelease);
        } else if (mode == 1) {
            b.reset(selfRelease).destroy(objects::destroy);
        } else {
            b.retainIf(x -> {
                selfRelease.accept(x);
                return true;
            }).destroy(objects::destroy);
        }
        UnboundedPool<Tracked> pool = engine(b, "self-release-" + mode);
        back.pool.set(pool);
        Tracked x = pool.acquire();
        Throwable thrown = releaseCatching(pool, x);
        back.disarm(); // the releases below are plain ones
        int idle = UnboundedStats.countIdle(pool);
        Tracked a = pool.acquire();
        Tracked c = pool.acquire();
        String state = "thrown=" + thrown + ", idle after the release (uncapped walk)=" + idle
                + ", then acquired " + a + " and " + c + "; " + pool.stats();
        assertTrue(thrown instanceof IllegalStateException, "the outer release was not refused: " + state);
        assertEquals(1, idle, "the object is idle once: " + state);
        assertNotSame(a, c, "one object handed out twice to the same thread: " + state);
        pool.release(c);
        pool.release(a);
        pool.close();
        if (mode != 0) {
            assertTrue(objects.destroyedTwice().isEmpty(), "destroyed twice: " + objects.destroyedTwice());
        }
    }

    /**
     * A reset hook that finds its object broken and invalidates it (instead of throwing): the
     * nested invalidate destroys it, and the outer release must not pool it after that, on the
     * fast path (the slot empty) or the checked one (the slot full: a spare entry).
     */
    @ParameterizedTest
    @ValueSource(ints = {0, 1})
    void aResetHookThatInvalidatesItsObjectGetsItPooledAfterItsDestroy(int withSpareInUse) {
        Tracked.Factory objects = new Tracked.Factory();
        AtomicReference<Pool<Tracked>> ref = new AtomicReference<>();
        UnboundedPool<Tracked> pool = engine(SelfGiveBack.invalidatingBroken(objects, ref, false), "reset-invalidates-" + withSpareInUse);
        ref.set(pool);
        Tracked other = withSpareInUse == 1 ? pool.acquire() : null;
        Tracked x = pool.acquire();
        if (other != null) {
            pool.release(other); // the slot's own entry is full: x goes the checked path to a spare entry
        }
        x.payload = "broken";
        Throwable thrown = releaseCatching(pool, x);
        assertTrue(thrown instanceof IllegalStateException, "the outer release was not refused: " + thrown);
        assertEquals(1, x.destroys.get(), "invalidated once");
        int idle = UnboundedStats.countIdle(pool);
        Tracked a = pool.acquire();
        Tracked c = pool.acquire();
        String state = "thrown=" + thrown + ", idle after the release (uncapped walk)=" + idle
                + ", then acquired " + a + " (destroys " + a.destroys.get() + ") and " + c
                + " (destroys " + c.destroys.get() + "); " + pool.stats();
        assertEquals(0, a.destroys.get(), "handed out after its destroy: " + state);
        assertEquals(0, c.destroys.get(), "handed out after its destroy: " + state);
    }
}
