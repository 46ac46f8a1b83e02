package io.github.stripedpool;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The unbounded, never-blocking pool.
 *
 * <p>Structure, from the cheapest tier to the dearest:
 * <ol>
 *   <li>a {@link PrivateSlot} per platform thread (one object, and up to
 *       {@link PrivateSlotFields#SPARES} more in its spare entries, for a thread that holds
 *       several at once; no other thread touches it except aging, close and the reaping of a
 *       dead owner);</li>
 *   <li>the thread's home {@link Stripe}, about one per processor, assigned round-robin;</li>
 *   <li>the other stripes (stealing);</li>
 *   <li>victims: objects in any stripe that have already survived an aging cycle idle;</li>
 *   <li>the factory.</li>
 * </ol>
 * Release goes the other way: private slot if empty, else the home stripe, else any stripe, else
 * the object is destroyed. Virtual threads skip the private slot (one per virtual thread would
 * strand an object in each of thousands of short-lived threads) and use the stripe their id hashes
 * to.
 *
 * <p>The fast path. A platform thread finds its slot with one read of the thread-id table
 * {@link #table} and a check of the entry's owner. The acquire takes the slot's object with a
 * plain read and write (a compare-and-set with a destroy hook) and one counter increment. The
 * release reads one flag ({@link PrivateSlotFields#fastPut}: a permit, which hooks), runs the
 * reset hook if there is one, and puts with a release store (a compare-and-set followed by the
 * closed check with a destroy hook) and one counter increment. Counters are the owner's own
 * fields: no shared write; no virtual-thread check (a virtual thread never owns a table entry).
 * Sampled leak detection keeps the plain paths for the acquisitions it does not track (see
 * {@link SampleCountdown}); a {@code retainIf} predicate takes the checked path. See
 * {@link PrivateSlot} for why a third party that only forgets objects needs no more, and why a
 * pool with a destroy hook needs a compare-and-set on each side.
 *
 * <p>Invariants.
 * <ul>
 *   <li><b>Exclusivity.</b> Every stripe slot, and every private slot and spare entry of a pool
 *       with a destroy hook, is emptied only by compare-and-set, so an object goes to one taker. In a private
 *       slot without a destroy hook, a third party may take an object at the instant its owner
 *       does; it then only forgets it, never hands it out (see {@link PrivateSlot}).</li>
 *   <li><b>Reset before reuse.</b> {@link #release} runs the reset hook before the object is
 *       published; the publishing CAS (stripe) orders the reset's writes before every later
 *       taker, and a private slot's object reaches another thread only after its owner died.</li>
 *   <li><b>maxIdle.</b> The stripes' slots add up to {@code maxIdle}. A platform thread that
 *       puts objects in its private slot first borrows one unit of a stripe's capacity (a
 *       permit, see {@link SlotPermits}), and one more for each spare entry it uses. So idle
 *       objects never exceed {@code maxIdle}, by construction.</li>
 *   <li><b>Closed.</b> {@link #close} sets {@link #closed}, empties every entry of
 *       {@link #table}, then takes every object out of every slot. Every fast path reads its
 *       entry, so a call that happens after close (in the memory model's sense: any
 *       synchronization that tells a thread the pool was closed orders close's writes before
 *       its reads) finds no slot there and takes the slow path, which checks the flag: the
 *       emptied table is the fast path's closed check, at no cost. A slot entered while close
 *       runs is taken out again by the thread that entered it: it enters by compare-and-set
 *       and then reads the flag, close writes the flag and then empties the entries, so one of
 *       the two sees the other ({@link ThreadSlots#newSlot}). The entries are read plainly, so that the
 *       compiler may share one lookup between an acquire and the release that follows it (see
 *       {@link #table}); a call that races close may find its entry or not, and goes on as
 *       below.
 *       A release racing close: in a pool with a destroy hook, the put is a CAS (a volatile write
 *       in a spare entry) and is followed by a read of the flag (a Dekker pair with close's write of the flag and read of the
 *       slot), so the object is destroyed exactly once; without a destroy hook, a racing put
 *       may leave its object in the slot after close returned, and the owner's next acquire,
 *       {@code stats()} or another {@code close()} forgets it (there is nothing to destroy).</li>
 *   <li><b>Aging.</b> Only {@link UnboundedAging} writes {@link #epoch}; it ages the stripes
 *       and the private slots and reaps the slots of dead threads (the next thread that starts
 *       using the pool reaps too); its comment states its invariants.</li>
 *   <li><b>No user code under a lock.</b> Acquire and release take no lock, and no path holds a
 *       monitor: aging, close and {@code stats()} run concurrently, each taking objects by
 *       compare-and-set. One lock makes the reaping of a dead thread's counters and their sum by
 *       {@code stats()} atomic to each other, held for a few additions and the walk of the
 *       slots ({@link UnboundedAging#counting}); no hook runs under it, so {@code stats()} never
 *       waits for a hook. Hooks are called through {@link UserHooks}.</li>
 * </ul>
 *
 * <p>The parts outside this class, each with its own invariants: {@link UserHooks} (the user's
 * code and its failures), {@link SharedTier} (where takes and pushes look in the stripes),
 * {@link ThreadSlots} (making, registering and finding slots), {@link UnboundedAging} (aging,
 * reaping, the sweep of close), {@link UnboundedStats} (the counters' snapshot),
 * {@link SampleCountdown} (which acquisitions sampled leak detection tracks). This class keeps
 * the acquire and release paths, which read the thread-id table.
 *
 * @param <T> the type of the pooled objects
 */
final class UnboundedPool<T> implements Pool<T>, AfterCollection {
    private final String name;
    /** The factory and hooks, with the containment of their failures. */
    final UserHooks<T> hooks;
    /** {@link UserHooks#reset}, copied here for the release path's null check. */
    private final Consumer<? super T> reset;
    /** Whether a destroy hook makes every take from a private slot a compare-and-set. */
    private final boolean exact;
    private final int maxIdle;
    final Stripe[] stripes;
    /** The stripes, and where takes and pushes look in them. */
    private final SharedTier tier;
    private final int mask;
    /**
     * Under {@link LeakDetection#SAMPLED}: the table and reporter of the tracked acquisitions,
     * else null. The engine decides which acquisitions to track itself, on its acquire path,
     * with a plain per-thread countdown, so that an acquisition that is not sampled calls no
     * wrapper and writes nothing shared.
     */
    final LeakDetectingPool<T> sampler;
    /** Under SAMPLED: which acquisitions to track; else null. */
    private final SampleCountdown<T> sampling;
    /** The making of slots, their registry and the lookup behind {@link #table}. */
    final ThreadSlots slots;
    /**
     * {@link ThreadSlots#table}, the thread-id table, which the fast paths read here: a thread
     * whose entry holds its own slot finds it with one array read. Final, and its entries read
     * plainly, on purpose (see {@link ThreadSlots#table}): the compiler may then share the walk
     * to the slot between an acquire and the release that follows it.
     */
    private final PrivateSlot[] table;
    /** Every private slot not yet reaped: {@link ThreadSlots#registry}. */
    final ConcurrentLinkedQueue<PrivateSlot> registry;
    /** What lets a thread keep an object in its private slot: see {@link SlotPermits}. */
    final SlotPermits permits;
    /** Counters of aging, close, reaped threads and the stripes' slow paths; atomic adds. */
    final long[] poolCounts = Counts.newArray();
    final UnboundedAging aging;

    volatile boolean closed;
    /** What each thread gave back last once the pool was closed (its slot is gone then). */
    private final ClosedPoolGiveBacks closedGiveBacks = new ClosedPoolGiveBacks();
    /** Written only by {@link UnboundedAging}, which never runs twice at once for one pool. */
    volatile int epoch;

    UnboundedPool(PoolSettings<T> settings) {
        this.name = settings.name;
        this.hooks = settings.hooks;
        this.reset = hooks.reset;
        this.exact = hooks.destroy != null;
        this.maxIdle = settings.maxIdle;
        this.aging = new UnboundedAging(this, settings.agingIntervalNanos, settings.trimAboveHeap,
                settings.leaks.level != LeakDetection.DISABLED);
        int n = settings.stripes;
        this.mask = n - 1;
        this.tier = new SharedTier(n, maxIdle);
        this.stripes = tier.stripes;
        this.permits = new SlotPermits(stripes, maxIdle);
        LeakSettings leaks = settings.leaks;
        this.sampler = leaks.samplerFor(this);
        this.sampling = sampler == null ? null : new SampleCountdown<>(sampler, leaks.interval);
        this.slots = new ThreadSlots(n, exact, hooks.slotHooks(), sampler, sampling);
        this.table = slots.table;
        this.registry = slots.registry;
        AgingClock.register(this);
    }

    // ---------------------------------------------------------------- acquire

    @Override
    @SuppressWarnings("unchecked")
    public T acquire() {
        Thread t = Thread.currentThread();
        PrivateSlot s = table[ThreadSlots.index(t)];
        if (s != null && s.owner == t) {
            Object x = s.item;
            if (x != null) {
                if (s.privateHits < s.fastUntil) {
                    s.item = null; // plain: see PrivateSlot
                    s.privateHits++;
                    return (T) x;
                }
                if (s.casTake && s.takeExact(x)) { // a destroy hook: see PrivateSlot
                    return (T) x;
                }
            } else if (s.spareTop > 0 && s.spareInline && (x = s.takeSpare()) != null) {
                return (T) x; // a thread holding several: its spare entries (not under sampling)
            }
        }
        return acquireSlow(t, s);
    }

    /** Everything but a plain private hit; split so that {@link #acquire()} stays small. */
    @SuppressWarnings("unchecked")
    private T acquireSlow(Thread t, PrivateSlot s) {
        if (s == null || s.owner != t) {
            if (Threads.VIRTUAL_THREADS && Threads.isVirtual(t)) {
                return acquireShared(Threads.stripeOf(t, mask), null, null);
            }
            if (closed) {
                throw UnboundedAging.closed(this, slots.fallback());
            }
            s = ownSlot(t);
        }
        Object x = s.take();
        if (x != null || (x = s.takeSpare()) != null) {
            return sampler == null ? (T) x : sampling.acquired(s, (T) x, true);
        }
        return acquireShared(s.home, s, null);
    }

    /** From the stripes, else the factory. Counts in {@code slot}, else in {@code shared}. */
    @SuppressWarnings("unchecked")
    private T acquireShared(int home, PrivateSlot slot, long[] shared) {
        if (closed) {
            throw UnboundedAging.closed(this, slot);
        }
        if (slot == null && shared == null) {
            shared = stripes[home].counts;
        }
        final int e = epoch;
        int counter = Counts.HIT_HOME;
        Object x = stripes[home].popYoung(e);
        if (x == null && (x = tier.steal(home, e)) != null) {
            counter = Counts.HIT_STOLEN;
        } else if (x == null && (x = tier.victim(home, e)) != null) {
            counter = Counts.HIT_VICTIM;
        }
        if (x == null) {
            x = hooks.create();
            UserHooks.count(slot, shared, Counts.CREATED);
            counter = Counts.MISS;
        }
        UserHooks.count(slot, shared, counter);
        if (slot != null && x == slot.lastShared) {
            slot.lastShared = null; // this thread holds it again: releasing it is no longer double
        }
        if (slot != null && slot.lastDropped != null && slot.droppedLast(x)) {
            slot.lastDropped = null; // a factory that made a dropped object anew
        }
        return sampler == null ? (T) x : sampling.acquired(slot, (T) x, false);
    }

    @Override
    public Lease<T> lease() {
        T x = acquire();
        return sampler != null && sampler.borrowedAndTracked(x)
                ? new TrackedLease<>(this, x)
                : new Lease<>(this, x);
    }

    // ---------------------------------------------------------------- release

    @Override
    public void release(T object) {
        if (object == null) {
            throw ReleaseChecks.nullObject("release", name);
        }
        Thread t = Thread.currentThread();
        PrivateSlot s = table[ThreadSlots.index(t)];
        if (s != null && s.owner == t) {
            Object cur = s.item;
            int f; // an empty slot, not a double release, a permit:
            if (cur == null && object != s.lastShared && (f = s.fastPut) != PrivateSlot.NO_FAST_PUT) {
                if (f == PrivateSlot.PLAIN_PUT || f == PrivateSlot.SAMPLED_PUT && s.leaks.isEmpty()) {
                    s.putPlain(object); // no hook, no tracker out
                    return;
                }
                if (f >= PrivateSlot.RESET_PUT) {
                    releaseFast(s, object, f);
                    return;
                }
            }
            releaseChecked(s, object);
            return;
        }
        releaseSlow(t, object);
    }

    /**
     * The fast path of a release with a reset hook, a destroy hook or both, to the caller's own
     * empty slot, which it may use (a permit) and which does not hold the object already (the
     * caller checked; with a spare entry full {@link PrivateSlot#fastPut} is closed). Runs the reset
     * hook, then puts: plainly, or by compare-and-set followed by the closed check of the close
     * handshake when a destroy hook makes the slot {@link PrivateSlot#exact}. The slot is read
     * again after the hook, which may have re-entered the pool and filled it, or given the object
     * itself back (to a stripe: {@code lastShared}; dropped: {@link PrivateSlot#recordDropped}
     * closes the fast path, so {@code fastPut} changed); then the object goes where
     * {@link #releaseOwn} sends it, or is refused there ({@link ReleaseChecks#givenBackInHooks}).
     */
    private void releaseFast(PrivateSlot s, T object, int f) {
        if (f != PrivateSlot.EXACT_PUT) {
            try {
                reset.accept(object);
            } catch (Throwable e) {
                hooks.resetFailed(object, s, e);
                return;
            }
        }
        if (f == PrivateSlot.RESET_PUT) {
            if (s.item == null && object != s.lastShared && s.fastPut == f) {
                s.putPlain(object);
                return;
            }
        } else if ((f == PrivateSlot.EXACT_PUT || object != s.lastShared && s.fastPut == f) && s.put(object)) {
            // Dekker with close(), as in releaseOwn.
            if (closed && s.takeFromOutside(object)) {
                UserHooks.rethrowVmError(hooks.dropGivenBack(object, s));
            }
            return;
        }
        releaseOwn(s, object);
    }

    /** Destroys {@code object} instead of pooling it; a rare path, counted like the slow ones. */
    @Override
    public void invalidate(T object) {
        if (object == null) {
            throw ReleaseChecks.nullObject("invalidate", name);
        }
        if (sampler != null && !sampler.nothingTracked()) {
            sampler.releasedSampled(object, "invalidate");
        }
        Thread t = Thread.currentThread();
        PrivateSlot s = table[ThreadSlots.index(t)];
        if (s == null || s.owner != t) {
            // A collision: the thread's own slot, checked as a release checks it. A virtual
            // thread (no slot) or a closed pool: counted in the pool's counters.
            s = closed || Threads.VIRTUAL_THREADS && Threads.isVirtual(t) ? null : ownSlot(t);
        }
        if (s != null ? ReleaseChecks.twice(stripes, s, s.item, object)
                : closed && givenBackAroundClose(object)) {
            throw ReleaseChecks.givenBackTwice(name, "invalidate", object, ReleaseChecks.SAME_THREAD_ONLY);
        }
        hooks.invalidated(object, s, poolCounts);
    }

    /** A release to the caller's own slot that is not a plain put (see {@link PrivateSlot#fastPut}). */
    private void releaseChecked(PrivateSlot s, T object) {
        Object cur = s.item;
        if (s.fastPutOnPermit == PrivateSlot.PLAIN_PUT && cur != null && s.spareHasRoom()
                && !ReleaseChecks.twice(stripes, s, cur, object)) {
            s.putSpare(object); // no hook, no tracker: nothing runs between the checks and the put
            return;
        }
        // First: its report of a double release is richer.
        boolean tracked = sampler != null && sampling.releasedTracked(s, object);
        if (ReleaseChecks.twice(stripes, s, s.item, object)) {
            throw ReleaseChecks.givenBackTwice(name, "release", object, ReleaseChecks.SAME_THREAD_ONLY);
        }
        if (s.lastDropped != null) {
            s.forgetDropped(); // this give-back is not the dropped one's second
        }
        if (reset == null || hooks.resetOrDrop(object, s, null)) {
            if (tracked) {
                // Closed again: an acquire nested in a hook rebased the countdown and reopened
                // the fast path, which must not hand out an object whose tracker is in the table.
                s.fastUntil = Long.MIN_VALUE;
            }
            releaseOwn(s, object);
        }
    }

    /** A release that did not find its slot in the table: virtual thread, collision, closed. */
    private void releaseSlow(Thread t, T object) {
        boolean virtual = Threads.VIRTUAL_THREADS && Threads.isVirtual(t);
        if (!virtual && !closed) {
            releaseChecked(ownSlot(t), object);
            return;
        }
        if (sampler != null && !sampler.nothingTracked()) {
            sampler.releasedSampled(object, "release");
        }
        if (closed && givenBackAroundClose(object)) { // its destroy hook must not run twice
            throw ReleaseChecks.givenBackTwice(name, "release", object, ReleaseChecks.SAME_THREAD_ONLY);
        }
        if (virtual) {
            releaseVirtual(t, object);
            return;
        }
        Counts.add(poolCounts, Counts.RELEASED, 1); // closed
        if (reset == null || hooks.resetOrDrop(object, null, poolCounts)) {
            UserHooks.rethrowVmError(hooks.drop(object, null, poolCounts));
        }
    }

    /**
     * After close, where the thread's slot is no longer in the table: whether the calling thread
     * gave {@code x} back last, and it was dropped, before close (its slot's record, found through
     * the slot's {@code ThreadLocal}) or since (recorded here).
     */
    private boolean givenBackAroundClose(Object x) {
        PrivateSlot own = slots.fallback();
        return own != null && own.droppedLast(x) || closedGiveBacks.again(x);
    }

    /** A virtual thread's release: to its stripe, counted there (it has no private slot). */
    private void releaseVirtual(Thread t, T object) {
        int home = Threads.stripeOf(t, mask);
        long[] shared = stripes[home].counts;
        Counts.add(shared, Counts.RELEASED, 1);
        if (reset == null || hooks.resetOrDrop(object, null, shared)) {
            if (closed || pushAt(object, home, epoch) < 0) {
                UserHooks.rethrowVmError(hooks.drop(object, null, shared));
            }
        }
    }

    /**
     * Runs a virtual thread's acquire and release paths on the calling thread, whatever its
     * kind, twice (a creation, then a reuse from the stripe); for {@link Rehearsal}. Under
     * sampled leak detection the release marks the tracker as {@link #releaseSlow} does, so that
     * no object goes back to the pool with a tracker that says it is still out.
     */
    void rehearseVirtualPaths() {
        Thread t = Thread.currentThread();
        for (int i = 0; i < 2; i++) {
            T x = acquireShared(Threads.stripeOf(t, mask), null, null);
            if (sampler != null && !sampler.nothingTracked()) {
                sampler.releasedSampled(x, "release");
            }
            releaseVirtual(t, x);
        }
    }

    /**
     * After the reset: into the private slot if it is empty and this thread may put there (a
     * permit, borrowed at the first release that wants one), else to the stripes.
     *
     * <p>Reads the slot here, after the user's hooks, never before them: a reset or
     * {@code retainIf} hook may re-enter the pool, and its nested release may have filled the
     * slot or a spare entry since the caller's double-release check read them. Nothing between this
     * read and the put runs user code, and only this thread writes a non-null value to its slot.
     */
    private void releaseOwn(PrivateSlot s, Object x) {
        if (ReleaseChecks.givenBackInHooks(s, x)) {
            // Pooled or destroyed already by a release or invalidate nested in this one's hook:
            // pooling it again would leave it idle twice, or hand out a destroyed object.
            throw ReleaseChecks.givenBackTwice(name, "release", x, ReleaseChecks.SAME_THREAD_ONLY);
        }
        if (s.item == null && (s.mayPut || permits.tryLend(s, epoch))) {
            if (s.put(x)) {
                // Dekker with close(): put (a CAS in exact mode) then read the flag; close writes
                // the flag then reads the slot. One of the two sees the other.
                if (s.exact && closed && s.takeFromOutside(x)) {
                    UserHooks.rethrowVmError(hooks.dropGivenBack(x, s));
                }
                s.spareHolesChecked();
                return;
            }
        } else if (s.item != null && (s.spareHasRoom() || s.mayAskSpare() && permits.tryLend(s, epoch))) {
            int i = s.putSpare(x); // like a put: see PrivateSlotFields#spares
            // Dekker with close(), as above: putSpare's volatile write, then the flag.
            if (s.exact && closed && s.takeSpareFromOutside(i, x)) {
                UserHooks.rethrowVmError(hooks.dropGivenBack(x, s));
            }
            return;
        }
        s.sharedReleases++;
        long at = pushAt(x, s.home, epoch);
        if (at < 0) {
            UserHooks.rethrowVmError(hooks.dropGivenBack(x, s)); // every stripe full (maxIdle), or the pool closed
            return;
        }
        s.lastShared = x;
        s.lastSharedStripe = SharedTier.stripeIndex(at);
        s.lastSharedIndex = SharedTier.slot(at);
    }

    /**
     * Pushes {@code x} to the first stripe with room from {@code home} on; if the pool closed
     * meanwhile, takes it back and destroys it.
     *
     * @return where it went ({@link SharedTier#push}), or -1 if every stripe was full and
     *         {@code x} is still the caller's
     */
    long pushAt(Object x, int home, int stamp) {
        long at = tier.push(x, home, stamp);
        if (at >= 0 && closed && tier.stripe(at).takeBack(SharedTier.slot(at), x)) {
            UserHooks.rethrowVmError(hooks.drop(x, null, poolCounts));
        }
        return at;
    }

    // ---------------------------------------------------------------- slots

    /** The calling platform thread's slot when its table entry is not its own: made on first use. */
    private PrivateSlot ownSlot(Thread t) {
        PrivateSlot s = slots.fallback();
        if (s == null || s.reaped != 0) {
            s = slots.newSlot(t, this);
        }
        return s;
    }

    /** The value of the calling thread's {@code ThreadLocal} entry, as the thread holds it. */
    Object threadLocalValue() {
        return slots.threadLocalValue();
    }

    // ---------------------------------------------------------------- aging

    /** The aging state, for a test's failure report. */
    @Override
    public String describeAging() {
        return aging.describe();
    }

    /** Called by the {@link AgingClock} after each garbage collection; see {@link UnboundedAging}. */
    @Override
    public void onGarbageCollection(long now) {
        aging.onGarbageCollection(now);
    }

    /** The table's entries that hold a slot; for the tests of close's handshake with newSlot. */
    int enteredSlots() {
        return slots.enteredSlots();
    }

    // ---------------------------------------------------------------- close, stats

    /**
     * Closes the pool: every idle object is destroyed now, on this thread, under no lock. Every
     * object is taken out by compare-and-set, so a concurrent aging cycle, release or second
     * close never destroys one twice. If a destroy hook throws a {@link VirtualMachineError},
     * close still finishes the work and then rethrows the first one; calling close again
     * destroys whatever a racing release left behind.
     */
    @Override
    public void close() {
        boolean first = !closed;
        closed = true;
        slots.emptyTable(); // the fast paths' closed check: see ThreadSlots#emptyTable
        UnboundedAging.sweepClosed(this, first);
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String name() {
        return name;
    }

    /** Sums the counters; see {@link UnboundedStats}. */
    @Override
    public PoolStats stats() {
        PoolStats stats = UnboundedStats.of(this, aging.counting, name, maxIdle, aging.cycles(), exact)
                .withTrims(aging.trims());
        return sampler == null ? stats : stats.withLeaks(sampler.leakCount());
    }

    @Override
    public String toString() {
        return "UnboundedPool[" + name + (closed ? ", closed" : "")
                + (sampler != null ? ", leak detection sampled 1/" + sampling.interval : "")
                + ", maxIdle=" + maxIdle
                + ", stripes=" + stripes.length + "]";
    }

    // ---------------------------------------------------------------- for tests in this package

    Stripe[] stripes() {
        return stripes;
    }
}
