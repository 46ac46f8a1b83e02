package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.Predicate;

/** Checks and waits shared by the pool tests. */
final class PoolAssertions {
    /** How long a GC-driven test waits for the aging it expects before failing. */
    static final Duration AGING_DEADLINE = Duration.ofSeconds(30);

    /**
     * Interval for pools aged by hand with {@link #forceAgingCycle}: long enough that the real
     * collector never ages them during a test.
     */
    static final Duration MANUAL_AGING = Duration.ofDays(1000);

    private PoolAssertions() {
    }

    /**
     * What the tests' hooks throw. The pool logs every hook failure with its stack trace; this
     * one has none, so that a log shows the message and not the test runner's frames.
     */
    static final class HookFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;

        HookFailure(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * Builds the engine itself, for tests that look inside it or age it by hand. Not
     * {@link PoolBuilder#build()}, which may wrap the engine (leak detection can be switched
     * on for every pool by a system property).
     */
    static <T> UnboundedPool<T> engine(PoolBuilder<T> builder, String name) {
        return new UnboundedPool<>(builder.settings(name));
    }

    /** Releases {@code x} and returns what the release threw, or null. */
    static <T> Throwable releaseCatching(Pool<T> pool, T x) {
        try {
            pool.release(x);
            return null;
        } catch (RuntimeException e) {
            return e;
        }
    }

    /** The accounting invariant of a quiescent pool. */
    static PoolStats assertBalanced(Pool<?> pool) {
        PoolStats s = pool.stats();
        assertEquals(s.created() - s.dropped(), s.idle() + s.inUse(),
                () -> "created - dropped must equal idle + inUse at quiescence: " + s);
        assertTrue(s.idle() <= s.idleCapacity(), () -> "idle above maxIdle: " + s);
        return s;
    }

    /**
     * Runs one aging cycle now, on the calling thread, for a pool built with
     * {@code agingInterval(MANUAL_AGING)}: the clock reading passed in is far enough ahead of
     * every earlier one that the interval check lets the cycle through, while real collections,
     * reported with the true clock, stay inside the interval and do nothing.
     */
    static void forceAgingCycle(UnboundedPool<?> p) {
        long before = p.stats().agingCycles();
        p.onGarbageCollection(System.nanoTime() + (before + 1) * MANUAL_AGING.toNanos());
        assertEquals(before + 1, p.stats().agingCycles(), "the forced aging cycle did not run");
    }

    /**
     * Provokes garbage collections until {@code done} holds for the pool's stats, or fails after
     * {@link #AGING_DEADLINE}. Between collections it gives the aging thread a moment to re-arm
     * its sentinel; a collection it misses is harmless, the loop simply provokes another.
     */
    static PoolStats awaitStats(Pool<?> pool, Predicate<PoolStats> done, String what) {
        long deadline = System.nanoTime() + AGING_DEADLINE.toNanos();
        for (;;) {
            PoolStats s = pool.stats();
            if (done.test(s)) {
                return s;
            }
            if (System.nanoTime() - deadline > 0) {
                fail("gave up after " + AGING_DEADLINE.toSeconds() + " s waiting for " + what + ": " + s);
            }
            System.gc();
            pauseForPolling();
        }
    }

    /** Waits until the pool has run {@code cycles} aging cycles in all. */
    static PoolStats awaitAgingCycles(Pool<?> pool, long cycles) {
        return awaitStats(pool, s -> s.agingCycles() >= cycles, cycles + " aging cycles");
    }

    /** A polling pause: it paces a loop that re-checks its condition, it orders nothing. */
    static void pauseForPolling() {
        try {
            Thread.sleep(5);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while polling", e);
        }
    }
}
