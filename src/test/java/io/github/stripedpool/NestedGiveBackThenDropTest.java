package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hook that gives back the very object being released, after which the outer release would
 * drop it ({@code retainIf} refuses it, or the reset throws after its nested give-back): the
 * drop must not run, or the object is destroyed twice, or destroyed while the nested release
 * left it idle, and then handed out. The check after the hooks ran only on the path that pools.
 */
class NestedGiveBackThenDropTest {

    /**
     * A reset that invalidates a broken object, then a {@code retainIf} that refuses broken ones,
     * or a reset that invalidates it and then reports it by throwing: destroyed once, and the
     * outer release refused.
     */
    @ParameterizedTest(name = "the reset then throws: {0}")
    @ValueSource(booleans = {false, true})
    void aResetThatInvalidatesItsObjectThenRefusesIt(boolean resetThrows) {
        Tracked.Factory objects = new Tracked.Factory();
        AtomicReference<Pool<Tracked>> ref = new AtomicReference<>();
        PoolBuilder<Tracked> b = NestedSelfGiveBackTest.invalidatingBroken(objects, ref, resetThrows);
        UnboundedPool<Tracked> pool = engine(resetThrows ? b : b.retainIf(x -> !"broken".equals(x.payload)),
                "reset-invalidates-then-refuses");
        ref.set(pool);
        Tracked x = pool.acquire();
        x.payload = "broken";
        Throwable thrown = NestedSelfGiveBackTest.releaseCatching(pool, x);
        assertEquals(1, x.destroys.get(), "destroy hook runs on x: thrown=" + thrown + ", " + pool.stats());
        assertTrue(thrown instanceof IllegalStateException, "the outer release was not refused: " + thrown);
    }

    /**
     * A reset that "closes" its object, the close returning it to the pool (pooled by the nested
     * release), and then a retainIf that refuses it: the outer release destroys an object that is
     * idle in the pool, and the next acquire hands out the destroyed object.
     */
    @Test
    void resetReleasesItsObject_thenRetainIfRefuses_destroyedObjectHandedOut() {
        Tracked.Factory objects = new Tracked.Factory();
        AtomicReference<Pool<Tracked>> ref = new AtomicReference<>();
        ThreadLocal<Boolean> inHook = ThreadLocal.withInitial(() -> false);
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .reset(x -> {
                    if (!inHook.get() && "closeMe".equals(x.payload)) {
                        inHook.set(true);
                        try {
                            ref.get().release(x); // x.close() returns itself to its pool
                        } finally {
                            inHook.set(false);
                        }
                    }
                })
                .retainIf(x -> !"closeMe".equals(x.payload) || inHook.get())
                .destroy(objects::destroy), "reset-releases-retain-refuses");
        ref.set(pool);
        Tracked x = pool.acquire();
        x.payload = "closeMe";
        Throwable thrown = NestedSelfGiveBackTest.releaseCatching(pool, x);
        x.payload = null;
        int idle = UnboundedStats.countIdle(pool);
        Tracked a = pool.acquire();
        String state = "thrown=" + thrown + ", x destroys=" + x.destroys.get() + ", idle=" + idle
                + ", acquired " + a + " (destroys " + a.destroys.get() + "); " + pool.stats();
        assertTrue(!(x.destroys.get() > 0 && idle > 0), "x destroyed yet idle: " + state);
        assertEquals(0, a.destroys.get(), "handed out after its destroy: " + state);
    }

    /**
     * The same on the release fast path (reset + destroy, no retainIf): the reset releases its
     * object (pooled by the nested release) and then throws: resetFailed drops it with no check.
     */
    @Test
    void resetReleasesItsObjectThenThrows_fastPath_destroyedObjectHandedOut() {
        Tracked.Factory objects = new Tracked.Factory();
        AtomicReference<Pool<Tracked>> ref = new AtomicReference<>();
        ThreadLocal<Boolean> inHook = ThreadLocal.withInitial(() -> false);
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .reset(x -> {
                    if (!inHook.get() && "closeMe".equals(x.payload)) {
                        inHook.set(true);
                        try {
                            ref.get().release(x);
                        } finally {
                            inHook.set(false);
                        }
                        throw new IllegalStateException("close failed (expected by the test)");
                    }
                })
                .destroy(objects::destroy), "reset-releases-throws");
        ref.set(pool);
        Tracked warm = pool.acquire();
        pool.release(warm); // the thread holds a permit: fast path open
        warm = pool.acquire();
        Tracked x = pool.acquire();
        pool.release(warm);
        warm = pool.acquire(); // slot empty again, x held
        Throwable thrown = null;
        x.payload = "closeMe";
        try {
            pool.release(x);
        } catch (RuntimeException e) {
            thrown = e;
        }
        x.payload = null;
        int idle = UnboundedStats.countIdle(pool);
        Tracked a = pool.acquire();
        String state = "thrown=" + thrown + ", x destroys=" + x.destroys.get() + ", idle=" + idle
                + ", acquired " + a + " (destroys " + a.destroys.get() + "); " + pool.stats();
        assertEquals(0, a.destroys.get(), "handed out after its destroy: " + state);
    }
}
