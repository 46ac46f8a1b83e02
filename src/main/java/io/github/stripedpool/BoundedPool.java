package io.github.stripedpool;

import java.time.Duration;
import java.util.Objects;

/**
 * The bounded pool: at most {@code maxTotal} live objects, acquirers wait (with a timeout) when
 * all are in use, objects are validated on acquire, evicted when idle too long or too old.
 *
 * <p>Structure. A {@link BoundedEntryTable} of {@link BoundedEntry entries}, grown as objects
 * are created, each empty or holding one object, with its state changed by CAS (see
 * {@code BoundedEntry} for the transitions); the live count ({@link BoundedCapacity}), the number of entries that hold or
 * are about to hold an object; a {@link BoundedWaitQueue} of waiting threads, which also decides
 * between barging and hand-off; {@link BoundedThreads}, the per-thread state and counters.
 * Acquire, when an object is idle, takes no lock:
 * <ol>
 *   <li>the entry the thread used last ({@link BoundedLocal#hint}): CAS IDLE to BORROWED;</li>
 *   <li>a pop from the idle stacks of the {@link BoundedEntryTable}, the thread's home stack
 *       first, so that threads rarely race for the same head; it costs the same whatever
 *       maxTotal and the objects in use (see the table for the invariants that make it so);</li>
 *   <li>if {@code live < maxTotal}: a CAS on {@code live} reserves capacity, then the factory
 *       runs, outside any lock; a factory failure gives the unit back;</li>
 *   <li>else the thread queues and parks (see {@link BoundedWaiting}).</li>
 * </ol>
 *
 * <p>Fairness. A release makes its entry IDLE and wakes the oldest waiter to compete for it
 * (barging: the releaser may take it straight back), unless the queue is starving, in which case
 * it hands the entry, still BORROWED, to the oldest waiter; see {@link BoundedWaitQueue} for the
 * switch and the bound on waiting it gives. Capacity freed by a destroy is always handed to the
 * oldest waiter, as a permit to create: the waiter runs the factory itself, outside any lock, and
 * no more objects are created than there are waiters to take them.
 *
 * <p>Parts. {@link BoundedCapacity} keeps the count of live objects against maxTotal, runs
 * the factory and gives capacity back; {@link BoundedWaiting} is the wait of an acquirer that
 * found nothing (it explains how a wake-up is never lost); {@link BoundedIndex} finds the entry
 * of a released object that is not the thread's hint; {@link BoundedHooks} runs the user hooks
 * that decide an object's fate and destroys objects, freeing the entry whatever the destroy hook
 * throws, so no hook can keep a unit reserved; {@link BoundedHeldTooLong}, when the pool reports
 * objects held too long, records each acquisition and reports late returns.
 *
 * <p>Background work. {@link BoundedMaintenance} evicts idle and old objects, reclaims leaked
 * ones and keeps minIdle, when the shared {@link MaintenanceClock} finds a run due, on a worker
 * through the pool's {@link Lane}, through the same
 * package-private create, publish and destroy paths as acquire and release.
 *
 * @param <T> the type of the pooled objects
 */
final class BoundedPool<T> implements Pool<T>, LeakAware, AfterCollection {

    /** An acquire's start time before it was read from the clock. */
    private static final long NOT_STARTED = Long.MIN_VALUE;

    private final String name;
    /** Null when not set: read on the acquire path, where a null check spares a call. */
    private final BoundedHooks<T> hooks;
    private final int maxTotal;
    private final int minIdle;
    private final long acquireTimeoutNanos;
    private final BoundedEntryTable table;
    /** Object to entry, for the release of an object that is not the thread's hint. */
    private final BoundedIndex index;
    private final BoundedThreads threads;
    private final BoundedCapacity capacity;
    private final BoundedWaitQueue waitQueue;
    private final BoundedWaiting waiting;
    private volatile boolean closed;
    private final BoundedMaintenance maintenance;
    /** Null unless the pool reports objects held too long: then one null check per cycle. */
    private final BoundedHeldTooLong heldTooLong;

