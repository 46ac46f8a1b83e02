package io.github.stripedpool;

/**
 * How closely a pool watches for objects that are acquired and never released. Chosen per pool
 * with {@link PoolBuilder#leakDetection(LeakDetection)}, or for every pool of the JVM with the
 * system property {@code stripedpool.leakDetection}; see {@link PoolBuilder} for the precedence.
 *
 * <p>A tracked object that becomes garbage without having been released is reported once, with
 * the stack trace of its acquisition, as a {@link LeakReport}: to the {@link System.Logger}
 * {@code io.github.stripedpool} at {@code WARNING}, to the {@link PoolBuilder#onLeak listener},
 * and as the JDK Flight Recorder event {@code io.github.stripedpool.Leak}. Leaks are counted in
 * {@link PoolStats#leaks()}.
 */
public enum LeakDetection {
    /**
     * No tracking. The pool is built without any of the tracking code: this level costs nothing.
     * The default.
     */
    DISABLED,

    /**
     * One acquisition in {@link PoolBuilder#leakSamplingInterval(int) N} (at random, 1024 by
     * default) is tracked, with its stack trace. Cheap enough to leave on in production: a leak
     * that happens often is reported soon. In an unbounded pool the decision is taken inside the
     * pool by a per-thread countdown: an acquisition that is not sampled, and a release while no
     * tracked object is out, cost what they cost with detection disabled. Misuse detected for the tracked acquisitions
     * only: a second release of a tracked object, and use or close of a closed tracked lease. A
     * release of an object the pool did not hand out is not detected (only {@link #PARANOID},
     * which tracks every object handed out, can tell).
     */
    SAMPLED,

    /**
     * Every acquisition is tracked, with its stack trace, and every release checked. Meant for
     * tests and for hunting a leak: each acquisition and release records a stack trace, which
     * costs microseconds. Every double release made while the pool holds the object, and every
     * release of an object the pool did not hand out, throws. (A second release made after
     * another thread acquired the object again cannot be told from that borrower's own.)
     */
    PARANOID
}
