package io.github.stripedpool;

/**
 * A pool engine that wants to hear of its leaked objects. {@link LeakDetectingPool} calls
 * {@link #leaked} after it has reported a tracked object that died without being released, as a
 * job of the pool's lane (on a {@code striped-pool-worker-N} thread; on the
 * {@code striped-pool-leaks} thread itself only if no worker could be started). A pool that counts its objects against a limit (a bounded pool) gives back the
 * leaked object's share there, so that a leaking service degrades with warnings instead of
 * running out of objects and waiting forever. An unbounded pool has nothing to give back and
 * does not implement it.
 *
 * <p>Only tracked objects are ever reported: under {@link LeakDetection#SAMPLED} about one leak in
 * N is reclaimed, under {@link LeakDetection#PARANOID} every one.
 */
interface LeakAware {
    /**
     * The object of {@code report} was acquired from this pool, never released, and is garbage.
     * Runs on a library thread (see above), never under a lock; must be quick and must not block,
     * since the pool's other background jobs wait behind it.
     *
     * @param report what was leaked, by whom, from where
     */
    void leaked(LeakReport report);
}