    private BoundedPool(PoolBuilder<T> b, String name, long starvationNanos) {
        this.name = name;
        this.waitQueue = new BoundedWaitQueue(starvationNanos);
        this.maxTotal = b.maxTotal;
        this.minIdle = Math.max(0, b.minIdle);
        this.acquireTimeoutNanos = nanos(b.acquireTimeout != null
                ? b.acquireTimeout : PoolBuilder.DEFAULT_ACQUIRE_TIMEOUT);
        this.heldTooLong = b.heldTooLong != null
                ? new BoundedHeldTooLong(name, nanos(b.heldTooLong), b.onLeak) : null;
        this.maintenance = new BoundedMaintenance(this, minIdle,
                b.maxIdleTime != null ? nanos(b.maxIdleTime) : 0L,
                b.maxLifetime != null ? nanos(b.maxLifetime) : 0L, heldTooLong, b.trimThreshold());
        this.threads = new BoundedThreads(maxTotal);
        this.capacity = new BoundedCapacity(this, b.factory, maxTotal, Math.max(1, b.stripes),
                waitQueue, threads, maintenance);
        this.table = capacity.table;
        this.index = capacity.index;
        this.waiting = new BoundedWaiting(this, capacity, waitQueue);
        this.hooks = new BoundedHooks<>(b, name, threads, capacity);
    }

    /** Builds the pool, then starts its maintenance: {@code this} escapes only once constructed. */
    static <T> BoundedPool<T> start(PoolBuilder<T> b, String name) {
        return start(b, name, BoundedWaitQueue.STARVATION_NANOS);
    }

    /** As {@link #start(PoolBuilder, String)} with another starvation threshold, for race tests. */
    static <T> BoundedPool<T> start(PoolBuilder<T> b, String name, long starvationNanos) {
        BoundedPool<T> p = new BoundedPool<>(b, name, starvationNanos);
        p.maintenance.start();
        if (p.maintenance.trims()) {
            try {
                AgingClock.register(p);
            } catch (RuntimeException | Error e) {
                p.close(); // no thread could be started: the pool does not half exist
                throw e;
            }
        }
        return p;
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
        return acquireNanos(Math.max(0L, nanos(timeout)));
    }

    /**
     * Hands {@code x}, just taken from {@code e}, to the caller; first records where and when,
     * if the pool reports objects held too long. Every acquire path ends here with the entry it
     * already has, so nothing is looked up again.
     */
    @SuppressWarnings("unchecked")
    private T borrowed(BoundedEntry e, Object x) {
        if (heldTooLong != null) {
            heldTooLong.borrowed(e, x);
        }
        return (T) x;
    }

    @Override
    public Lease<T> lease() {
        return new Lease<>(this, acquire());
    }

    @SuppressWarnings("unchecked")
    private T acquireNanos(long timeoutNanos) {
        if (closed) {
            throw new PoolClosedException(name);
        }
        BoundedLocal l = threads.local();
        // With a validate hook the timeout starts now: it bounds the validations too.
        long start = hooks.validate != null ? System.nanoTime() : NOT_STARTED;
        if (l != null) {
            BoundedEntry h = l.hint;
            if (h != null && h.state() == BoundedEntry.IDLE && h.cas(BoundedEntry.IDLE, BoundedEntry.BORROWED)) {
                Object x = take(h);
                if (hooks.validate == null || hooks.isValid(h, x)) {
                    l.privateHits++;
                    return borrowed(h, x);
                }
            }
        }
        return acquireSlow(l, timeoutNanos, start);
    }

    /**
     * Split from {@link #acquireNanos} so that the hint path stays small enough to inline.
     * {@code start} is when the timeout began, or {@link #NOT_STARTED}: most calls never wait,
     * and then never read the clock.
     */
    @SuppressWarnings("unchecked")
    private T acquireSlow(BoundedLocal l, long timeoutNanos, long start) {
        final int home = table.homeStack(l != null ? l.home : threads.virtualHome());
        for (;;) {
            if (closed) {
                throw new PoolClosedException(name);
            }
            BoundedEntry e = table.takeIdle(home, l);
            if (e != null) {
                Object x = take(e);
                if (hooks.validate == null || hooks.isValid(e, x)) {
                    threads.count(l, table.stackOf(e) == home ? Counts.HIT_HOME : Counts.HIT_STOLEN);
                    BoundedThreads.hint(l, e);
                    return borrowed(e, x);
                }
                waiting.checkDeadline(start, timeoutNanos);
                continue;
            }
            if (minIdle > 0) {
                maintenance.requestRefill(); // nothing idle: minIdle is not kept
            }
            if (capacity.tryReserve()) {
                return create(l);
            }
            if (start == NOT_STARTED) {
                start = System.nanoTime();
            }
            e = waiting.await(home, start, timeoutNanos);
            if (e == BoundedWaiting.PERMIT) {
                return create(l);
            }
            Object x = take(e);
            if (hooks.validate == null || hooks.isValid(e, x)) {
                threads.count(l, Counts.HIT_STOLEN);
                BoundedThreads.hint(l, e);
                return borrowed(e, x);
            }
            waiting.checkDeadline(start, timeoutNanos);
        }
    }

