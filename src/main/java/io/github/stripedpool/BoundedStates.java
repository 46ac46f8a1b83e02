package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The one owner of a bounded pool's entry state machine: the {@link BoundedEntryTable table} of
 * {@link BoundedEntry entries}, the {@link BoundedIndex index} from object to entry, the live
 * count against {@code maxTotal}, and the closed flag. Every change of an entry's state is one
 * of the methods below; the acquire and release paths, the wait, maintenance and close call
 * them, and none of those parts holds a reference to the pool.
 *
 * <p>States. FREE (no object), IDLE (an object the pool holds, free to take), BORROWED (an
 * object a caller holds; the entry keeps only a weak reference to it, see {@link BoundedEntry}),
 * RESERVED (one thread works on the entry alone; nobody else reads or writes its fields).
 *
 * <p>Transitions, each a method, each a CAS unless the caller already owns the entry:
 * <pre>
 *   idleToBorrowed    IDLE     -&gt; BORROWED  an acquirer: its hint, an idle stack ({@link #takeIdle})
 *   idleToReserved    IDLE     -&gt; RESERVED  eviction, trimming, close's {@link #sweep}, a publisher for a starving waiter;
 *                                          a queued waiter's look ({@link #reserveIdle}), which may give the entry back
 *   borrowedToReserved BORROWED -&gt; RESERVED  release and invalidate ({@link #claim}), so two releases cannot both win;
 *                                          leak reclaiming ({@link #reclaim}), once the object is garbage;
 *                                          an acquirer before its validate hook ({@link #toValidate}), back to
 *                                          BORROWED ({@link #validated}) once the hook accepts the object
 *   freeToReserved    FREE     -&gt; RESERVED  a creator holding a unit of capacity ({@link #claimFree})
 *   reservedToBorrowed RESERVED -&gt; BORROWED  its creator, once the factory returned ({@link #create});
 *                                          a queued waiter that keeps what its look reserved ({@link #keep})
 *   publish           RESERVED or BORROWED (owned) -&gt; IDLE, or BORROWED by the oldest waiter
 *   reservedToFree    RESERVED -&gt; FREE      {@link #destroy}, a failed factory, {@link #reclaim};
 *                                          {@link #destroyKeepingCapacity}, whose caller keeps the unit
 * </pre>
 * Two parts carry some of these out for this class, together with their own structure:
 * {@link BoundedEntryTable} (the CAS of {@code takeIdle} as it pops an idle stack, the claim of
 * {@code claimFree} as it pops the free stack, the write of FREE as it pushes it) and
 * {@link BoundedWaitQueue} (BORROWED, written under its lock as {@code publish} hands an entry to
 * the oldest waiter). No other class writes a state.
 * Every hand-out of an idle object is the winning CAS {@code IDLE -> BORROWED}, so an object goes
 * to exactly one taker; eviction and close take with {@code IDLE -> RESERVED}, so they never
 * destroy an object an acquirer has won, nor hand out one they destroy.
 *
 * <p>Capacity. {@link #live} counts entries that are not FREE plus units reserved by creators
 * that have not claimed their entry yet; {@link #tryReserve} takes a unit by CAS only while
 * {@code live < maxTotal}, so {@code live} never exceeds it. An entry is claimed only after a
 * unit is reserved, and made FREE before its unit is given back, so a creator always finds a
 * FREE entry (or the table grows to make one). At every quiescent point: created - dropped ==
 * live == idle + in use &lt;= maxTotal. The factory runs with a unit and a RESERVED entry,
 * outside any lock; if it throws or returns null the entry is made FREE and the unit given back
 * before the caller sees the failure; a destroy hook runs before its unit is given back, so no
 * more than maxTotal objects exist at once, hooks included, and whatever it throws, the entry is
 * freed and its unit given back. An object enters the index before it is handed out and leaves it
 * before its entry is FREE (see {@link BoundedIndex}).
 *
 * <p>Handshakes, both halves each (Dekker: each side writes a volatile, then reads the other's):
 * <ul>
 *   <li><b>Publish vs a waiter.</b> {@link #publish} writes IDLE and offers the entry to the idle
 *       stacks, then reads the wait queue's size and mode; a waiter writes the size (or the
 *       starving mode), then looks in the idle stacks ({@link BoundedWaiting}). One sees the
 *       other: the publisher wakes the front waiter or hands it the entry, or the waiter finds
 *       the entry.</li>
 *   <li><b>Publish vs the idle stacks' takers.</b> The publisher writes IDLE, then reads the
 *       entry's queued flag; a taker clears the flag, then reads the state (see
 *       {@link BoundedEntryTable}): an IDLE entry is always findable.</li>
 *   <li><b>Freed capacity vs a waiter.</b> {@link #capacityBack} decrements {@link #live}, then
 *       reads the queue's size; a waiter writes the size, then tries {@link #tryReserve}. The
 *       giver hands a unit to a waiter it sees; a waiter it does not see finds the unit.</li>
 *   <li><b>Publish vs close.</b> {@link #publish} writes IDLE, then reads {@link #closed};
 *       {@link #close} writes the flag, then sweeps every entry with {@code idleToReserved}. An
 *       object published while the pool closes is destroyed by exactly one of them.</li>
 * </ul>
 */
final class BoundedStates {
    final String name;
    final int maxTotal;
    final BoundedEntryTable table;
    /** Object to entry, for the release of an object that is not the thread's hint. */
    final BoundedIndex index = new BoundedIndex();
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicLong creationsFailed = new AtomicLong();
    private volatile boolean closed;
    private final BoundedWaitQueue queue;
    private final BoundedThreads threads;
    private final UserHooks<?> hooks;
    /** Whether a creation reads the clock: only a pool with a maxLifetime needs the time. */
    private final boolean timesCreations;

    BoundedStates(PoolSettings<?> settings, BoundedWaitQueue queue, BoundedThreads threads) {
        this.name = settings.name;
        this.maxTotal = settings.maxTotal;
        this.table = new BoundedEntryTable(maxTotal, settings.stripes);
        this.queue = queue;
        this.threads = threads;
        this.hooks = settings.hooks;
        this.timesCreations = settings.maxLifetimeNanos > 0;
    }

    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- taking idle entries

    /** The acquirer's CAS on an entry it found (its hint): IDLE to BORROWED. */
    static boolean idleToBorrowed(BoundedEntry e) {
        int w = e.word(); // one read for the test and the CAS
        return BoundedEntry.stateOf(w) == BoundedEntry.IDLE && e.casWord(w, BoundedEntry.BORROWED);
    }

    /**
     * An acquirer's CAS before it runs the validate hook on the object of {@code e}, which it has
     * just taken (BORROWED by it): RESERVED, a state no release or invalidation can claim, so a
     * hook that gives back the object it checks, or a destroy hook after a refusal that does,
     * meets the "given back twice" check (its exception is the hook's failure, which costs this
     * object only) instead of freeing the entry twice or handing the object to two borrowers.
     * Fails only if another thread claimed the entry between the take and this CAS, which only a
     * release of an object that thread no longer held can do: the object is then that thread's to
     * give back, and the acquirer must not use it.
     */
    static boolean toValidate(BoundedEntry e) {
        return e.cas(BoundedEntry.BORROWED, BoundedEntry.RESERVED);
    }

    /** After {@link #toValidate}, the hook accepted the object: the entry is the acquirer's again. */
    static void validated(BoundedEntry e) {
        e.set(BoundedEntry.BORROWED);
    }

    /** Eviction's, trimming's, close's CAS: IDLE to RESERVED, the taker then owns the entry. */
    static boolean idleToReserved(BoundedEntry e) {
        int w = e.word();
        return BoundedEntry.stateOf(w) == BoundedEntry.IDLE && e.casWord(w, BoundedEntry.RESERVED);
    }

    /**
     * Takes an idle entry (IDLE to BORROWED) from the idle stack {@code home} on; null if none
     * was idle. Costs the same whatever maxTotal and the objects in use. {@code l}, if not null,
     * counts the entries examined.
     */
    BoundedEntry takeIdle(int home, BoundedThreads.Local l) {
        return table.takeIdle(home, l);
    }

    /**
     * Takes an idle entry as RESERVED (IDLE to RESERVED), from the idle stack {@code home} on;
     * null if none: for a queued waiter, which learns only afterwards whether it keeps the entry
     * ({@link #keep}) or was served meanwhile and gives it back ({@link #publish}). A RESERVED
     * entry is nobody's object yet: a second release of its object fails as for an idle one,
     * where a BORROWED one would let that release win and the object go out twice.
     */
    BoundedEntry reserveIdle(int home) {
        return table.takeIdle(home, null, true);
    }

    /** A queued waiter keeps the entry it reserved ({@link #reserveIdle}): RESERVED to BORROWED. */
    static void keep(BoundedEntry e) {
        e.set(BoundedEntry.BORROWED);
    }

    /** The caller has just made {@code e} BORROWED: takes its object out of it. */
    static Object take(BoundedEntry e) {
        Object x = e.item;
        e.item = null; // the borrower's reference is the only strong one: see BoundedEntry
        return x;
    }

    // ---------------------------------------------------------------- capacity and creation

    /** Reserves one unit of capacity, if {@code live < maxTotal}. */
    boolean tryReserve() {
        final AtomicInteger live = this.live;
        for (int c = live.get(); c < maxTotal; c = live.get()) {
            if (live.compareAndSet(c, c + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@link #tryReserve} for a caller that will then {@link #create}: first proves that the
     * stack has room for the whole creation path ({@link StackHeadroom#ensureForCreation}), so
     * that a {@link StackOverflowError} is thrown before the unit is taken, never between the
     * reservation and the entry that records it. At the cap, the common case of a pool under
     * load, it returns false without the descent.
     */
    boolean tryReserveToCreate() {
        if (live.get() >= maxTotal) {
            return false;
        }
        StackHeadroom.ensureForCreation();
        return tryReserve();
    }

    /**
     * FREE to RESERVED, for a unit of capacity the caller holds; {@code l} counts, if not null.
     * If that fails (no memory to grow the table), the unit goes back before the failure is thrown.
     */
    BoundedEntry claimFree(BoundedThreads.Local l) {
        try {
            return table.claimFree(l);
        } catch (Throwable t) {
            capacityBack();
            throw t;
        }
    }

    /**
     * With a unit of capacity the caller holds: claims a FREE entry, runs the factory in it and
     * makes it BORROWED by the caller (RESERVED to BORROWED: nobody else touches a RESERVED
     * entry). On failure (of the factory, or of the table's growth or the object's record for
     * want of memory) the entry is FREE again and the unit given back (to a waiter, if one
     * waits) before the failure is thrown.
     *
     * @return the BORROWED entry, its object still in it: the caller {@link #take}s it
     */
    BoundedEntry create(BoundedThreads.Local l) {
        BoundedEntry e = claimFree(l);
        e.item = make(e);
        e.set(BoundedEntry.BORROWED);
        return e;
    }

    /**
     * Runs the factory for the RESERVED entry {@code e}, with a unit the caller holds; frees the
     * entry and gives the unit back if that fails. The object stays only in the entry's weak
     * reference: the caller hands it out or publishes it. If recording the new object fails (no
     * memory for its reference or the index, no stack for the index's lock), the object is
     * destroyed, never handed out, and the entry and its unit given back, before the failure is
     * thrown: nothing stays RESERVED with nobody to finish it.
     */
    Object make(BoundedEntry e) {
        Object x;
        try {
            x = hooks.create();
        } catch (Throwable t) {
            creationsFailed.incrementAndGet();
            reservedToFree(e);
            throw t;
        }
        try {
            threads.add(Counts.CREATED, 1);
            e.ref = new BoundedEntry.ObjectRef(x, timesCreations ? System.nanoTime() : 0L);
            index.add(e); // before the object is handed out: see BoundedIndex
        } catch (Throwable t) { // not a factory failure: the object was made, and is dropped
            destroy(e, x); // counts it dropped; a VirtualMachineError of the hook yields to t
            throw t;
        }
        return x;
    }

    // ---------------------------------------------------------------- release

    /**
     * BORROWED to RESERVED for the release or invalidation of {@code object}, found through the
     * thread's hint or the index; throws, the pool unchanged, if the object is not this pool's
     * or not borrowed (two releases of one object: only one CAS wins).
     */
    BoundedEntry claim(BoundedThreads.Local l, Object object, String call) {
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
     * Gives the caller's entry (RESERVED, or BORROWED by it) with its object {@code x} back: to
     * the oldest waiter if the queue is starving, else IDLE, waking the oldest waiter to compete
     * for it. The publisher's half of the handshakes in the class comment: IDLE is written and
     * the entry offered to the idle stacks, then the queue's size and mode read, then
     * {@link #closed}.
     */
    void publish(BoundedEntry e, Object x, long stamp) {
        e.item = x;
        e.stamp = stamp;
        final BoundedWaitQueue q = queue;
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
        if (closed && idleToReserved(e)) {
            UserHooks.rethrowVmError(destroy(e, e.item));
        }
    }

    // ---------------------------------------------------------------- the end of an object

    /**
     * Destroys {@code x}, the object of the entry {@code e} the caller owns (RESERVED or
     * BORROWED), frees the entry (to FREE) and gives its unit of capacity back, whatever the
     * destroy hook throws.
     *
     * @return a {@link VirtualMachineError} the hook threw, for the caller to rethrow once its
     *         own work is done; null otherwise
     */
    Throwable destroy(BoundedEntry e, Object x) {
        // Not through destroyKeepingCapacity: each frame on this path counts at the end of a
        // stack, where the proven room (StackHeadroom) is only what the path has always used.
        e.item = null;
        Throwable t = hooks.drop(x, null, threads.counts);
        reservedToFree(e);
        return t;
    }

    /**
     * As {@link #destroy}, but the caller keeps the unit of capacity: it makes an object with it
     * ({@link #create}) or gives it back ({@link #capacityBack}). Called by a validated acquire,
     * which proved the room for it ({@link StackHeadroom#ensureForValidation}).
     */
    Throwable destroyKeepingCapacity(BoundedEntry e, Object x) {
        e.item = null;
        Throwable t = hooks.drop(x, null, threads.counts);
        freeEntry(e);
        return t;
    }

    /**
     * BORROWED to RESERVED to FREE for an entry whose object became garbage without being
     * released (its weak reference is cleared), giving its capacity back; false if it is not such
     * an entry. Callers are serialised (see {@link BoundedMaintenance#reclaimLeaked}).
     */
    boolean reclaim(BoundedEntry e) {
        int seen = e.word(); // before the reference: see below
        return reclaim(e, seen, e.ref);
    }

    /**
     * {@link #reclaim(BoundedEntry)} with the word and the reference it read, in that order.
     * Between those reads and the CAS the object may have been invalidated, collected, and a new
     * object borrowed in the same entry: then the stale reference is cleared and the state is
     * BORROWED again, and a CAS on the state alone would free the place of a live borrowed
     * object (a second object beyond maxTotal, the borrower's release refused). So the CAS is on
     * the whole word: the entry's life moves on whenever it becomes FREE, which it must before a
     * new object enters it, and {@code r} is of the life read in {@code seen} or of a later one
     * (a creator writes the reference before the volatile write that makes its object BORROWED
     * or IDLE, and it changes only to null at the end of a life, or to a later object's), so the
     * CAS succeeds only if the cleared reference is the borrowed object's own.
     */
    boolean reclaim(BoundedEntry e, int seen, BoundedEntry.ObjectRef r) {
        if (BoundedEntry.stateOf(seen) != BoundedEntry.BORROWED || r == null || !r.refersTo(null)
                || !e.casWord(seen, BoundedEntry.RESERVED)) {
            return false;
        }
        threads.add(Counts.RELEASED, 1);
        threads.add(Counts.DROPPED, 1);
        e.item = null;
        BoundedHeldTooLong.forget(e);
        reservedToFree(e);
        return true;
    }

    /** RESERVED to FREE for an entry whose object is gone, then its unit of capacity back. */
    private void reservedToFree(BoundedEntry e) {
        if (e.ref != null) { // as freeEntry, inline: see destroy
            index.remove(e);
            e.ref = null;
        }
        table.free(e);
        capacityBack();
    }

    /** RESERVED to FREE, the caller keeping the entry's unit of capacity. */
    private void freeEntry(BoundedEntry e) {
        if (e.ref != null) {
            index.remove(e);
            e.ref = null;
        }
        table.free(e);
    }

    /**
     * Gives back a unit of capacity the caller holds: to the oldest waiter as a permit, else to
     * {@link #live}; then, the giver's half of the handshake, if a waiter queued meanwhile,
     * takes a unit back for it.
     */
    void capacityBack() {
        for (;;) {
            if (queue.size() > 0 && !closed && queue.handPermit()) {
                return;
            }
            live.decrementAndGet();
            if (queue.size() == 0 || closed || !tryReserve()) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- close

    /**
     * Closes: sets the flag, wakes the waiters, then {@link #sweep sweeps} every entry. Every
     * idle object is destroyed even if a destroy hook throws; each call sweeps again, so a
     * second call after a failed one loses none.
     *
     * @return the first {@link VirtualMachineError} of a destroy hook, or null
     */
    Throwable close() {
        closed = true;
        queue.close();
        Throwable fatal = null;
        // A publish racing this loop either is seen here or sees closed (class comment).
        for (BoundedEntry e : table.array()) {
            fatal = sweep(e, fatal);
        }
        return fatal;
    }

    /**
     * Close's sweep of one entry: if it is idle, takes it ({@code idleToReserved}) and destroys
     * its object. Returns {@code fatal}, or the first {@link VirtualMachineError} of the destroy
     * hook if there was none.
     */
    Throwable sweep(BoundedEntry e, Throwable fatal) {
        if (idleToReserved(e)) {
            return UserHooks.fatal(fatal, destroy(e, e.item));
        }
        return fatal;
    }

    // ---------------------------------------------------------------- figures

    int live() {
        return live.get();
    }

    long creationsFailed() {
        return creationsFailed.get();
    }

    /** Entries IDLE now, counted racily. */
    int countIdle() {
        int idle = 0;
        for (BoundedEntry e : table.array()) {
            if (e.state() == BoundedEntry.IDLE) {
                idle++;
            }
        }
        return idle;
    }

    /** Entries borrowed or being worked on, counted racily; for messages. */
    int inUse() {
        int n = 0;
        for (BoundedEntry e : table.array()) {
            int s = e.state();
            if (s != BoundedEntry.IDLE && s != BoundedEntry.FREE) {
                n++;
            }
        }
        return n;
    }
}
