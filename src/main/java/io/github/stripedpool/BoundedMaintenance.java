package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The background work of one {@link BoundedPool}, run by {@link MaintenanceClock}: idle and
 * lifetime eviction, reports of objects held too long ({@link BoundedHeldTooLong}), giving back
 * the capacity of leaked objects, and keeping minIdle objects ready; and, run by the
 * {@link AgingClock} after a collection that left the heap short, trimming to minIdle. No thread of its own, and no user code under a lock: destroy and factory calls happen
 * on entries this class owns (RESERVED), through the pool's own destroy and create paths.
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
final class BoundedMaintenance {
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

    private final BoundedPool<?> pool;
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
     * Serialises {@link #reclaimLeaked()} between a leak report and a maintenance run. Both are
     * jobs of the pool's lane, which runs one at a time, except a leak report that found no
     * worker: it then reclaims on the {@code striped-pool-leaks} thread itself.
     */
    private final ReentrantLock reclaimLock = new ReentrantLock();
    private volatile MaintenanceClock.Periodic scheduled;
    /** Heap fraction above which a collection trims ({@link HeapTrim}); 1 never. */
    private final double trimAboveHeap;
    /** Collections after which the pool trimmed; written by trims only, one at a time (the lane). */
    private volatile long trims;

    BoundedMaintenance(BoundedPool<?> pool, int minIdle, long maxIdleNanos, long maxLifetimeNanos,
            BoundedHeldTooLong heldTooLong, double trimAboveHeap) {
        this.pool = pool;
        this.trimAboveHeap = trimAboveHeap;
        this.heldTooLong = heldTooLong;
        this.minIdle = minIdle;
        this.maxIdleNanos = maxIdleNanos;
        this.maxLifetimeNanos = maxLifetimeNanos;
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

    /** Schedules the runs (also with minIdle alone: a failed refill is retried) and fills minIdle. */
    void start() {
        if (periodNanos > 0) {
            scheduled = MaintenanceClock.schedule(pool, periodNanos);
        }
        requestRefill();
    }

    void stop() {
        MaintenanceClock.Periodic f = scheduled;
        if (f != null) {
            f.cancel();
        }
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
        if (pool.isClosed()) {
            return;
        }
        Throwable fatal = null;
        final int ep = epoch + 1;
        epoch = ep;
        final long now = System.nanoTime();
        int idle = countIdle();
        for (BoundedEntry e : pool.table().array()) {
            int s = e.state();
            if (s == BoundedEntry.IDLE) {
                if (expired(e, now, ep, idle) && e.cas(BoundedEntry.IDLE, BoundedEntry.RESERVED)) {
                    if (expired(e, now, ep, idle)) { // as the owner: see the class comment
                        idle--;
                        fatal = Hooks.fatal(fatal, pool.hooks().destroyOwned(e, e.item));
                    } else {
                        pool.publish(e, e.item, e.stamp);
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
            heldTooLong.check(pool.table().array(), now); // reports after its scan, no lock held
        }
        reclaimLeaked();
        pool.threads().reapDead();
        runs = runs + 1;
        Hooks.rethrow(fatal);
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
    boolean trims() {
        return trimAboveHeap < HeapTrim.NEVER;
    }

    /** Collections after which the pool trimmed. */
    long trimCount() {
        return trims;
    }

    /**
     * After a garbage collection, on the pool's lane (so never during a run): if the heap is
     * fuller than the pool's threshold, destroys the idle objects beyond minIdle at once. Each is
     * claimed with an acquire's CAS (IDLE to RESERVED), so an object just handed out is never
     * destroyed; an idle count read before the loop may be high by the acquisitions since,
     * which takes the pool below minIdle until the next run refills it. No refill here: the
     * heap is short now. A destroy hook's {@link VirtualMachineError} is rethrown after the loop.
     */
    void trimIfHeapShort() {
        if (pool.isClosed() || HeapTrim.level(trimAboveHeap) == HeapTrim.NONE) {
            return;
        }
        Throwable fatal = null;
        int excess = countIdle() - minIdle;
        for (BoundedEntry e : pool.table().array()) {
            if (excess <= 0) {
                break;
            }
            if (e.state() == BoundedEntry.IDLE && e.cas(BoundedEntry.IDLE, BoundedEntry.RESERVED)) {
                excess--;
                fatal = Hooks.fatal(fatal, pool.hooks().destroyOwned(e, e.item));
            }
        }
        trims = trims + 1;
        Hooks.rethrow(fatal);
    }

    /** Asks for a refill to minIdle soon, as a job of the pool's lane (on a worker). */
    void requestRefill() {
        // Read before the CAS: acquirers call this, and a failing CAS still takes the line.
        if (minIdle > 0 && !refillPending.get() && !pool.isClosed()
                && refillPending.compareAndSet(false, true)) {
            MaintenanceClock.refillSoon(pool);
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
        for (int need = minIdle - countIdle(); need > 0 && !pool.isClosed() && pool.capacity().tryReserve(); need--) {
            BoundedEntry e = pool.table().claimFree();
            Object x;
            try {
                x = pool.capacity().make(e);
            } catch (ObjectCreationException t) {
                LOG.log(System.Logger.Level.WARNING, "pool '" + pool.name() + "': could not create an "
                        + "object to keep minIdle (" + minIdle + ") ready; retrying later", t);
                return;
            }
            pool.publish(e, x, epoch);
        }
    }

    int countIdle() {
        int idle = 0;
        for (BoundedEntry e : pool.table().array()) {
            if (e.state() == BoundedEntry.IDLE) {
                idle++;
            }
        }
        return idle;
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
            for (BoundedEntry e : pool.table().array()) {
                if (e.state() == BoundedEntry.BORROWED && reclaim(e)) {
                    n++;
                }
            }
        } finally {
            reclaimLock.unlock();
        }
        return n;
    }

    /**
     * Reclaims {@code e} if its object is garbage. Only reclaiming frees a borrowed entry whose
     * object is unreachable (nobody can release it), and reclaiming is serialised by
     * {@link #reclaimLock}; so a BORROWED state and a cleared reference read here belong to the
     * same borrowing and stay so until the CAS. A reference read from a later borrowing is not
     * cleared (its object is reachable), or that borrowing leaked too.
     */
    private boolean reclaim(BoundedEntry e) {
        BoundedEntry.ObjectRef r = e.ref;
        if (r == null || !r.refersTo(null) || !e.cas(BoundedEntry.BORROWED, BoundedEntry.RESERVED)) {
            return false;
        }
        pool.threads().add(Counts.RELEASED, 1);
        pool.threads().add(Counts.DROPPED, 1);
        e.item = null;
        BoundedHeldTooLong.forget(e);
        pool.capacity().free(e);
        LOG.log(System.Logger.Level.WARNING, "pool '" + pool.name() + "': a borrowed object was "
                + "garbage-collected without being released; its capacity was given back");
        return true;
    }
}
