package io.github.stripedpool;

import java.time.Duration;

/**
 * A thread's walk down to the end of its stack, calling the pool at each of the last frames on
 * the way back (see {@link StackLimitTest}): stats, acquire, release, each of which may throw
 * {@link StackOverflowError} at any call inside it. Used by one thread.
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
    final Tracked[] held = new Tracked[NEAR * 2];
    int holding;
    long overflows;
    long timeouts;
    int deepest;

    StackWalk(Pool<Tracked> pool) {
        this.pool = pool;
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
            giveBack();
            cycle();
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
        Tracked t;
        try {
            t = pool.acquire(WAIT);
        } catch (StackOverflowError e) {
            overflows++;
            return;
        } catch (PoolTimeoutException e) {
            timeouts++;
            return;
        }
        try {
            pool.release(t);
        } catch (StackOverflowError e) {
            overflows++;
            held[holding++] = t;
        }
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
