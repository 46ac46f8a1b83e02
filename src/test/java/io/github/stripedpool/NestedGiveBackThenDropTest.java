package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.releaseCatching;
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
        PoolBuilder<Tracked> b = SelfGiveBack.invalidatingBroken(objects, ref, resetThrows);
        UnboundedPool<Tracked> pool = engine(resetThrows ? b : b.retainIf(x -> !"broken".equals(x.payload)),
                "reset-invalidates-then-refuses");
        ref.set(pool);
        Tracked x = pool.acquire();
        x.payload = "broken";
        Throwable thrown = releaseCatching(pool, x);
        assertEquals(1, x.destroys.get(), "destroy hook runs on x: thrown=" + thrown + ", " + pool.stats());
        assertTrue(thrown instanceof IllegalStateException, "the outer release was not refused: " + thrown);
    }

    /**
     * A reset that "closes" its object, the close returning it to the pool (pooled by the nested
     * release), and then a retainIf that refuses it: the outer release destroyed an object that
     * was idle in the pool, and the next acquire handed out the destroyed object.
     */
    @Test
    void resetReleasesItsObject_thenRetainIfRefuses_destroyedObjectHandedOut() {
        Tracked.Factory objects = new Tracked.Factory();
        SelfGiveBack back = new SelfGiveBack();
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .reset(x -> {
                    if ("closeMe".equals(x.payload)) {
                        back.release(x); // x.close() returns itself to its pool
                    }
                })
                .retainIf(x -> !"closeMe".equals(x.payload) || back.nested())
                .destroy(objects::destroy), "reset-releases-retain-refuses");
        back.pool.set(pool);
        Tracked x = pool.acquire();
        assertNothingDestroyedHandedOut(pool, x);
    }

    /**
     * The same on the release fast path (reset + destroy, no retainIf): the reset releases its
     * object (pooled by the nested release) and then throws, and the failed reset dropped it with
     * no check.
     */
    @Test
    void resetReleasesItsObjectThenThrows_fastPath_destroyedObjectHandedOut() {
        Tracked.Factory objects = new Tracked.Factory();
        SelfGiveBack back = new SelfGiveBack();
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .reset(x -> {
                    if ("closeMe".equals(x.payload) && back.release(x)) {
                        throw new IllegalStateException("close failed (expected by the test)");
                    }
                })
                .destroy(objects::destroy), "reset-releases-throws");
        back.pool.set(pool);
        Tracked warm = pool.acquire();
        pool.release(warm); // the thread holds a permit: fast path open
        warm = pool.acquire();
        Tracked x = pool.acquire();
        pool.release(warm);
        warm = pool.acquire(); // slot empty again, x held
        assertNothingDestroyedHandedOut(pool, x);
    }

    /**
     * Releases {@code x} marked "closeMe", whose hooks give it back and then drop it; then checks
     * that it is not both destroyed and idle, and that the next acquire hands out no destroyed
     * object.
     */
    private static void assertNothingDestroyedHandedOut(UnboundedPool<Tracked> pool, Tracked x) {
        x.payload = "closeMe";
        Throwable thrown = releaseCatching(pool, x);
        x.payload = null;
        int idle = UnboundedStats.countIdle(pool);
        Tracked a = pool.acquire();
        String state = "thrown=" + thrown + ", x destroys=" + x.destroys.get() + ", idle=" + idle
                + ", acquired " + a + " (destroys " + a.destroys.get() + "); " + pool.stats();
        assertTrue(!(x.destroys.get() > 0 && idle > 0), "x destroyed yet idle: " + state);
        assertEquals(0, a.destroys.get(), "handed out after its destroy: " + state);
    }
}
