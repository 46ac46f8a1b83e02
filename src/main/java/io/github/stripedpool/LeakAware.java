package io.github.stripedpool;

/**
 * A pool engine that wants to hear of its leaked objects. {@link LeakDetectingPool} calls
 * {@link #leaked} when a tracked object died without being released, before it delivers the
 * report to the pool's listener (which may want the leaked object's place), as a
 * job of the pool's lane (on a {@code striped-pool-worker-N} thread; on the
 * {@code striped-pool-leaks} thread itself only if no worker could be started). A pool that counts its objects against a limit (a bounded pool) gives back the
 * leaked object's share there, so that a leaking service degrades with warnings instead of
 * running out of objects and waiting forever. An unbounded pool has nothing to give back and
 * does not implement it.
 *
 * <p>Only tracked objects are ever reported: under {@link LeakDetection#SAMPLED} about one leak in
 * N is reported, under {@link LeakDetection#PARANOID} every one. (A bounded pool also gives back
 * the places of unreported leaks, when a collection finds it with none left: see
 * {@link BoundedMaintenance#reclaimIfExhausted}.)
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
