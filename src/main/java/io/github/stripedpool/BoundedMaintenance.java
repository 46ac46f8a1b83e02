package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The background work of one {@link BoundedPool}, run by {@link MaintenanceClock}: idle and
 * lifetime eviction, reports of objects held too long ({@link BoundedHeldTooLong}), giving back
 * the capacity of leaked objects, and keeping minIdle objects ready; and, run by the
 * {@link AgingClock} after a collection, trimming to minIdle if the collection left the heap
 * short, and giving back the capacity of leaked objects if every place is taken. No
 * thread of its own: every job runs on a worker, through the lane this object is the key of
 * (so no two of them overlap), and the clocks hold it weakly, so a pool dropped unclosed stops
 * being maintained. No user code under a lock: destroy and factory calls happen on entries this
 * class owns (RESERVED), through the transitions of {@link BoundedStates}, as acquire and
 * release make them. It holds no reference to the pool.
 *
 * <p>Idle time without a clock on the hot path. Each run increments {@link #epoch} (written by
 * runs only, which never overlap for one pool); a release stamps its entry with the epoch, so an
 * entry idle for more than {@link #idleEpochs} epochs has been idle longer than maxIdleTime, and
 * at most one period longer. Lifetimes compare elapsed nanoseconds with the limit, never
 * {@code created + limit}, so a limit of Long.MAX_VALUE ("forever") cannot overflow, and
 * {@link #idleEpochs} is rounded up by division, not by adding first, for the same reason.
 *
 * <p>Races. Eviction claims an idle entry with the same CAS as an acquire (IDLE to RESERVED), so
 * it can never destroy an object just handed out, nor hand out one it destroys; having won, it
 * checks again as the owner, since the entry may have been borrowed and released in between.
 * Leak reclaiming is serialised by {@link #reclaimLock} (a leak report and a run may both
 * reclaim); see {@link #reclaim}. {@link #refillPending} makes at most one requested refill wait
 * at a time.
 */
final class BoundedMaintenance implements AfterCollection {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    /** Shortest maintenance period: eviction precision below 10 ms is not worth the wake-ups. */
    static final long MIN_PERIOD_NANOS = 10_000_000L;
    /** Longest maintenance period, so that lifetimes of hours are still checked twice a minute. */
    static final long MAX_PERIOD_NANOS = 30_000_000_000L;
    /** Maintenance runs this many times per maxIdleTime (or maxLifetime): evictions are late by at most a quarter. */
    static final int RUNS_PER_LIMIT = 4;
    /**
     * Maintenance period of a pool with minIdle but neither maxIdleTime nor maxLifetime: how soon
     * a factory that failed is tried again.
     */
    static final long REFILL_PERIOD_NANOS = 1_000_000_000L;

    private final BoundedStates states;
    private final BoundedThreads threads;
    /** Null unless the pool reports objects held too long. */
    private final BoundedHeldTooLong heldTooLong;
    private final int minIdle;
    final long maxIdleNanos;
    final long maxLifetimeNanos;
    /** Nanoseconds between runs; 0: the pool needs no runs. */
    final long periodNanos;
    private final int idleEpochs;

    /** Written by runs only. */
    private volatile int epoch;
    private volatile long runs;
    private final AtomicBoolean refillPending = new AtomicBoolean();
    /**
     * Serialises {@link #reclaimLeaked()} between a leak report and a maintenance run: a run is
     * a job of this object's lane, a leak report one of its leak detector's lane (or, if no
     * worker could be had, runs on the {@code striped-pool-leaks} thread itself), so they may
     * overlap.
     */
    private final ReentrantLock reclaimLock = new ReentrantLock();
    private volatile MaintenanceClock.Periodic scheduled;
    /** Least time between two scans of {@link #reclaimIfExhausted}, so a pool at its cap under load is not scanned at every collection. */
    static final long EXHAUSTED_SCAN_NANOS = 100_000_000L;
    /** When {@link #reclaimIfExhausted} last scanned; the lane's alone (one job at a time). */
    private long lastExhaustedScan = System.nanoTime() - EXHAUSTED_SCAN_NANOS;
    /** Whether a collection trims ({@link HeapTrim}, {@link TrimGate}); used by trims only, on the lane. */
    private final TrimGate trimGate;
    /** Collections after which the pool trimmed; written by trims only, one at a time (the lane). */
    private volatile long trims;

    BoundedMaintenance(PoolSettings<?> settings, BoundedStates states, BoundedThreads threads,
            BoundedHeldTooLong heldTooLong) {
        this.states = states;
        this.threads = threads;
        this.trimGate = new TrimGate(settings.trimAboveHeap);
        this.heldTooLong = heldTooLong;
        this.minIdle = settings.minIdle;
        this.maxIdleNanos = settings.maxIdleTimeNanos;
        this.maxLifetimeNanos = settings.maxLifetimeNanos;
        long limit = smallestSet(smallestSet(maxIdleNanos, maxLifetimeNanos),
                heldTooLong != null ? heldTooLong.thresholdNanos : 0L);
        this.periodNanos = limit != 0
                ? Math.max(MIN_PERIOD_NANOS, Math.min(MAX_PERIOD_NANOS, limit / RUNS_PER_LIMIT))
                : minIdle > 0 ? REFILL_PERIOD_NANOS : 0L;
        this.idleEpochs = maxIdleNanos == 0 ? Integer.MAX_VALUE : (int) Math.min(Integer.MAX_VALUE - 1,
                maxIdleNanos / periodNanos + (maxIdleNanos % periodNanos == 0 ? 0 : 1));
    }

    /** The smaller of two limits, where 0 means "not set". */
    private static long smallestSet(long a, long b) {
        return a == 0 ? b : b == 0 ? a : Math.min(a, b);
    }

    /**
     * Schedules the runs (also with minIdle alone: a failed refill is retried), registers with
     * the aging clock (to trim, if the pool trims, and to give back the places of leaked objects
     * when it has none left: {@link #reclaimIfExhausted}), and fills minIdle.
     *
     * @throws OutOfMemoryError if no clock thread could be started; nothing is then scheduled
     */
    void start() {
        if (periodNanos > 0) {
            scheduled = MaintenanceClock.schedule(this, periodNanos);
        }
        try {
            AgingClock.register(this);
        } catch (RuntimeException | Error e) {
            stop();
            throw e;
        }
        requestRefill();
    }

    /** No run, refill or trim is started after this; one under way finishes. */
    void stop() {
        MaintenanceClock.Periodic f = scheduled;
        if (f != null) {
            f.cancel();
        }
        AgingClock.unregister(this);
    }

    @Override
    public String name() {
        return states.name;
    }

    /** The current epoch, which a release stamps on its entry. */
    int epoch() {
        return epoch;
    }

    long runs() {
        return runs;
    }

    /**
     * One run. A destroy hook's {@link VirtualMachineError} does not stop it: every expired
     * object is still destroyed, then the first such error is rethrown.
     */
    void run() {
        if (states.isClosed()) {
            return;
        }
        Throwable fatal = null;
        final int ep = epoch + 1;
        epoch = ep;
        final long now = System.nanoTime();
        int idle = states.countIdle();
        for (BoundedEntry e : states.table.array()) {
            int s = e.state();
            if (s == BoundedEntry.IDLE) {
                if (expired(e, now, ep, idle) && BoundedStates.idleToReserved(e)) {
                    if (expired(e, now, ep, idle)) { // as the owner: see the class comment
                        idle--;
                        fatal = UserHooks.fatal(fatal, states.destroy(e, e.item));
                    } else {
                        states.publish(e, e.item, e.stamp);
                    }
                }
            } else if (s == BoundedEntry.BORROWED && maxLifetimeNanos > 0) {
                BoundedEntry.ObjectRef r = e.ref;
                // The flag is on the object's own reference, so an entry that moved on to a new
                // object since the state was read cannot be marked by mistake.
                if (r != null && now - r.createdNanos >= maxLifetimeNanos) {
                    r.expired = true;
                }
            }
        }
        if (heldTooLong != null) {
            heldTooLong.check(states.table.array(), now); // reports after its scan, no lock held
        }
        reclaimLeaked();
        threads.reapDead();
        runs = runs + 1;
        UserHooks.rethrowVmError(fatal);
        refill();
    }

    private boolean expired(BoundedEntry e, long now, int ep, int idle) {
        BoundedEntry.ObjectRef r = e.ref;
        if (r == null) {
            return false;
        }
        if (maxLifetimeNanos > 0 && now - r.createdNanos >= maxLifetimeNanos) {
            return true;
        }
        return maxIdleNanos > 0 && idle > minIdle && ep - e.stamp > idleEpochs;
    }

    /** Whether the pool trims when the heap is short: then the {@link AgingClock} tells it of collections. */
    boolean trimsUnderPressure() {
        return trimGate.trims();
    }

    /** Collections after which the pool trimmed. */
    long trimCount() {
        return trims;
    }

    /** After a garbage collection, called by the {@link AgingClock}, on the pool's lane. */
    @Override
    public void onGarbageCollection(long now) {
        if (trimsUnderPressure()) {
            trimIfHeapShort(now);
        }
        reclaimIfExhausted(now);
    }

    /**
     * After a collection, if every place is taken: gives back the places of borrowed objects the
     * collection found unreachable ({@link #reclaimLeaked()}), at most once per
     * {@link #EXHAUSTED_SCAN_NANOS}. Without it a pool with no time limits (so no runs) would
     * reclaim only when a tracked leak is reported: never with leak detection off, and, under
     * SAMPLED, not for the leaks that were not sampled, so a small pool whose every object
     * leaked unsampled would stay exhausted for good. Only when exhausted, since that is when a
     * leaked place is missed, and the scan reads every entry; only after a collection, since that
     * is when a leaked object's weak reference is cleared.
     */
    void reclaimIfExhausted(long now) {
        if (states.live() < states.maxTotal || states.isClosed() || now - lastExhaustedScan < EXHAUSTED_SCAN_NANOS) {
            return;
        }
        lastExhaustedScan = now;
        reclaimLeaked();
    }

    /** The trimming state, for a test's failure report. */
    @Override
    public String describeAging() {
        return "trims " + trims;
    }

    /**
     * After a garbage collection, on the pool's lane (so never during a run): if the heap is
     * fuller than the pool's threshold and {@link #trimGate} does not hold the trim back,
     * destroys the idle objects beyond minIdle at once. Each is
     * claimed with an acquire's CAS (IDLE to RESERVED), so an object just handed out is never
     * destroyed; an idle count read before the loop may be high by the acquisitions since,
     * which takes the pool below minIdle until the next run refills it. No refill here: the
     * heap is short now. A destroy hook's {@link VirtualMachineError} is rethrown after the loop.
     */
    void trimIfHeapShort(long now) {
        if (states.isClosed() || trimGate.level(now) == HeapTrim.NONE) {
            return;
        }
        Throwable fatal = null;
        int excess = states.countIdle() - minIdle;
        int destroyed = 0;
        for (BoundedEntry e : states.table.array()) {
            if (excess <= 0) {
                break;
            }
            if (BoundedStates.idleToReserved(e)) {
                excess--;
                destroyed++;
                fatal = UserHooks.fatal(fatal, states.destroy(e, e.item));
            }
        }
        trims = trims + 1;
        trimGate.trimmed(destroyed, now);
        UserHooks.rethrowVmError(fatal);
    }

    /** Asks for a refill to minIdle soon, as a job of the pool's lane (on a worker). */
    void requestRefill() {
        // Read before the CAS: acquirers call this, and a failing CAS still takes the line.
        if (minIdle > 0 && !refillPending.get() && !states.isClosed()
                && refillPending.compareAndSet(false, true)) {
            MaintenanceClock.refillSoon(this);
        }
    }

    /** A refill asked for by {@link #requestRefill()}, on the pool's lane. */
    void refillRequested() {
        refillPending.set(false);
        refill();
    }

    /**
     * Creates objects until minIdle are idle or maxTotal are live. A waiter, if one appears, gets
     * the new object directly. A factory failure ends this refill; the next run, destroy, or
     * acquisition that finds nothing idle tries again.
     */
    void refill() {
        for (int need = minIdle - states.countIdle(); need > 0 && !states.isClosed() && states.tryReserve(); need--) {
            BoundedEntry e = states.claimFree(null);
            Object x;
            try {
                x = states.make(e);
            } catch (ObjectCreationException t) {
                LOG.log(System.Logger.Level.WARNING, "pool '" + states.name + "': could not create an "
                        + "object to keep minIdle (" + minIdle + ") ready; retrying later", t);
                return;
            }
            states.publish(e, x, epoch);
        }
    }

    /**
     * Gives back the capacity of every borrowed object that became garbage without being
     * released. Such an entry holds no strong reference to its object (see {@link BoundedEntry}),
     * so its weak reference is cleared once the object is unreachable, which is before any
     * phantom reference to it (a leak tracker's) is enqueued. The destroy hook cannot run: the
     * object is gone. The object counts as released and dropped, so the accounting stays
     * balanced. Runs after each leak report of the pool and at each maintenance run.
     *
     * @return the number of entries reclaimed
     */
    int reclaimLeaked() {
        int n = 0;
        reclaimLock.lock();
        try {
            for (BoundedEntry e : states.table.array()) {
                if (e.state() == BoundedEntry.BORROWED && states.reclaim(e)) {
                    n++;
                }
            }
        } finally {
            reclaimLock.unlock();
        }
        if (n > 0) {
            requestRefill();
            LOG.log(System.Logger.Level.WARNING, "pool '" + states.name + "': " + n + " borrowed "
                    + "object(s) garbage-collected without being released; their capacity was given back");
        }
        return n;
    }
}