    /**
     * Takes an idle entry (CAS IDLE to BORROWED), from the idle stack {@code home} on; null if
     * none was idle. Costs the same whatever maxTotal and the objects in use.
     */
    BoundedEntry scan(int home) {
        return table.takeIdle(home, null);
    }

    /** The caller has just made {@code e} BORROWED: takes its object out of it. */
    private static Object take(BoundedEntry e) {
        Object x = e.item;
        e.item = null; // the borrower's reference is the only strong one: see BoundedEntry
        return x;
    }

    /**
     * Makes an object with a unit of capacity the caller holds, outside any lock, and hands it
     * to the caller. On failure the unit goes back (to a waiter, if one waits).
     */
    @SuppressWarnings("unchecked")
    private T create(BoundedLocal l) {
        BoundedEntry e = table.claimFree(l);
        Object x = capacity.make(e);
        e.set(BoundedEntry.BORROWED);
        threads.count(l, Counts.MISS);
        BoundedThreads.hint(l, e);
        return borrowed(e, x);
    }

    // ---------------------------------------------------------------- release

    @Override
    public void release(T object) {
        BoundedLocal l = threads.local();
        BoundedEntry e = claim(l, object, "release");
        threads.count(l, Counts.RELEASED);
        if (heldTooLong == null) {
            putBack(e, object);
        } else {
            watchedBack(e, object, false);
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
                Hooks.rethrow(hooks.destroyOwned(e, object));
            } else {
                putBack(e, object);
            }
        } finally {
            if (late != null) {
                heldTooLong.reportReturned(late);
            }
        }
    }

    /** Resets the object of {@code e}, which the caller owns, and pools or destroys it. */
    private void putBack(BoundedEntry e, T object) {
        if (!hooks.resetAndRetained(e, object)) {
            return;
        }
        if (closed || e.ref.expired) {
            Hooks.rethrow(hooks.destroyOwned(e, object));
            return;
        }
        publish(e, object, maintenance.epoch());
    }

    /** Destroys {@code object} instead of pooling it; its capacity comes back. */
    @Override
    public void invalidate(T object) {
        BoundedLocal l = threads.local();
        BoundedEntry e = claim(l, object, "invalidate");
        threads.count(l, Counts.RELEASED);
        threads.add(Counts.INVALIDATED, 1);
        if (heldTooLong == null) {
            Hooks.rethrow(hooks.destroyOwned(e, object));
        } else {
            watchedBack(e, object, true);
        }
    }

    /**
     * The entry of {@code object}, moved from BORROWED to RESERVED for the caller; throws, the
     * pool unchanged, if the object is not this pool's or not borrowed.
     */
    private BoundedEntry claim(BoundedLocal l, T object, String call) {
        if (object == null) {
            throw new NullPointerException(call + "(null) on pool '" + name
                    + "': pass the object that acquire() returned");
        }
        BoundedEntry e = l != null ? l.hint : null;
        if (e == null || !e.holds(object)) {
            e = index.find(object);
        }
        if (e == null) {
            throw new IllegalArgumentException("pool '" + name + "': " + call + " of a "
                    + object.getClass().getTypeName() + " that this pool does not hold: it came from "
                    + "another pool or from new, or was already given back and destroyed. "
                    + "The pool was not changed");
        }
        if (!e.cas(BoundedEntry.BORROWED, BoundedEntry.RESERVED)) {
            throw ReleaseChecks.givenBackTwice(name, call, object, "");
        }
        return e;
    }

    /**
     * Gives the caller's entry (RESERVED or BORROWED by it) with its object {@code x} back to
     * the pool: to the oldest waiter if the queue is starving, else idle, waking the oldest
     * waiter to compete for it. The releaser's half of the Dekker pair: IDLE is written and the
     * entry offered to the idle stacks (findable from then on: see {@link BoundedEntryTable}),
     * then the queue's size and mode read; a waiter that queued in between looks again after
     * queueing, and one that switched the queue to starving in between looks after switching,
     * so each finds the entry unless another thread took it (and that one releases it later).
     * Then the same with {@link #closed}.
     */
    void publish(BoundedEntry e, Object x, int stamp) {
        e.item = x;
        e.stamp = stamp;
        final BoundedWaitQueue q = waitQueue;
        for (;;) {
            if (q.size() > 0 && q.starving() && q.handEntry(e)) {
                return;
            }
            e.set(BoundedEntry.IDLE);
            table.offerIdle(e);
            if (q.size() == 0) {
                break;
            }
            if (!q.starving()) {
                q.signalFront();
                break;
            }
            if (!e.cas(BoundedEntry.IDLE, BoundedEntry.RESERVED)) {
                break; // taken: its taker releases it later
            }
        }
        // Once IDLE is written the entry is no longer the caller's: close may have destroyed x
        // and freed the entry, and a creation reused it for another object, idle by now. So the
        // object destroyed is the one in the entry when the CAS wins, never x.
        if (closed && e.cas(BoundedEntry.IDLE, BoundedEntry.RESERVED)) {
            Hooks.rethrow(hooks.destroyOwned(e, e.item));
        }
    }

    // ---------------------------------------------------------------- background work

    /** Called by the leak detector after it reported one of this pool's objects as leaked. */
    @Override
    public void leaked(LeakReport report) {
        maintenance.reclaimLeaked();
    }

    /** One maintenance run, called by {@link MaintenanceClock}. */
    void maintain() {
        maintenance.run();
    }

    /** After a garbage collection, called by the {@link AgingClock} if the pool trims; see {@link HeapTrim}. */
    @Override
    public void onGarbageCollection(long now) {
        maintenance.trimIfHeapShort();
    }

    /** The trimming state, for a test's failure report. */
    @Override
    public String describeAging() {
        return "trims " + maintenance.trimCount();
    }

    /** A refill to minIdle, asked for earlier, called by {@link MaintenanceClock}. */
    void refillRequested() {
        maintenance.refillRequested();
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

    // ---------------------------------------------------------------- close, stats

    /**
     * Closes the pool: waiters are woken, idle objects destroyed now, borrowed ones at their
     * release. Every idle object is destroyed even if a destroy hook throws; the first
     * {@link VirtualMachineError} among them is rethrown at the end, other failures are logged.
     * Each call sweeps the idle objects again, so a second call after a failed one loses none.
     */
    @Override
    public void close() {
        closed = true;
        waitQueue.close();
        Throwable fatal = null;
        // A release racing this loop either is seen here or sees closed (publish).
        for (BoundedEntry e : table.array()) {
            fatal = sweep(e, fatal);
        }
        maintenance.stop();
        if (maintenance.trims()) {
            AgingClock.unregister(this);
        }
        FlightRecorderEvents.poolClosed();
        Hooks.rethrow(fatal);
    }

    /**
     * Close's sweep of one entry: if it is idle, takes it (IDLE to RESERVED, the same CAS as an
     * acquire) and destroys its object. Returns {@code fatal}, or the first
     * {@link VirtualMachineError} of the destroy hook if there was none.
     */
    Throwable sweep(BoundedEntry e, Throwable fatal) {
        if (e.state() == BoundedEntry.IDLE && e.cas(BoundedEntry.IDLE, BoundedEntry.RESERVED)) {
            return Hooks.fatal(fatal, hooks.destroyOwned(e, e.item));
        }
        return fatal;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PoolStats stats() {
        return new PoolStats(name, threads.sum(), 0, maintenance.countIdle(), maxTotal, closed)
                .bounded(waitQueue.figures(), capacity.creationsFailed(), maxTotal, maintenance.runs())
                .withHeldTooLong(heldTooLong != null ? heldTooLong.reported() : 0L)
                .withTrims(maintenance.trimCount());
    }

    @Override
    public String toString() {
        return "BoundedPool[" + name + (closed ? ", closed" : "") + ", maxTotal=" + maxTotal
                + ", live=" + capacity.live() + ", waiting=" + waitQueue.size() + "]";
    }

    // ---------------------------------------------------------------- for the pool's parts and tests

    BoundedEntryTable table() {
        return table;
    }

    BoundedIndex index() {
        return index;
    }

    BoundedThreads threads() {
        return threads;
    }

    BoundedHooks<T> hooks() {
        return hooks;
    }

    BoundedCapacity capacity() {
        return capacity;
    }

    int live() {
        return capacity.live();
    }

    int waiting() {
        return waitQueue.size();
    }

    /** Entries made so far: grows with the objects that exist, not with maxTotal. */
    int entriesMade() {
        return table.array().length;
    }

    /** A duration in nanoseconds, saturated: {@code Duration.toNanos} throws past 292 years. */
    static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
