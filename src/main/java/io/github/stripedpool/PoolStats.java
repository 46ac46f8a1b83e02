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
    private final long invalidated;
    private final long notRetained;
    private final long agingCycles;
    private final int idle;
    private final int idleCapacity;
    private final boolean closed;
    /** Set by {@link #withLeaks} before the snapshot leaves the pool; 0 without leak detection. */
    private long leaks;
    private int waitingNow;
    private long waits;
    private long timeouts;
    private long waitNanosTotal;
    private long waitNanosMax;
    private long creationsFailed;
    private int maxTotal;
    private long maintenanceRuns;
    /** Set by {@link #withHeldTooLong}; 0 unless the pool reports objects held too long. */
    private long heldTooLong;
    /** Set by {@link #withTrims}. */
    private long trims;
    /** Set by {@link #bounded}: only a bounded pool has waiting figures to show. */
    private boolean bounded;

    PoolStats(String name, long[] counts, long agingCycles, int idle, int idleCapacity, boolean closed) {
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
        this.invalidated = counts[Counts.INVALIDATED];
        this.notRetained = counts[Counts.NOT_RETAINED];
        this.agingCycles = agingCycles;
        // The pool never holds more than its capacity idle; a walk that met an object twice as
        // it moved between tiers may count more (see idle()).
        this.idle = Math.min(idle, idleCapacity);
        this.idleCapacity = idleCapacity;
        this.closed = closed;
    }

    /**
     * The pool's name.
     *
     * @return the pool's name
     */
    public String name() {
        return name;
    }

    /**
     * Objects made by the factory.
     *
     * @return objects made by the factory
     */
    public long created() {
        return created;
    }

    /**
     * Objects the pool let go of and passed to the destroy hook: released while {@code maxIdle}
     * were idle, aged out, failed their reset, were {@linkplain #invalidated() invalidated} or
     * {@linkplain #notRetained() not retained}, or were idle or returned after close.
     *
     * @return objects dropped
     */
    public long dropped() {
        return dropped;
    }

    /**
     * Objects given back with {@link Pool#invalidate(Object)}: destroyed instead of pooled.
     * Each is counted in {@link #released()} and {@link #dropped()} as well. A rising count says
     * that the objects break while in use (a connection closed by the other side, say).
     *
     * @return objects invalidated
     */
    public long invalidated() {
        return invalidated;
    }

    /**
     * Released objects that the {@link PoolBuilder#retainIf(java.util.function.Predicate) retain
     * predicate} refused, or on which it threw: destroyed instead of pooled. Each is counted in
     * {@link #released()} and {@link #dropped()} as well. Compared with {@link #released()} it
     * tells how often objects outgrow what the pool keeps.
     *
     * @return released objects the retain predicate refused
     */
    public long notRetained() {
        return notRetained;
    }

    /**
     * Successful acquisitions: {@code hits() + misses()}.
     *
     * @return successful acquisitions: {@code hits() + misses()}
     */
    public long acquired() {
        return hits() + misses;
    }

    /**
     * Calls to release (including leases closed).
     *
     * @return calls to release (including leases closed)
     */
    public long released() {
        return released;
    }

    /**
     * Acquisitions served from the calling thread's private slot.
     *
     * @return acquisitions served from the calling thread's private slot
     */
    public long privateHits() {
        return privateHits;
    }

    /**
     * Acquisitions served from the calling thread's home stripe.
     *
     * @return acquisitions served from the calling thread's home stripe
     */
    public long homeHits() {
        return homeHits;
    }

    /**
     * Acquisitions served by stealing from another stripe.
     *
     * @return acquisitions served by stealing from another stripe
     */
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

    /**
     * Acquisitions served by any idle object.
     *
     * @return acquisitions served by any idle object
     */
    public long hits() {
        return privateHits + homeHits + stolenHits + victimHits;
    }

    /**
     * Acquisitions that called the factory: they found nothing idle, or (a bounded pool) replaced
     * an object the validate hook refused with a new one.
     *
     * @return acquisitions that called the factory
     */
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

    /**
     * Maintenance runs of a bounded pool since it was built: the background runs that evict
     * objects idle longer than {@code maxIdleTime} or older than {@code maxLifetime}, and refill
     * {@code minIdle}. Always 0 in an unbounded pool, which has {@link #agingCycles()} instead.
     *
     * @return maintenance runs since the pool was built
     */
    public long maintenanceRuns() {
        return maintenanceRuns;
    }

    /**
     * Aging cycles of an unbounded pool since it was built: the cycles, at most one per
     * {@code agingInterval} and each after a garbage collection, that turn idle objects into
     * victims and drop those idle through a whole cycle. Always 0 in a bounded pool, which
     * shrinks by time instead ({@link #maintenanceRuns()}).
     *
     * @return aging cycles since the pool was built
     */
    public long agingCycles() {
        return agingCycles;
    }

    /**
     * Idle objects held when the snapshot was taken. Exact when the pool is quiescent; a snapshot
     * taken while threads work counts the objects tier by tier as they move, so it may miss one
     * that moved behind it or meet one twice, and it never reports more than {@code maxIdle}
     * ({@code maxTotal} for a bounded pool), which the pool never exceeds.
     *
     * @return idle objects held when the snapshot was taken
     */
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

    /**
     * The most objects the pool keeps idle: {@link PoolBuilder#maxIdle(int) maxIdle} in an
     * unbounded pool; {@link PoolBuilder#maxTotal(int) maxTotal} in a bounded one, which may keep
     * every object it has idle.
     *
     * @return the cap on idle objects
     */
    public int idleCapacity() {
        return idleCapacity;
    }

    /**
     * The cap on objects that exist at once, idle and in use, of a bounded pool
     * ({@link PoolBuilder#maxTotal(int)}); 0 for an unbounded pool, which has none.
     *
     * @return the bounded pool's cap, or 0
     */
    public int maxTotal() {
        return maxTotal;
    }

    /**
     * Whether the pool was closed when the snapshot was taken; the same as
     * {@link Pool#isClosed()} at that moment.
     *
     * @return whether the pool was closed
     */
    public boolean isClosed() {
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

    /**
     * Borrowings of a bounded pool built with {@link PoolBuilder#reportHeldLongerThan} that
     * were reported as held too long ({@link LeakReport.Kind#HELD_TOO_LONG}), each counted
     * once, whether or not the object came back later. Always 0 otherwise.
     *
     * @return borrowings reported as held too long since the pool was built
     */
    public long heldTooLong() {
        return heldTooLong;
    }

    PoolStats withHeldTooLong(long heldTooLong) {
        this.heldTooLong = heldTooLong;
        return this;
    }

    /**
     * Garbage collections after which the heap was fuller than the pool's
     * {@link PoolBuilder#trimAboveHeap(double) trimAboveHeap} and the pool trimmed: gave its idle
     * objects back at once (or, at a first soft trim, marked them to go at the next collection;
     * a trim may find nothing to give back). A figure that keeps growing means the heap is short: the pool keeps little or
     * nothing idle then, and each acquire that finds nothing creates.
     *
     * @return collections after which the pool trimmed, since it was built
     */
    public long trims() {
        return trims;
    }

    PoolStats withTrims(long trims) {
        this.trims = trims;
        return this;
    }

    /**
     * Threads blocked in {@code acquire} of a bounded pool when the snapshot was taken, waiting
     * for an object to be released or capacity to be freed. Always 0 in an unbounded pool,
     * which never waits. A figure that stays above 0 means the pool is too small for its load,
     * or objects are held too long.
     *
     * @return threads waiting now
     */
    public int waitingNow() {
        return waitingNow;
    }

    /**
     * Acquisitions of a bounded pool that found nothing idle and no capacity left, and so
     * waited (however the wait ended: served, timed out, interrupted, closed), the yields of a
     * platform thread before it queues included; an acquire whose timeout was zero, or used up
     * before it began to wait, did not wait. Always 0 in an unbounded pool.
     *
     * @return acquisitions that waited, since the pool was built
     */
    public long waits() {
        return waits;
    }

    /**
     * Acquisitions of a bounded pool that ended with a {@link PoolTimeoutException}, with or
     * without waiting. Always 0 in an unbounded pool.
     *
     * @return acquisitions that timed out, since the pool was built
     */
    public long timeouts() {
        return timeouts;
    }

    /**
     * Time spent waiting by all the acquisitions counted in {@link #waits()}, added up;
     * divided by {@code waits()} it is the mean wait. Always 0 in an unbounded pool.
     *
     * @return total wait time in nanoseconds
     */
    public long waitNanosTotal() {
        return waitNanosTotal;
    }

    /**
     * The longest single wait among the acquisitions counted in {@link #waits()}. Always 0 in
     * an unbounded pool.
     *
     * @return the longest wait in nanoseconds, since the pool was built
     */
    public long waitNanosMax() {
        return waitNanosMax;
    }

    /**
     * Calls of the factory by a bounded pool that threw or returned null: at an acquire (which
     * then threw {@link ObjectCreationException} or the factory's {@code Error}) or while the
     * pool was refilling to minIdle in the background. The capacity each call was to use went
     * back to the pool. Always 0 in an unbounded pool, whose factory failures reach the caller
     * of {@code acquire} and are not counted.
     *
     * @return failed factory calls, since the pool was built
     */
    public long creationsFailed() {
        return creationsFailed;
    }

    /**
     * Adds the figures only a bounded pool has.
     *
     * @param w threads waiting now, waits, timeouts, total and longest wait in nanoseconds
     * @param creationsFailed failed factory calls
     * @param maxTotal the cap
     * @param maintenanceRuns maintenance runs so far
     */
    PoolStats bounded(long[] w, long creationsFailed, int maxTotal, long maintenanceRuns) {
        this.maxTotal = maxTotal;
        this.maintenanceRuns = maintenanceRuns;
        this.waitingNow = (int) w[0];
        this.waits = w[1];
        this.timeouts = w[2];
        this.waitNanosTotal = w[3];
        this.waitNanosMax = w[4];
        this.creationsFailed = creationsFailed;
        this.bounded = true;
        return this;
    }

    /**
     * Hits divided by acquisitions, or 0 before the first acquisition.
     *
     * @return hits divided by acquisitions, or 0 before the first acquisition
     */
    public double hitRate() {
        long a = acquired();
        return a == 0 ? 0.0 : (double) hits() / a;
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT,
                "Pool '%s'%s: %d idle (max %d), %d in use | acquired %d, hit rate %.2f%% "
                        + "(private %d, home %d, stolen %d, victim %d, missed %d) | released %d | "
                        + "created %d, dropped %d%s | hook failures %d | %s | trims %d | leaks %d",
                name, closed ? " (closed)" : "", idle, idleCapacity, inUse(), acquired(),
                hitRate() * 100, privateHits, homeHits, stolenHits, victimHits, misses, released,
                created, dropped, invalidated == 0 && notRetained == 0 ? ""
                        : " (invalidated " + invalidated + ", not retained " + notRetained + ")",
                hookFailures, !bounded ? "aging cycles " + agingCycles
                        : String.format(java.util.Locale.ROOT, "maxTotal %d, maintenance runs %d | "
                        + "waiting %d, waits %d, timeouts %d, longest wait %.3f ms, creations failed %d, "
                        + "held too long %d",
                        maxTotal, maintenanceRuns, waitingNow, waits, timeouts, waitNanosMax / 1e6,
                        creationsFailed, heldTooLong),
                trims, leaks);
    }
}
