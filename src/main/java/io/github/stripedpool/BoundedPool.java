package io.github.stripedpool;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounded pool: at most {@code maxTotal} live objects, acquirers wait (with a timeout) when
 * all are in use, objects are validated on acquire, evicted when idle too long or too old.
 *
 * <p>Invariants, and who keeps each:
 * <ul>
 *   <li><b>Exclusivity, capacity, no lost object.</b> Every entry's state changes only through
 *       {@link BoundedStates}, the one owner of the state machine: an object goes to exactly one
 *       taker, {@code live <= maxTotal} always, every failure gives its capacity back, an
 *       object published while the pool closes is destroyed exactly once. Its class comment
 *       states the states, the transitions and both halves of every handshake.</li>
 *   <li><b>No lost wake-up, a bound on waiting.</b> A waiter queues, then looks again
 *       ({@link BoundedWaiting}); a release that sees a waiter wakes the oldest to compete for
 *       its object (barging: the releaser may take it straight back), unless the queue is
 *       starving, in which case the entry, still BORROWED, goes to the oldest waiter
 *       ({@link BoundedWaitQueue}); freed capacity always goes to the oldest waiter, as a permit
 *       to create.</li>
 *   <li><b>Reset before reuse; validation before hand-out.</b> {@link #release} runs the reset
 *       hook while the entry is RESERVED by the releaser, before {@code publish} makes it
 *       visible; an acquire validates after its CAS made the entry its own.</li>
 *   <li><b>No user code under a lock.</b> The factory and every hook run on the calling thread
 *       (or a worker, for maintenance) on an entry it owns; the locks of the table (growth),
 *       the index (writes) and the wait queue guard a few writes each, never a call out.</li>
 * </ul>
 *
 * <p>Acquire, when an object is idle, takes no lock: the entry the thread used last
 * ({@link BoundedThreads.Local#hint}; on a virtual thread, the entry its hint slot names, see
 * {@link BoundedThreads}); else a pop from the idle stacks of the table, the thread's home
 * stack first, at the same cost whatever maxTotal and the objects in use; else, if
 * {@code live < maxTotal}, a unit of capacity and the factory; else it waits. Release finds the
 * object's entry through the hint, else the index, with one CAS (BORROWED to RESERVED), so a
 * second release of one object fails without changing anything.
 *
 * <p>Parts, none of which holds a reference to this class: {@link BoundedStates} (the state
 * machine), {@link BoundedWaiting} and {@link BoundedWaitQueue} (the wait), {@link BoundedThreads}
 * (per-thread state and counters), {@link UserHooks} (the user's code, shared with the unbounded
 * engine), {@link BoundedHeldTooLong} (reports of objects held too long), and
 * {@link BoundedMaintenance} (eviction, leak reclaiming, minIdle and trimming, on a worker).
 *
 * @param <T> the type of the pooled objects
 */
final class BoundedPool<T> implements Pool<T>, LeakAware {

    /** An acquire's start time before it was read from the clock. */
    private static final long NOT_STARTED = Long.MIN_VALUE;

    private final String name;
    private final UserHooks<T> hooks;
    private final int maxTotal;
    private final int minIdle;
    private final long acquireTimeoutNanos;
    /** 0: no maxLifetime, and then a release reads no clock. */
    private final long maxLifetimeNanos;
    private final BoundedStates states;
    private final BoundedEntryTable table;
    private final BoundedThreads threads;
    private final BoundedWaitQueue waitQueue;
    private final BoundedWaiting waiting;
    private final BoundedMaintenance maintenance;
    /** Null unless the pool reports objects held too long: then one null check per cycle. */
    private final BoundedHeldTooLong heldTooLong;

    private BoundedPool(PoolSettings<T> settings, long starvationNanos, BoundedWaiting.Pause pause) {
        this.name = settings.name;
        this.hooks = settings.hooks;
        this.maxTotal = settings.maxTotal;
        this.minIdle = settings.minIdle;
        this.acquireTimeoutNanos = settings.acquireTimeoutNanos;
        this.maxLifetimeNanos = settings.maxLifetimeNanos;
        this.waitQueue = new BoundedWaitQueue(starvationNanos);
        this.threads = new BoundedThreads(maxTotal);
        this.states = new BoundedStates(settings, waitQueue, threads);
        this.table = states.table;
        this.waiting = new BoundedWaiting(states, waitQueue, pause);
        this.heldTooLong = settings.heldTooLongNanos > 0
                ? new BoundedHeldTooLong(name, settings.heldTooLongNanos, settings.onLeak) : null;
        this.maintenance = new BoundedMaintenance(settings, states, threads, heldTooLong);
    }

    /** Builds the pool, then starts its maintenance: {@code this} escapes only once constructed. */
    static <T> BoundedPool<T> start(PoolSettings<T> settings) {
        return start(settings, BoundedWaitQueue.STARVATION_NANOS);
    }

    /** As {@link #start(PoolSettings)} with another starvation threshold, for race tests. */
    static <T> BoundedPool<T> start(PoolSettings<T> settings, long starvationNanos) {
        return start(settings, starvationNanos, BoundedWaiting.YIELD);
    }

    /** As {@link #start(PoolSettings, long)} with another pause before queueing, for tests. */
    static <T> BoundedPool<T> start(PoolSettings<T> settings, long starvationNanos, BoundedWaiting.Pause pause) {
        BoundedPool<T> p = new BoundedPool<>(settings, starvationNanos, pause);
        p.maintenance.start();
        return p;
    }

    /** A pool without maintenance and without a rehearsal: {@link Rehearsal}'s own. */
    static <T> BoundedPool<T> unstarted(PoolSettings<T> settings) {
        return new BoundedPool<>(settings, BoundedWaitQueue.STARVATION_NANOS, BoundedWaiting.YIELD);
    }

    /** The queue's hand-off and wake-up with nobody waiting; for {@link Rehearsal}. */
    void rehearseQueue() {
        waitQueue.handPermit();
        waitQueue.signalFront();
    }

    /**
     * Runs a virtual thread's acquire path on the calling thread, whatever its kind: from the
     * idle stacks, writing its hint slot, then through that slot; each object released again.
     * For {@link Rehearsal}, with an object idle and none in use.
     */
    void rehearseVirtualPaths() {
        for (int i = 0; i < 2; i++) {
            release(acquireVirtual(0L, System.nanoTime()));
        }
    }

    // ---------------------------------------------------------------- acquire

    @Override
    public T acquire() {
        return acquireNanos(acquireTimeoutNanos);
    }

    @Override
    public T acquire(Duration timeout) {
        Objects.requireNonNull(timeout,
                "timeout is null: pass a Duration, e.g. Duration.ofSeconds(2)");
        // Non-positive means "do not wait": clamped to zero, because the wait's deadline
        // arithmetic (timeout minus time waited) would overflow near Long.MIN_VALUE.
        return acquireNanos(Math.max(0L, SettingChecks.nanos(timeout)));
    }

    @Override
    public Lease<T> lease() {
        return new Lease<>(this, acquire());
    }

    private T acquireNanos(long timeoutNanos) {
        if (states.isClosed()) {
            throw new PoolClosedException(name);
        }
        BoundedThreads.Local l = threads.local();
        long start = NOT_STARTED;
        if (hooks.validate != null) {
            // A refused object is destroyed and replaced with its unit of capacity, which the
            // acquire holds from the destroy to the new object's entry: an overflow anywhere on
            // that path, locks included, would lose the unit for good. So the room for it is
            // proven here, holding nothing yet (a validation costs far more than the descent).
            StackHeadroom.ensureForValidation();
            start = System.nanoTime(); // the timeout starts now: it bounds the validation too
        }
        if (l != null) {
            BoundedEntry h = l.hint;
            if (h != null && BoundedStates.idleToBorrowed(h)) {
                Object x = BoundedStates.take(h);
                int v = hooks.validate == null ? VALID : validate(h, x);
                if (v == VALID) {
                    l.privateHits++;
                    return borrowed(h, x);
                }
                if (v == REFUSED) {
                    return replaceRefused(l);
                }
            }
        } else {
            return acquireVirtual(timeoutNanos, start);
        }
        return acquireSlow(l, timeoutNanos, start);
    }

    /**
     * A virtual thread's acquire: the entry of its hint slot (see {@link BoundedThreads}), taken
     * as a platform thread takes its own hint and counted as a hit at home, else
     * {@link #acquireSlow}.
     */
    private T acquireVirtual(long timeoutNanos, long start) {
        BoundedEntry h = threads.virtualHint();
        if (h != null && BoundedStates.idleToBorrowed(h)) {
            Object x = BoundedStates.take(h);
            int v = hooks.validate == null ? VALID : validate(h, x);
            if (v == VALID) {
                BoundedThreads.count(null, h, Counts.HIT_HOME);
                return borrowed(h, x);
            }
            if (v == REFUSED) {
                return replaceRefused(null);
            }
        }
        return acquireSlow(null, timeoutNanos, start);
    }

    /**
     * Split from {@link #acquireNanos} so that the hint path stays small enough to inline.
     * {@code start} is when the timeout began, or {@link #NOT_STARTED}: most calls never wait,
     * and then never read the clock.
     */
    private T acquireSlow(BoundedThreads.Local l, long timeoutNanos, long start) {
        final int home = table.homeStack(l != null ? l.home : threads.virtualHome());
        for (;;) {
            if (states.isClosed()) {
                throw new PoolClosedException(name);
            }
            BoundedEntry e = states.takeIdle(home, l);
            int counter = e != null && table.stackOf(e) == home ? Counts.HIT_HOME : Counts.HIT_STOLEN;
            if (e == null) {
                if (minIdle > 0) {
                    maintenance.requestRefill(); // nothing idle: minIdle is not kept
                }
                if (states.tryReserveToCreate()) {
                    e = states.create(l);
                    counter = Counts.MISS;
                } else {
                    if (start == NOT_STARTED) {
                        start = System.nanoTime();
                    }
                    long waitStart = System.nanoTime(); // the yields are part of the wait
                    Object recorded = FlightRecorderEvents.waitStarted(); // and of its event
                    e = l != null ? waiting.yieldFor(home, l, start, timeoutNanos, waitStart) : null;
                    if (e != null) { // a hit, not a wait: its event is left uncommitted
                        counter = table.stackOf(e) == home ? Counts.HIT_HOME : Counts.HIT_STOLEN;
                    } else {
                        // A wait may end with a unit of capacity to create with: joining the queue
                        // proves the room for that (BoundedWaitQueue.enqueue)
                        e = waiting.await(home, start, timeoutNanos, waitStart, recorded);
                        if (e == BoundedWaiting.PERMIT) {
                            e = states.create(l);
                            counter = Counts.MISS;
                        }
                    }
                }
            }
            Object x = BoundedStates.take(e);
            int v = counter == Counts.MISS || hooks.validate == null ? VALID : validate(e, x);
            if (v == VALID) {
                return won(l, e, x, counter);
            }
            if (v == REFUSED) {
                return replaceRefused(l);
            }
            if (waiting.pastDeadline(start, timeoutNanos)) {
                // Claimed before its validation could run (a stray release of the object): the
                // timeout bounds the call, but a unit of capacity free now is used, with one
                // factory call, rather than reported as a timeout with nothing in use.
                if (states.isClosed()) {
                    throw new PoolClosedException(name);
                }
                if (!states.tryReserveToCreate()) {
                    throw waiting.timedOut(timeoutNanos);
                }
                BoundedEntry c = states.create(l);
                return won(l, c, BoundedStates.take(c), Counts.MISS);
            }
        }
    }

    /**
     * After {@link #validate} refused an object: the caller holds the unit of capacity the
     * object held and makes a new object with it, whatever the deadline (one factory call, no
     * validation), so that it keeps its turn: had the unit gone back to the pool, it would have
     * gone to the next waiter, and the caller, which had been served (the oldest waiter, or the
     * first to find the object idle), would have queued again behind it, its wait started anew.
     */
    private T replaceRefused(BoundedThreads.Local l) {
        if (states.isClosed()) {
            states.capacityBack();
            throw new PoolClosedException(name);
        }
        BoundedEntry c;
        try {
            c = states.create(l); // on failure, gives the unit back before it throws
        } catch (RuntimeException | Error e) {
            maintenance.requestRefill(); // one object fewer: minIdle may want it back
            throw e;
        }
        return won(l, c, BoundedStates.take(c), Counts.MISS);
    }

    /** The end of a successful {@link #acquireSlow}: counts where the object came from, hints. */
    private T won(BoundedThreads.Local l, BoundedEntry e, Object x, int counter) {
        BoundedThreads.count(l, e, counter);
        if (l != null) {
            l.hint = e;
        } else {
            try {
                threads.hintVirtual(e);
            } catch (OutOfMemoryError | StackOverflowError noRoom) {
                // A hint is only a hint; the object, already the caller's, is not given up for
                // it. (Its first write links a call site, which allocates: see Rehearsal.)
            }
        }
        return borrowed(e, x);
    }

    /**
     * Hands {@code x}, just taken from {@code e}, to the caller; first records where and when,
     * if the pool reports objects held too long. Every acquire path ends here with the entry it
     * already has, so nothing is looked up again. A record that cannot be made (no memory for
     * its call site, no stack for the capture) is given up, not the object: it goes out
     * unwatched rather than be lost to its caller with its unit of capacity.
     */
    @SuppressWarnings("unchecked")
    private T borrowed(BoundedEntry e, Object x) {
        if (heldTooLong != null) {
            try {
                heldTooLong.borrowed(e, x);
            } catch (OutOfMemoryError | StackOverflowError noRoom) {
                // unwatched: see above (the assignment of the record is its last step)
            }
        }
        return (T) x;
    }

    /** {@link #validate}: the hook accepted the object, which is the caller's. */
    private static final int VALID = 0;
    /** {@link #validate}: refused and destroyed; the caller holds its unit of capacity. */
    private static final int REFUSED = 1;
    /** {@link #validate}: the entry was claimed before the hook could run; not the caller's. */
    private static final int LOST = 2;

    /**
     * Runs the validate hook on {@code x}, the object of the entry {@code e} the caller has just
     * borrowed, with the entry RESERVED ({@link BoundedStates#toValidate}: a hook may call any
     * method of the pool, on this object too); if it accepts, the entry is the caller's again
     * (BORROWED): {@link #VALID}. If it refuses or throws, destroys the object and frees the
     * entry, and the caller keeps the object's unit of capacity ({@link #REFUSED}: it must make
     * an object with it or give it back); a {@link VirtualMachineError} of either hook gives the
     * unit back first and then reaches the caller. {@link #LOST}, the object not the caller's,
     * if the entry was claimed before the hook could run.
     */
    private int validate(BoundedEntry e, Object x) {
        if (!BoundedStates.toValidate(e)) {
            return LOST;
        }
        Throwable f = hooks.validateFailure(x, threads.counts);
        if (f == null) {
            BoundedStates.validated(e);
            return VALID;
        }
        Throwable fatal = UserHooks.fatal(f, states.destroyKeepingCapacity(e, x));
        if (fatal != null) {
            states.capacityBack();
            UserHooks.rethrowVmError(fatal);
        }
        return REFUSED;
    }

    // ---------------------------------------------------------------- release

    @Override
    public void release(T object) {
        BoundedThreads.Local l = threads.local();
        BoundedEntry e = states.claim(l, object, "release");
        BoundedThreads.count(l, e, Counts.RELEASED);
        if (heldTooLong == null) {
            putBack(e, object);
        } else {
            watchedBack(e, object, false);
        }
    }

    /** Destroys {@code object} instead of pooling it; its capacity comes back. */
    @Override
    public void invalidate(T object) {
        BoundedThreads.Local l = threads.local();
        BoundedEntry e = states.claim(l, object, "invalidate");
        BoundedThreads.count(l, e, Counts.RELEASED);
        threads.add(Counts.INVALIDATED, 1);
        if (heldTooLong == null) {
            UserHooks.rethrowVmError(destroy(e, object));
        } else {
            watchedBack(e, object, true);
        }
    }

    /**
     * The end of a borrowing that {@link #heldTooLong} watches: pools or destroys the object,
     * then reports its return if it was reported as held too long, once the entry is given up
     * (the listener is user code).
     */
    private void watchedBack(BoundedEntry e, T object, boolean destroy) {
        BoundedHeldTooLong.Borrow late = heldTooLong.returned(e);
        try {
            if (destroy) {
                UserHooks.rethrowVmError(destroy(e, object));
            } else {
                putBack(e, object);
            }
        } finally {
            if (late != null) {
                heldTooLong.reportReturned(late);
            }
        }
    }

    /**
     * Resets the object of {@code e}, which the caller has RESERVED, and publishes it, or
     * destroys it if the reset hook throws, the retain predicate refuses it, the pool is closed
     * or the object is past maxLifetime. That takes a clock reading, in a pool with a
     * maxLifetime only: a pool without one releases at the cost of a final field's test.
     */
    private void putBack(BoundedEntry e, T object) {
        if (hooks.reset != null) {
            Throwable f = hooks.resetFailure(object, null, threads.counts);
            if (f != null) {
                UserHooks.rethrowVmError(UserHooks.fatal(f, destroy(e, object)));
                return;
            }
        }
        if (states.isClosed()
                || maxLifetimeNanos > 0 && System.nanoTime() - e.ref.createdNanos >= maxLifetimeNanos) {
            UserHooks.rethrowVmError(destroy(e, object));
            return;
        }
        states.publish(e, object, maintenance.epoch());
    }

    /**
     * Destroys the object of an entry the caller owns and frees the entry; then, since the pool
     * may now be below minIdle, asks for a refill.
     *
     * @return a {@link VirtualMachineError} of the destroy hook, to rethrow, or null
     */
    private Throwable destroy(BoundedEntry e, Object x) {
        Throwable t = states.destroy(e, x);
        maintenance.requestRefill();
        return t;
    }

    // ---------------------------------------------------------------- background work

    /** Called by the leak detector after it reported one of this pool's objects as leaked. */
    @Override
    public void leaked(LeakReport report) {
        maintenance.reclaimLeaked();
    }

    /** Gives back the capacity of leaked objects now; for tests. */
    int reclaimLeaked() {
        return maintenance.reclaimLeaked();
    }

    /** Checks for objects held too long as a maintenance run at {@code nowNanos} would; for tests. */
    void checkHeldTooLong(long nowNanos) {
        heldTooLong.check(table.array(), nowNanos);
    }

    /** Refills to minIdle now; for tests. */
    void refill() {
        maintenance.refill();
    }

    /** The background work, which the clocks hold and run; for tests. */
    BoundedMaintenance maintenance() {
        return maintenance;
    }

    // ---------------------------------------------------------------- close, stats

    /**
     * Closes the pool: waiters are woken, idle objects destroyed now, borrowed ones at their
     * release. Every idle object is destroyed even if a destroy hook throws; the first
     * {@link VirtualMachineError} among them is rethrown at the end, other failures are logged.
     * Each call sweeps the idle objects again, so a second call after a failed one loses none.
     */
    @Override
    public void close() {
        Throwable fatal = states.close();
        maintenance.stop();
        FlightRecorderEvents.poolClosed();
        UserHooks.rethrowVmError(fatal);
    }

    @Override
    public boolean isClosed() {
        return states.isClosed();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PoolStats stats() {
        return new PoolStats(name, threads.sum(table.array()), 0, states.countIdle(), maxTotal, states.isClosed())
                .bounded(waitQueue.figures(), states.creationsFailed(), maxTotal, maintenance.runs())
                .withHeldTooLong(heldTooLong != null ? heldTooLong.reported() : 0L)
                .withTrims(maintenance.trimCount());
    }

    @Override
    public String toString() {
        return "BoundedPool[" + name + (states.isClosed() ? ", closed" : "") + ", maxTotal=" + maxTotal
                + ", live=" + states.live() + ", waiting=" + waitQueue.size() + "]";
    }

    // ---------------------------------------------------------------- for tests

    /** The state machine's owner, for race tests that drive its transitions directly. */
    BoundedStates states() {
        return states;
    }

    BoundedThreads threads() {
        return threads;
    }

    int live() {
        return states.live();
    }

    /** Whether releases hand their objects to the oldest waiter now; for tests. */
    boolean starving() {
        return waitQueue.starving();
    }

    /** Whether the front waiter holds the queue's wake-up signal; for tests. */
    boolean frontSignalled() {
        return waitQueue.frontSignalled();
    }

    /** Parks of waiters so far; for tests. */
    long parks() {
        return waiting.parks();
    }

    int waiting() {
        return waitQueue.size();
    }

    /** Entries made so far: grows with the objects that exist, not with maxTotal. */
    int entriesMade() {
        return table.array().length;
    }
}
