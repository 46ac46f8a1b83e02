package io.github.stripedpool;

/**
 * A snapshot of a pool's counters, taken by {@link Pool#stats()}.
 *
 * <p>Counters are kept per thread and per stripe and summed when the snapshot is taken, so a
 * snapshot taken while other threads work is not one instant: each counter is exact, but two
 * counters may disagree by the operations that ran in between. When the pool is quiescent (no
 * call in progress), {@code created() - dropped() == idle() + inUse()}.
 *
 * <p>One rare race of an unbounded pool without a destroy hook: its private slots are read and
 * written without atomic instructions, and aging (or close) may forget an idle object at the
 * very instant its owner takes it. The owner keeps using the object (nothing is destroyed) and
 * counts its acquisition and, later, its release as always, so {@code acquired()},
 * {@code released()} and {@code inUse()} stay exact; only {@code dropped()} counts that object
 * once too often. At quiescence, then, {@code created() - dropped() <= idle() + inUse()}, short
 * by the number of such races, which is at most one per private slot per aging cycle (and at
 * most {@code dropped()}). Under aging at its default interval it is vanishingly rare; a pool with
 * a destroy hook counts exactly.
 *
 * <p>A snapshot taken while threads acquire and release may read an object's release and miss
 * its acquisition (another thread's counters were summed first). {@link #inUse()} never reports
 * less than 0: such a snapshot reads it low, at 0 at worst, by the operations in flight.
 */
public final class PoolStats {
    private final String name;
    private final long created;
    private final long dropped;
    private final long released;
    private final long privateHits;
    private final long homeHits;
    private final long stolenHits;
    private final long victimHits;
    private final long misses;
    private final long hookFailures;
    private final long agingCycles;
    private final int idle;
    private final int maxIdle;
    private final boolean closed;
    /** Set by {@link #withLeaks} before the snapshot leaves the pool; 0 without leak detection. */
    private long leaks;

    PoolStats(String name, long[] counts, long agingCycles, int idle, int maxIdle, boolean closed) {
        this.name = name;
        this.created = counts[Counts.CREATED];
        this.dropped = counts[Counts.DROPPED];
        this.released = counts[Counts.RELEASED];
        this.privateHits = counts[Counts.HIT_PRIVATE];
        this.homeHits = counts[Counts.HIT_HOME];
        this.stolenHits = counts[Counts.HIT_STOLEN];
        this.victimHits = counts[Counts.HIT_VICTIM];
        this.misses = counts[Counts.MISS];
        this.hookFailures = counts[Counts.HOOK_FAILURE];
        this.agingCycles = agingCycles;
        this.idle = idle;
        this.maxIdle = maxIdle;
        this.closed = closed;
    }

    /** @return the pool's name */
    public String name() {
        return name;
    }

    /** @return objects made by the factory */
    public long created() {
        return created;
    }

    /**
     * Objects the pool let go of and passed to the destroy hook: released while {@code maxIdle}
     * were idle, aged out, failed their reset, or were idle or returned after close.
     *
     * @return objects dropped
     */
    public long dropped() {
        return dropped;
    }

    /** @return successful acquisitions: {@code hits() + misses()} */
    public long acquired() {
        return hits() + misses;
    }

    /** @return calls to release (including leases closed) */
    public long released() {
        return released;
    }

    /** @return acquisitions served from the calling thread's private slot */
    public long privateHits() {
        return privateHits;
    }

    /** @return acquisitions served from the calling thread's home stripe */
    public long homeHits() {
        return homeHits;
    }

    /** @return acquisitions served by stealing from another stripe */
    public long stolenHits() {
        return stolenHits;
    }

    /**
     * Acquisitions served by an object that had already survived an aging cycle idle. Many victim
     * hits mean the pool holds objects longer than the load needs them.
     *
     * @return acquisitions served from the victim generation
     */
    public long victimHits() {
        return victimHits;
    }

    /** @return acquisitions served by any idle object */
    public long hits() {
        return privateHits + homeHits + stolenHits + victimHits;
    }

    /** @return acquisitions that found nothing idle and called the factory */
    public long misses() {
        return misses;
    }

    /**
     * Failures of the reset and destroy hooks. Each one is also logged at WARNING through
     * {@link System.Logger} under the name {@code io.github.stripedpool}.
     *
     * @return hook invocations that threw
     */
    public long hookFailures() {
        return hookFailures;
    }

    /** @return aging cycles run since the pool was built */
    public long agingCycles() {
        return agingCycles;
    }

    /** @return idle objects held when the snapshot was taken */
    public int idle() {
        return idle;
    }

    /**
     * Objects acquired and not yet released: {@code acquired() - released()}, and never less than
     * 0 (a snapshot taken while threads work may read it low, see the class comment).
     *
     * @return objects in use
     */
    public long inUse() {
        return Math.max(0, acquired() - released);
    }

    /** @return the cap on idle objects */
    public int maxIdle() {
        return maxIdle;
    }

    /** @return whether the pool was closed */
    public boolean closed() {
        return closed;
    }

    /**
     * Tracked objects that became garbage without being released, each reported as a
     * {@link LeakReport}. Always 0 when {@link LeakDetection leak detection} is disabled; under
     * {@link LeakDetection#SAMPLED} it counts only the sampled acquisitions, about one leak in N.
     * In an unbounded pool a leaked object stays counted in {@link #inUse()}: it was never
     * released. A bounded pool gives its capacity back and counts it as released and dropped.
     *
     * @return leaks reported since the pool was built
     */
    public long leaks() {
        return leaks;
    }

    /** Adds the leak count, kept outside the engine by the leak-detecting pool. */
    PoolStats withLeaks(long leaks) {
        this.leaks = leaks;
        return this;
    }

    /** @return hits divided by acquisitions, or 0 before the first acquisition */
    public double hitRate() {
        long a = acquired();
        return a == 0 ? 0.0 : (double) hits() / a;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "Pool '%s'%s: %d idle (max %d), %d in use | acquired %d, hit rate %.2f%% "
                        + "(private %d, home %d, stolen %d, victim %d, missed %d) | released %d | "
                        + "created %d, dropped %d | hook failures %d | aging cycles %d | leaks %d",
                name, closed ? " (closed)" : "", idle, maxIdle, inUse(), acquired(), hitRate() * 100,
                privateHits, homeHits, stolenHits, victimHits, misses, released, created, dropped,
                hookFailures, agingCycles, leaks);
    }
}
