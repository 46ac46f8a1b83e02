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
 * <p>Idle time without a clock on the hot path. A run may advance {@link #epoch} (written by
 * runs only, which never overlap for one pool); a release stamps its entry with the epoch, so an
 * entry whose stamp is more than {@link #idleEpochs} epochs old has been idle longer than
 * maxIdleTime, and at most about a period longer. That holds because two advances are always at
 * least a period apart: a run advances only if {@link #advancedNanos}, the time read just after
 * the last advance, is a period behind the time it reads, and then asks its clock to fire the
 * next run a period later ({@link MaintenanceClock.Periodic#ranAt}), so a run that waited on the
 * lane (behind a slow refill, say) pushes the next one back instead of being followed by it a
 * moment later. A release that read epoch e did so before advance e + 1 was written, hence
 * before {@code advancedNanos} of that advance; the run that sees the entry more than idleEpochs
 * old starts at least idleEpochs periods after that, and idleEpochs periods are at least
 * maxIdleTime: never early. Epochs and stamps are longs, so no number of runs wraps them; a
 * maxIdleTime too long to count in nanoseconds (saturated to Long.MAX_VALUE) means no idle
 * eviction at all. Lifetimes compare elapsed nanoseconds with the limit, never
 * {@code created + limit}, so a limit of Long.MAX_VALUE ("forever") cannot overflow, and
 * {@link #idleEpochs} is rounded up by division, not by adding first, for the same reason. A
 * release reads the clock itself, in a pool with a maxLifetime only, to destroy an object past
 * it ({@link BoundedPool}).
 *
 * <p>Eviction and minIdle. Idle eviction ({@link #evict}) and a trim under heap pressure
 * ({@link #trimIfHeapShort}) count the idle entries after claiming their candidates: every
 * candidate is claimed first, with no user code run meanwhile, then the idle entries left are
 * counted once and as many candidates as minIdle needs are published back; only then do
 * destroy hooks run, on claimed entries, so acquisitions during a hook take objects eviction
 * has already decided to keep, and no idle object is destroyed on the strength of a
 * count taken before them. Without minIdle there is nothing to keep and nothing to count, and
 * each candidate is destroyed as soon as it is claimed: a destroy hook that acquires from its own
 * pool then finds the candidates not claimed yet still idle, where claimed ones would have held
 * every unit of capacity of a pool at its cap until the hook's own wait timed out. With minIdle,
 * such a hook can still wait for the run's claimed objects (documented in {@link Pool}). An idle count before the claims only caps how many are claimed, so
 * that a pool sitting at minIdle is not claimed and put back at every run. So a run walks the
 * table at most three times (two counts, the claims), whatever it evicts. The candidates are held
 * in {@link #claimed}, grown before any claim so that an allocation failure leaves no entry
 * RESERVED.
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
    /** {@link #idleEpochs} of a pool without idle eviction. */
    static final long NO_IDLE_EVICTION = Long.MAX_VALUE;

    /** Whether eviction should take an idle object ({@link #expiry}). */
    private static final int LIVES = 0;
    private static final int IDLE_TOO_LONG = 1;
    private static final int PAST_LIFETIME = 2;

    private final BoundedStates states;
    private final BoundedThreads threads;
    /** Null unless the pool reports objects held too long. */
    private final BoundedHeldTooLong heldTooLong;
    private final int minIdle;
    final long maxIdleNanos;
    final long maxLifetimeNanos;
    /** Nanoseconds between runs; 0: the pool needs no runs. */
    final long periodNanos;
    /** Epochs an entry must be idle beyond to be evicted; {@link #NO_IDLE_EVICTION}: never. */
    private final long idleEpochs;

    /** Written by runs only. */
    private volatile long epoch;
    /** {@code System.nanoTime()} just after {@link #epoch} last advanced (or at construction); runs only. */
    private long advancedNanos;
    /**
     * The entries a run has claimed (IDLE to RESERVED) for eviction: those idle too long from
     * the front, those past maxLifetime from the back. Runs only; at least as long as the table
     * before a run claims anything.
     */
    private BoundedEntry[] claimed = new BoundedEntry[0];
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
    /** Collections the aging clock told this pool of; written on the lane only. For tests. */
    private volatile long collectionsHeard;
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
        // Long.MAX_VALUE is what SettingChecks.nanos saturates "forever" to: not a time to count.
        this.idleEpochs = maxIdleNanos == 0 || maxIdleNanos == Long.MAX_VALUE ? NO_IDLE_EVICTION
                : maxIdleNanos / periodNanos + (maxIdleNanos % periodNanos == 0 ? 0 : 1);
        this.advancedNanos = System.nanoTime(); // before any release can read epoch 0
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
    long epoch() {
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
        long now = System.nanoTime();
        if (now - advancedNanos >= periodNanos) { // see the class comment
            epoch = epoch + 1;
            now = System.nanoTime(); // after the write: a release that read the old epoch came before
            advancedNanos = now;
            MaintenanceClock.Periodic f = scheduled;
            if (f != null) {
                f.ranAt(now);
            }
        }
        Throwable fatal = evict(now);
        if (heldTooLong != null) {
            heldTooLong.check(states.table.array(), now); // reports after its scan, no lock held
        }
        reclaimLeaked();
        threads.reapDead();
        runs = runs + 1;
        UserHooks.rethrowVmError(fatal);
        refill();
    }

    /**
     * Destroys the idle objects past maxLifetime, and those idle longer than maxIdleTime as long
     * as minIdle stay idle, in three steps (see the class comment): claims them, running no
     * user code; counts the idle entries left once and publishes back the candidates minIdle
     * needs; destroys the rest. Returns the first {@link VirtualMachineError} of a destroy hook.
     */
    private Throwable evict(long now) {
        final BoundedEntry[] es = states.table.array();
        final long ep = epoch;
        // Idle-time candidates beyond this many would only be published back: an idle count from
        // before the claims, so that a pool sitting at minIdle is not claimed and republished at
        // every run. The count after the claims, not this, decides what is destroyed.
        int mayEvictIdle = idleEpochs == NO_IDLE_EVICTION ? 0
                : minIdle == 0 ? Integer.MAX_VALUE : states.countIdle() - minIdle;
        if (mayEvictIdle <= 0 && maxLifetimeNanos == 0) {
            return null;
        }
        if (claimed.length < es.length) {
            claimed = new BoundedEntry[es.length]; // before any claim, see the class comment
        }
        final BoundedEntry[] c = claimed;
        Throwable fatal = null;
        int idleEnd = 0;
        int lifeStart = c.length;
        for (BoundedEntry e : es) {
            int why = e.state() == BoundedEntry.IDLE ? expiry(e, now, ep, mayEvictIdle > idleEnd) : LIVES;
            if (why != LIVES && BoundedStates.idleToReserved(e)) {
                why = expiry(e, now, ep, mayEvictIdle > idleEnd); // as the owner: see the class comment
                if (why != LIVES && minIdle == 0) {
                    // Nothing to keep, so nothing to count: destroyed at once (see the class comment).
                    fatal = UserHooks.fatal(fatal, states.destroy(e, e.item));
                } else if (why == IDLE_TOO_LONG) {
                    c[idleEnd++] = e;
                } else if (why == PAST_LIFETIME) {
                    c[--lifeStart] = e;
                } else {
                    fatal = republish(e, fatal);
                }
            }
        }
        // One count, after the claims: what acquisitions took before it is seen, and what they
        // take after it takes objects that are kept.
        fatal = keepOrDestroy(c, idleEnd, keepFor(idleEnd), fatal);
        for (int i = lifeStart; i < c.length; i++) {
            fatal = destroyClaimed(c, i, fatal);
        }
        return fatal;
    }

    /**
     * Of {@code n} entries claimed for eviction or a trim, how many minIdle needs back: counted
     * once, after the claims (see the class comment). 0 without minIdle: no count at all.
     */
    private int keepFor(int n) {
        return n == 0 || minIdle == 0 ? 0 : Math.max(0, Math.min(n, minIdle - states.countIdle()));
    }

    /** Publishes back the first {@code keep} of the {@code n} claimed entries of {@code c}, destroys the rest. */
    private Throwable keepOrDestroy(BoundedEntry[] c, int n, int keep, Throwable fatal) {
        for (int i = 0; i < keep; i++) {
            fatal = republish(c[i], fatal);
            c[i] = null;
        }
        for (int i = keep; i < n; i++) {
            fatal = destroyClaimed(c, i, fatal);
        }
        return fatal;
    }

    /**
     * Publishes back a claimed entry with its object and stamp. Only a destroy hook can make
     * that throw (the pool closed meanwhile, so the publish destroys the object): its
     * {@link VirtualMachineError} is kept for the end of the run, so that every claimed entry is
     * still published or destroyed.
     */
    private Throwable republish(BoundedEntry e, Throwable fatal) {
        try {
            states.publish(e, e.item, e.stamp);
            return fatal;
        } catch (VirtualMachineError t) {
            return UserHooks.fatal(fatal, t);
        }
    }

    private Throwable destroyClaimed(BoundedEntry[] c, int i, Throwable fatal) {
        BoundedEntry e = c[i];
        c[i] = null; // the array outlives the run: it holds no entry between runs
        return UserHooks.fatal(fatal, states.destroy(e, e.item));
    }

    /**
     * Why the object of the idle entry {@code e} should go: {@link #PAST_LIFETIME}, else
     * {@link #IDLE_TOO_LONG} if {@code idleMayGo}, else {@link #LIVES}.
     */
    private int expiry(BoundedEntry e, long now, long ep, boolean idleMayGo) {
        BoundedEntry.ObjectRef r = e.ref;
        if (r == null) {
            return LIVES;
        }
        if (maxLifetimeNanos > 0 && now - r.createdNanos >= maxLifetimeNanos) {
            return PAST_LIFETIME;
        }
        return idleMayGo && idleEpochs != NO_IDLE_EVICTION && ep - e.stamp > idleEpochs
                ? IDLE_TOO_LONG : LIVES;
    }

    /** Whether the pool trims when the heap is short: then the {@link AgingClock} tells it of collections. */
    boolean trimsUnderPressure() {
        return trimGate.trims();
    }

    /** Collections the aging clock told this pool of, so far; for tests. */
    long collectionsHeard() {
        return collectionsHeard;
    }

    /** Collections after which the pool trimmed. */
    long trimCount() {
        return trims;
    }

    /** After a garbage collection, called by the {@link AgingClock}, on the pool's lane. */
    @Override
    public void onGarbageCollection(long now) {
        collectionsHeard = collectionsHeard + 1;
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
     * destroys the idle objects beyond minIdle at once. In the steps of idle eviction (see the
     * class comment): claims up to the excess an idle count shows, each with an acquire's CAS
     * (IDLE to RESERVED, so an object just handed out is never destroyed), running no user
     * code; counts the idle entries left once and publishes back what minIdle needs; only then
     * destroys the rest. So acquisitions during a destroy hook take objects the trim keeps, and
     * the trim never destroys the idle objects minIdle keeps. No refill here: the heap is short
     * now. A destroy hook's {@link VirtualMachineError} is rethrown once all are done.
     */
    void trimIfHeapShort(long now) {
        if (states.isClosed() || trimGate.level(now) == HeapTrim.NONE) {
            return;
        }
        final BoundedEntry[] es = states.table.array();
        int excess = states.countIdle() - minIdle;
        Throwable fatal = null;
        int n = 0;
        int keep = 0;
        if (minIdle == 0) {
            // Nothing to keep, so nothing to count: each destroyed at once (see the class comment).
            for (int i = 0; i < es.length && n < excess; i++) {
                BoundedEntry e = es[i];
                if (BoundedStates.idleToReserved(e)) {
                    n++;
                    fatal = UserHooks.fatal(fatal, states.destroy(e, e.item));
                }
            }
        } else {
            if (excess > 0 && claimed.length < es.length) {
                claimed = new BoundedEntry[es.length]; // before any claim, see the class comment
            }
            final BoundedEntry[] c = claimed;
            for (int i = 0; i < es.length && n < excess; i++) {
                if (BoundedStates.idleToReserved(es[i])) {
                    c[n++] = es[i];
                }
            }
            keep = keepFor(n);
            fatal = keepOrDestroy(c, n, keep, fatal);
        }
        trims = trims + 1;
        trimGate.trimmed(n - keep, now, false); // every idle object beyond minIdle went
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
        StackHeadroom.ensure(); // no overflow while it is held
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
