package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * What a hook does when it gives back, from inside a release, the very object being released:
 * {@code x.close()} that returns {@code x} to its pool, or the invalidation of a broken
 * {@code x}. The give-back runs the pool's hooks again; this one gives back only from the
 * outermost of them, and only while armed, so that a test can make its later releases plain ones.
 */
final class SelfGiveBack {
    /** The pool to give back to; set once it is built. */
    final AtomicReference<Pool<Tracked>> pool = new AtomicReference<>();
    private final ThreadLocal<Boolean> inHook = ThreadLocal.withInitial(() -> false);
    private final AtomicBoolean armed = new AtomicBoolean(true);

    /** Releases {@code x} to the pool from a hook; returns whether it did (armed, not nested). */
    boolean release(Tracked x) {
        return giveBack(x, false);
    }

    /** Invalidates {@code x} from a hook; returns whether it did (armed, not nested). */
    boolean invalidate(Tracked x) {
        return giveBack(x, true);
    }

    private boolean giveBack(Tracked x, boolean invalidate) {
        if (!armed.get() || inHook.get()) {
            return false;
        }
        inHook.set(true);
        try {
            if (invalidate) {
                pool.get().invalidate(x);
            } else {
                pool.get().release(x);
            }
        } finally {
            inHook.set(false);
        }
        return true;
    }

    /** Whether the calling thread is in the nested give-back, i.e. the hooks run for it. */
    boolean nested() {
        return inHook.get();
    }

    /** From now on no hook gives back: later releases are plain ones. */
    void disarm() {
        armed.set(false);
    }

    /**
     * A builder whose reset invalidates an object whose payload says "broken" (the object keeps
     * saying so), then throws if {@code thenThrow}; with a destroy hook. {@code ref} is the pool.
     */
    static PoolBuilder<Tracked> invalidatingBroken(Tracked.Factory objects, AtomicReference<Pool<Tracked>> ref,
            boolean thenThrow) {
        return Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .reset(x -> {
                    if ("broken".equals(x.payload)) {
                        ref.get().invalidate(x);
                        if (thenThrow) {
                            throw new IllegalStateException("broken (expected by the test)");
                        }
                    }
                })
                .destroy(objects::destroy);
    }
}
