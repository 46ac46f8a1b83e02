package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A platform thread's own slot in one pool: an idle object and up to {@link #SPARES} more in
 * its spare entries; the thread's counters and
 * its home stripe. Found through the pool's thread-id table (or its {@code ThreadLocal} when the
 * table entry belongs to another thread), and through the pool's registry by aging, close and
 * {@code stats()}.
 *
 * <p>Who writes {@link #item}. Only the owner ever writes a non-null value ({@link #put}). A
 * value goes from {@code x} to null when the owner takes it ({@link #take}) or when a third
 * party (aging, close, {@code stats()} of a closed pool) takes it with {@link #takeFromOutside},
 * a compare-and-set from the object it read, so that a third party never erases an object put
 * after it looked: a CAS from {@code x} succeeds only while {@code x} itself is in the slot.
 *
 * <p>The spare entries ({@link #spares}, a magazine of {@link #SPARES}) follow the same rules
 * entry by entry, in both modes below: owner-only non-null writes ({@link #putSpare}), takes by
 * the owner ({@link #takeSpare}, once the slot's own object is out; plain, or by compare-and-set
 * in an exact slot), compare-and-set takes by third parties, which only forget what they take
 * from a live owner's plain slot and destroy what they take from an exact one. The owner fills
 * them as a stack: entries from {@link #spareTop} up are null, because only the owner writes
 * non-null and it writes at {@code spareTop} only; entries below may be null too where a third
 * party forgot an object (a hole, skipped by the owner's next takes). Each entry holds one of the
 * slot's permits ({@link #spareCap} of them), so idle objects stay within {@code maxIdle}. While
 * any entry may be full ({@code spareTop > 0}) the release fast path is closed ({@link #fastPut}),
 * so that a second release of a spare's object always meets the checked path, which compares
 * with every entry below {@code spareTop}: at most {@link #SPARES} reads. Aging ages each entry
 * by its own put count ({@link #sparePuts}).
 *
 * <p>Two modes, fixed when the slot is made ({@link #exact}):
 * <ul>
 *   <li><b>Plain</b> (a pool without a destroy hook). The owner takes with a plain read and a
 *       plain write of null, and puts with a release store: no atomic instruction. A third party
 *       only <em>forgets</em> what it takes from the slot of a live owner (it drops the pool's
 *       reference and counts it), and never hands it out or destroys it, so if the owner took
 *       the same object at the same instant, the owner simply keeps using it: nothing is ever
 *       used after being destroyed, because nothing is destroyed. The only trace of that race
 *       is in the counters: the object counts as dropped although its owner got it (the owner
 *       counts its hit, and later its release, as always). The objects
 *       of a dead owner are reused (put back in the stripes); that is safe because
 *       {@code Thread.isAlive()} returning false orders every write of the dead owner before
 *       the reader.</li>
 *   <li><b>Exact</b> (a pool with a destroy hook). A third party destroys what it takes, so the
 *       owner's take must exclude it: it is a compare-and-set. On the JVM there is no way
 *       around a read-modify-write or a store-load fence on the owner's side for that
 *       ("Laws of Order", Attiya et al., POPL 2011; asymmetric fences through safepoints are not
 *       sound, and biased locking is gone, JEP 374). The put is a compare-and-set too, because
 *       the close handshake needs a store-load order: the releaser publishes its object and
 *       then reads the closed flag, close sets the flag and then reads the slot (a Dekker pair),
 *       so that one of them sees the other and the object is destroyed exactly once.</li>
 * </ul>
 *
 * <p>Counters are plain fields written by the owner only. The fast path counts its hit
 * ({@link #privateHits}) and its put ({@link #puts}), each with one plain increment of a field on
 * the owner's own cache line. {@link Pool#stats()} reads the fields racily; every 64-bit JVM writes an
 * aligned {@code long} in one instruction, so a reader sees an old or a new value, never a torn
 * one. {@link #puts} also tells aging whether the slot was used since its last cycle: an object
 * in a slot whose puts did not move through a whole cycle has been idle that long.
 */
final class PrivateSlot extends PrivateSlotFields {
    long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

    private static final VarHandle ITEM;
    private static final VarHandle SPARE = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle REAPED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ITEM = l.findVarHandle(PrivateSlotFields.class, "item", Object.class);
            REAPED = l.findVarHandle(PrivateSlotFields.class, "reaped", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    PrivateSlot(Thread owner, int home, boolean exact) {
        this(owner, home, exact, null, HOOKS_NONE);
    }

    /**
     * @param leaks the table of sampled leak detection, or null
     * @param hooks the release hooks the pool has: {@link #HOOKS_NONE}, {@link #HOOKS_RESET}
     *        (a reset hook and no {@code retainIf}) or {@link #HOOKS_RETAIN} (a {@code retainIf})
     */
    PrivateSlot(Thread owner, int home, boolean exact, LeakTable leaks, int hooks) {
        super(owner, home, exact, leaks, hooks);
    }

    /** The owner was lent a permit: it may keep an object here from now on. */
    void permitted() {
        mayPut = true;
        fastPut = fastPutOnPermit;
    }

    /** The owner takes its object, or gets null if the slot is empty (or was just emptied). */
    Object take() {
        Object x = item;
        if (x == null) {
            return null;
        }
        if (!exact) {
            item = null; // plain: a third party only forgets, see the class comment
            privateHits++;
            return x;
        }
        return takeExact(x) ? x : null;
    }

    /**
     * The owner takes {@code x}, which it read in {@link #item}, from its {@link #exact} slot:
     * a compare-and-set, because aging and close destroy what they take. Counts the hit.
     */
    boolean takeExact(Object x) {
        if (ITEM.compareAndSet(this, x, null)) {
            privateHits++;
            return true;
        }
        return false;
    }

    /**
     * The owner puts {@code x} in its slot, which it has just read empty with no user code run
     * since. Counts the put before publishing it, so that aging, which reads the object with
     * acquire, sees the count that goes with it.
     *
     * @return false, the slot unchanged and {@code x} still the caller's, if the slot was full
     *         after all (exact mode only; the caller then pools {@code x} elsewhere): a failed
     *         compare-and-set must never pass silently, or {@code x} would be lost
     */
    boolean put(Object x) {
        puts++;
        if (exact) {
            // Only the owner writes non-null, so this fails only if the caller's read of the
            // slot was stale: it re-reads after every hook (a re-entrant release may fill it).
            if (!ITEM.compareAndSet(this, null, x)) {
                puts--; // an extra count seen by aging meanwhile only means "used": harmless
                return false;
            }
            return true;
        }
        ITEM.setRelease(this, x);
        return true;
    }

    /** {@link #put} in a slot that is not {@link #exact}: the release fast path. */
    void putPlain(Object x) {
        puts++;
        ITEM.setRelease(this, x);
    }

    /**
     * The owner takes the object of its top full spare entry, or gets null. Skips holes that
     * third parties left; reopens the release fast path, which full spare entries close (see
     * {@link #putSpare}), once every entry is empty. In an {@link #exact} slot each take is a
     * compare-and-set, as {@link #takeExact} is for {@link #item}: a third party destroys what it
     * takes, and a failed take is a hole.
     */
    Object takeSpare() {
        Object x = null;
        int i = spareTop;
        while (i > 0 && x == null) {
            i--;
            x = spares[i];
            if (!exact) {
                spares[i] = null; // plain: a third party only forgets, as with item
            } else if (x != null && !SPARE.compareAndSet(spares, i, x, null)) {
                x = null; // aging or close took it, to destroy it
            }
        }
        spareTop = i;
        if (x != null) {
            privateHits++;
        }
        spareChecked();
        return x;
    }

    /**
     * The owner saw its spare entries empty (or emptied them): reopens the release fast path if
     * it holds a permit. Only the owner fills the entries, so entries it reads empty are empty.
     */
    void spareChecked() {
        if (fastPut != fastPutOnPermit && mayPut && spareTop == 0 && lastDropped == null) {
            fastPut = fastPutOnPermit; // a slot with hooks never opens it: nothing to write
        }
    }

    /**
     * {@link #spareChecked}, after the owner put into {@link #item} on the checked path: first
     * lowers {@link #spareTop} past the entries that third parties emptied at the top (aging
     * takes what sits idle there), so that a thread back to one object at a time, which never
     * takes from a spare entry again, reopens the release fast path once aging has emptied them
     * all. At most {@link #SPARES} reads, on a path the fast one did not take. An entry read empty
     * is empty: only the owner fills them.
     */
    void spareHolesChecked() {
        if (fastPut != fastPutOnPermit) {
            int top = spareTop;
            while (top > 0 && spares[top - 1] == null) {
                top--;
            }
            spareTop = top;
        }
        spareChecked();
    }

    /** Whether the owner may put into a spare entry now: one is empty under a permit it holds. */
    boolean spareHasRoom() {
        return spareTop < spareCap;
    }

    /** Whether the owner may ask for one more spare permit: it holds fewer than {@link #SPARES}. */
    boolean mayAskSpare() {
        return spareCap < SPARES;
    }

    /**
     * The owner puts {@code x} in its first empty spare entry ({@link #spareHasRoom} holds).
     * Closes the release fast path while an entry is full, so that the fast path, which checks
     * only {@link #item} and {@link #lastShared}, never takes a second release of a spare's
     * object; the checked path compares with the entries too ({@link #spareHolds}).
     *
     * <p>In an {@link #exact} slot the put is a volatile write, so that the caller's next read
     * of the pool's closed flag cannot come before it: the same handshake with close as
     * {@link #put}'s compare-and-set (only the owner writes a non-null value, and entries from
     * {@link #spareTop} up are null, so a compare-and-set could not fail here).
     *
     * @return the entry's index, for the caller's closed check
     */
    int putSpare(Object x) {
        int i = spareTop;
        sparePuts[i]++;
        fastPut = NO_FAST_PUT;
        if (exact) {
            SPARE.setVolatile(spares, i, x);
        } else {
            SPARE.setRelease(spares, i, x);
        }
        spareTop = i + 1;
        return i;
    }

    /** Whether {@code x} is idle in one of the owner's spare entries; owner only, bounded. */
    boolean spareHolds(Object x) {
        for (int i = spareTop - 1; i >= 0; i--) {
            if (spares[i] == x) {
                return true;
            }
        }
        return false;
    }

    /** The number of spare entries a third party looks at. */
    int spareEntries() {
        return SPARES;
    }

    /** Any thread (aging, close, stats of a closed pool) takes entry {@code i}'s {@code x}. */
    boolean takeSpareFromOutside(int i, Object x) {
        return SPARE.compareAndSet(spares, i, x, null);
    }

    /** Spare entry {@code i}'s object as a third party sees it. */
    Object peekSpare(int i) {
        return SPARE.getAcquire(spares, i);
    }

    /** Any thread (aging, close, stats of a closed pool) takes {@code x} if it is still there. */
    boolean takeFromOutside(Object x) {
        return ITEM.compareAndSet(this, x, null);
    }

    /** The slot's object as a third party sees it. */
    Object peek() {
        return ITEM.getAcquire(this);
    }

    /**
     * The owner gave {@code x} back and the pool dropped it (no room, a {@code retainIf} that
     * refused it, a reset that failed, an invalidation, a closed pool): a give-back of it next, on
     * this thread, is a second one. Closes the release fast path, which compares with
     * {@link #lastShared} only, so that the next release goes through the checked path: that one
     * compares with {@link #lastDropped}, then forgets it and reopens the fast path
     * ({@link #spareChecked}). Nothing on the fast paths pays for it. The pool never hands a
     * dropped object out again (unless a factory makes it anew: the acquire then forgets it).
     */
    void recordDropped(Object x) {
        java.lang.ref.WeakReference<Object> r;
        try {
            r = new java.lang.ref.WeakReference<>(x); // a drop allocates anyway: the next miss makes one
        } catch (OutOfMemoryError e) {
            r = null; // no record, rather than an object neither pooled nor destroyed
        }
        lastDropped = r;
        fastPut = NO_FAST_PUT;
    }

    /** Whether {@code x} is the object this thread gave back last and saw dropped. */
    boolean droppedLast(Object x) {
        java.lang.ref.WeakReference<Object> r = lastDropped;
        return r != null && r.get() == x;
    }

    /** The checked release passed its checks: the give-back after a drop is not a second one. */
    void forgetDropped() {
        lastDropped = null;
        spareChecked();
    }

    /** Claims the reaping of a dead owner's slot: true for exactly one caller. */
    boolean claimReap() {
        return REAPED.compareAndSet(this, 0, 1);
    }

    /**
     * Adds this slot's counters into {@code sums} (indexed like {@link Counts}). The releases are
     * read before the acquisitions, so that a snapshot taken while the owner cycles reads its
     * in-use count high rather than low.
     */
    void sumInto(long[] sums) {
        sums[Counts.DROPPED] += dropped;
        sums[Counts.RELEASED] += sharedReleases;
        long p = puts;
        if (sparePuts != null) {
            for (long n : sparePuts) {
                p += n;
            }
        }
        sums[Counts.PUTS] += p;
        VarHandle.acquireFence();
        sums[Counts.CREATED] += created;
        sums[Counts.HIT_PRIVATE] += privateHits;
        sums[Counts.HIT_HOME] += homeHits;
        sums[Counts.HIT_STOLEN] += stolenHits;
        sums[Counts.HIT_VICTIM] += victimHits;
        sums[Counts.MISS] += misses;
        sums[Counts.HOOK_FAILURE] += hookFailures;
        sums[Counts.INVALIDATED] += invalidated;
        sums[Counts.NOT_RETAINED] += notRetained;
    }

    /** Increments a counter; slow paths only. */
    void inc(int counter) {
        switch (counter) {
            case Counts.CREATED: created++; break;
            case Counts.DROPPED: dropped++; break;
            case Counts.RELEASED: sharedReleases++; break;
            case Counts.HIT_HOME: homeHits++; break;
            case Counts.HIT_STOLEN: stolenHits++; break;
            case Counts.HIT_VICTIM: victimHits++; break;
            case Counts.MISS: misses++; break;
            case Counts.HOOK_FAILURE: hookFailures++; break;
            case Counts.INVALIDATED: invalidated++; break;
            case Counts.NOT_RETAINED: notRetained++; break;
            default: throw new IllegalArgumentException("no slot counter " + counter);
        }
    }

    /** Whether the owner has terminated; its last write then happens-before this returning true. */
    boolean ownerDead() {
        return !owner.isAlive();
    }
}

/** The slot's fields, between {@link PadHead} and the tail padding of {@link PrivateSlot}. */
abstract class PrivateSlotFields extends PadHead {
    /** The idle object, or null. Plain field; the access mode is chosen at each access. */
    @jdk.internal.vm.annotation.Contended("slot")
    Object item;
    /** Whether third parties may destroy what they take, so the owner must use CAS. */
    final boolean exact;
    /**
     * No sampled leak detection ({@link #leaks} null). Read by the pool's acquire, which takes
     * from a spare entry inline only in such a slot (plainly, or by compare-and-set in an
     * {@link #exact} one): no tracked object to account for and no countdown to keep. The
     * release's fast path does not read it; it is open or closed through {@link #fastPut}.
     */
    final boolean spareInline;
    /** The pool's table of sampled leak detection, or null. */
    final LeakTable leaks;
    /**
     * The owner's acquire takes the plain fast path while {@link #privateHits} is below this
     * bound: never in an {@link #exact} slot ({@code Long.MIN_VALUE}), always in a plain one
     * ({@code Long.MAX_VALUE}); under sampled leak detection, up to the acquisition before the
     * next tracked one (see {@link SampleCountdown}). One read and one compare, like a flag, and
     * the sampling countdown costs the fast path nothing more. Owner only.
     */
    long fastUntil;
    /** Sampled leak detection: {@link #privateHits} when {@link #countdown} was last set. */
    long sampleBase;
    /** Sampled leak detection: the acquisition, counted from {@link #sampleBase}, to track. */
    long countdown;
    /** Whether this thread holds one of the pool's private-slot permits; owner only. */
    boolean mayPut;
    /** How many spare entries a slot has: with {@link #item}, 8 objects per thread. */
    static final int SPARES = 7;
    /**
     * Idle objects behind {@link #item}, one per spare permit the owner holds
     * ({@link #spareCap}): a thread that holds several objects at once cycles them here instead
     * of through a stripe. Written like {@link #item}: only the owner writes a non-null value, at
     * {@link #spareTop}; the owner takes with plain accesses (by compare-and-set in an
     * {@link #exact} slot), third parties by compare-and-set, and they only forget what they take
     * from a live owner's plain slot. Final, so a third party that reads the slot sees the array.
     */
    final Object[] spares;
    /** Entries from here up are null; owner only. */
    int spareTop;
    /** Spare permits this thread holds, one per usable entry; owner only, then the reaper. */
    int spareCap;
    /** For each spare permit, the index of the stripe whose capacity it reserved. */
    final int[] spareStripes;
    /** Aging epoch in which this thread was last refused a spare permit; owner only. */
    int spareTry = -1;
    /** Puts into each spare entry: counted as puts, and the entry's aging clock. Owner only. */
    final long[] sparePuts;
    /** Aging thread only: each entry's {@link #sparePuts} at the last cycle, and whether it was full. */
    final long[] agingSparePuts;
    final boolean[] agingSawSpare;
    /**
     * What the owner's release may do on its fast path, in one field so that the path reads
     * one flag rather than four: {@link #NO_FAST_PUT} until the thread holds a permit
     * ({@link #mayPut}), then {@link #fastPutOnPermit}. Owner only.
     */
    int fastPut;
    /**
     * {@link #fastPut} once a permit is lent. Without sampled leak detection: {@link #PLAIN_PUT}
     * (no hook), {@link #RESET_PUT} (a reset hook), {@link #EXACT_PUT} (a destroy hook),
     * {@link #EXACT_RESET_PUT} (both). Under sampled leak detection, {@link #SAMPLED_PUT} in a
     * slot without hooks (the release then also checks that no tracker is out). Else
     * {@link #NO_FAST_PUT}: a {@code retainIf} predicate, or hooks under sampling, take the
     * checked path.
     */
    final int fastPutOnPermit;
    static final int NO_FAST_PUT = 0;
    static final int PLAIN_PUT = 1;
    static final int SAMPLED_PUT = 2;
    /** The values from here on run a hook or a compare-and-set: see {@code UnboundedPool#releaseFast}. */
    static final int RESET_PUT = 3;
    static final int EXACT_PUT = 4;
    static final int EXACT_RESET_PUT = 5;
    /** Release hooks of a pool, as the slot's constructor takes them. */
    static final int HOOKS_NONE = 0;
    static final int HOOKS_RESET = 1;
    static final int HOOKS_RETAIN = 2;
    /**
     * Whether the owner's acquire takes an object from an {@link #exact} slot inline, by
     * compare-and-set ({@link #takeExact}): exact and no sampled leak detection, whose
     * acquisitions are counted down on the slow path.
     */
    final boolean casTake;
    /**
     * The object this thread last released to a stripe, until it acquires it back: a release of
     * the same object again is a double release. Written by the owner, and cleared by aging and
     * close once the object is no longer idle where it was pushed, so that it never keeps a
     * dropped object reachable (see {@link UnboundedAging}).
     */
    Object lastShared;
    /** Where {@link #lastShared} was pushed: the stripe's index and the slot's index in it. */
    int lastSharedStripe, lastSharedIndex;
    /**
     * The object this thread gave back last if the pool dropped it, until its next give-back:
     * a give-back of the same object then is a second one ({@link PrivateSlot#recordDropped}).
     * Kept apart from {@link #lastShared}, so that a drop never hides the record of the last
     * push, and weakly, so that it keeps nothing reachable (a dropped buffer of half the heap
     * included) and nobody needs to clear it: it outlives close, whose releases consult it.
     * Owner only.
     */
    java.lang.ref.WeakReference<Object> lastDropped;
    /** Owner-written counters. {@code privateHits} and {@code puts} are those of the fast path. */
    long privateHits, puts, sharedReleases, created, dropped, homeHits, stolenHits, victimHits,
            misses, hookFailures, invalidated, notRetained;
    /** Aging epoch in which this thread last tried for a permit; owner only. */
    int permitTry = -1;
    /** Index of the stripe whose capacity this slot's permit reserved, or -1. Owner, then reaper. */
    int permitStripe = -1;
    final int home;
    /**
     * Strong, so that the pool's thread-id table can tell its entry's owner by identity; a dead
     * thread's slot is reaped by the next thread that starts using the pool, or by aging.
     */
    final Thread owner;
    /** Aging thread only: {@link #puts} at the last cycle, and whether an object was there. */
    long agingPuts = -1;
    boolean agingSawItem;
    /** 0 until the slot of a dead owner is reaped; claimed by CAS. */
    volatile int reaped;

    PrivateSlotFields(Thread owner, int home, boolean exact, LeakTable leaks, int hooks) {
        this.owner = owner;
        this.home = home;
        this.exact = exact;
        this.leaks = leaks;
        this.spareInline = leaks == null;
        this.casTake = exact && leaks == null;
        this.fastPutOnPermit = fastPutOnPermit(exact, leaks != null, hooks);
        this.fastUntil = !exact && leaks == null ? Long.MAX_VALUE : Long.MIN_VALUE;
        this.spares = new Object[PrivateSlot.SPARES];
        this.spareStripes = new int[PrivateSlot.SPARES];
        this.sparePuts = new long[PrivateSlot.SPARES];
        this.agingSparePuts = new long[PrivateSlot.SPARES];
        java.util.Arrays.fill(this.agingSparePuts, -1);
        this.agingSawSpare = new boolean[PrivateSlot.SPARES];
    }

    private static int fastPutOnPermit(boolean exact, boolean sampled, int hooks) {
        if (hooks == HOOKS_RETAIN) {
            return NO_FAST_PUT;
        }
        boolean reset = hooks == HOOKS_RESET;
        if (sampled) {
            return exact || reset ? NO_FAST_PUT : SAMPLED_PUT;
        }
        if (exact) {
            return reset ? EXACT_RESET_PUT : EXACT_PUT;
        }
        return reset ? RESET_PUT : PLAIN_PUT;
    }
}
