package io.github.stripedpool;

import java.time.Duration;

/**
 * A thread's walk down to the end of its stack, calling the pool at each of the last frames on
 * the way back (see {@link StackLimitTest}): stats, acquire, release, each of which may throw
 * {@link StackOverflowError} at any call inside it; or, {@link #keeping}, acquires only, each
 * object kept, so that every acquire of a pool with room creates. Used by one thread.
 */
final class StackWalk {
    /**
     * A deep acquire's wait. An overflow between taking an object and returning it loses that
     * object to the caller, and a bounded pool its unit of capacity until a collection finds the
     * object unreachable (then the pool reclaims it), so deep acquires may time out.
     */
    static final Duration WAIT = Duration.ofMillis(1);

    /** Frames above the deepest one that acquire and release: where an overflow can happen. */
    static final int NEAR = 400;

    final Pool<Tracked> pool;
    /** Whether each frame's acquire keeps its object (in {@link #held}) instead of releasing it. */
    final boolean keeps;
    final Tracked[] held = new Tracked[NEAR * 2];
    int holding;
    long overflows;
    long timeouts;
    int deepest;

    StackWalk(Pool<Tracked> pool) {
        this(pool, false);
    }

    private StackWalk(Pool<Tracked> pool, boolean keeps) {
        this.pool = pool;
        this.keeps = keeps;
    }

    /**
     * A walk whose frames acquire and keep what they get, in {@link #held}, for the caller to
     * give back at the top of the stack: in a pool with room, each acquire runs the creation path.
     */
    static StackWalk keeping(Pool<Tracked> pool) {
        return new StackWalk(pool, true);
    }

    /**
     * Recurses to the end of the stack; on the way back, each of the last {@link #NEAR}
     * frames acquires and releases.
     */
    void down(int depth) {
        try {
            down(depth + 1);
        } catch (StackOverflowError e) {
            overflows++;
            if (deepest == 0) {
                deepest = depth;
            }
        }
        if (deepest - depth < NEAR) {
            if (keeps) {
                acquireAndKeep();
            } else {
                giveBack();
                cycle();
            }
        }
    }

    /**
     * One acquire and release. An object whose release overflowed is kept (a plain store,
     * no call that could overflow) to be given back by a frame further up.
     */
    private void cycle() {
        try {
            pool.stats(); // takes the pool's counting lock
        } catch (StackOverflowError e) {
            overflows++;
        }
        Tracked t = tryAcquire();
        if (t == null) {
            return;
        }
        try {
            pool.release(t);
        } catch (StackOverflowError e) {
            overflows++;
            held[holding++] = t;
        }
    }

    /** One acquire whose object is kept (a plain store, no call that could overflow). */
    private void acquireAndKeep() {
        Tracked t = tryAcquire();
        if (t != null) {
            held[holding++] = t;
        }
    }

    /** An acquire; null, counted, if it overflowed or timed out. */
    private Tracked tryAcquire() {
        try {
            return pool.acquire(WAIT);
        } catch (StackOverflowError e) {
            overflows++;
        } catch (PoolTimeoutException e) {
            timeouts++;
        }
        return null;
    }

    /** Retries the releases that overflowed, from a frame with more stack below it. */
    private void giveBack() {
        while (holding > 0) {
            try {
                pool.release(held[holding - 1]);
            } catch (StackOverflowError e) {
                overflows++;
                return;
            } catch (IllegalStateException alreadyBack) {
                // the release that overflowed had given it back before it overflowed
            }
            holding--;
        }
    }
}
