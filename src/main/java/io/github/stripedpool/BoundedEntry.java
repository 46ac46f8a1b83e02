package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;

/**
 * One of the {@code maxTotal} places of a {@link BoundedPool}: empty, or holding one live object.
 *
 * <p>States. FREE, IDLE, BORROWED, RESERVED: what each means, every transition (each a
 * method of {@link BoundedStates}, the one owner of the state machine) and the handshakes are in
 * {@link BoundedStates}'s comment. Here, only how: {@link #state} changes by compare-and-set,
 * or by a volatile write ({@link #set}) from the one thread that owns the entry in a state no
 * other thread may leave (RESERVED, or BORROWED by it). The same int counts the entry's lives
 * above its two state bits: each time the entry becomes FREE ({@link #freed}) the count moves
 * on, so that a thread that read the word during one object's life and acts on it later (leak
 * reclaiming, which reads the state, then the object's weak reference, then CASes) cannot act
 * on the next object's (see {@link BoundedStates#reclaim}). Every other CAS compares the state
 * bits only.
 *
 * <p>{@link #item}, {@link #ref} and {@link #stamp} are plain: each is written by the owner of the entry
 * before the volatile write or CAS that gives the entry up, and read by the next owner after the
 * CAS that takes it, which orders them. {@link #item} holds the object strongly only while the
 * pool holds it (IDLE, or RESERVED by the pool); while BORROWED it is null, so that an object
 * its borrower drops becomes garbage, which is how leaked objects are found (see
 * {@link BoundedStates#reclaim}). The object's identity is kept by {@link #ref}, a weak
 * reference made once per object. The stack links {@code nextIdle} and {@code nextFree} are plain
 * too, but read racily by poppers of {@link BoundedEntryTable}: each is written only by the one
 * thread that pushes the entry on that kind of stack (the {@code idleQueued} flag, or ownership
 * of a FREE entry, makes it one), before the CAS on the head that publishes it, and a popper
 * that read a stale link fails its CAS on the versioned head. The other fields are volatile:
 * {@code idleQueued} (the idle stacks' membership flag, see {@link BoundedEntryTable}) and
 * {@code borrow} (read by maintenance while the entry is borrowed, see
 * {@link BoundedHeldTooLong}).
 *
 * <p>Where an entry is found. FREE entries are in the table's free stack (or about to be pushed
 * by, or popped by, their owner); IDLE ones are in one of its idle stacks, or about to be pushed
 * by their publisher, or held by a taker that will try to take them; the table's comment proves
 * both. An idle stack may also hold stale entries, in any state, which takers drop.
 *
 * <p>Padding. Entries are allocated together and written by CAS on every acquire and release,
 * often by different threads: each has {@link PadHead}'s 128 bytes before its fields and 128 of
 * its own after them, so two entries used by two threads never share a cache line (nor an
 * adjacent-line pair), nor does an entry with whatever is allocated next to it.
 * {@code BoundedPaddingTest} checks both distances with JOL.
 */
final class BoundedEntry extends BoundedEntryFields {
    static final int FREE = 0;
    static final int IDLE = 1;
    static final int BORROWED = 2;
    static final int RESERVED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(BoundedEntryFields.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

    BoundedEntry(int index) {
        super(index);
    }

    /** The low bits of {@link #word()}: the state. */
    static final int STATE_MASK = 3;
    /** What {@link #freed()} adds to the word: one more life begins. */
    private static final int ONE_LIFE = STATE_MASK + 1;

    /** FREE, IDLE, BORROWED or RESERVED. */
    int state() {
        return state & STATE_MASK;
    }

    /** The state of a {@link #word()}. */
    static int stateOf(int word) {
        return word & STATE_MASK;
    }

    /**
     * The state and the entry's life: the bits above {@link #STATE_MASK} count the times the
     * entry became FREE, so a word read while one object lived in the entry never equals a word
     * of a later object's life (until the count wraps, after 2^30 objects in one entry).
     */
    int word() {
        return state;
    }

    /** CAS of the state from {@code from} to {@code to}, in whatever life the entry is. */
    boolean cas(int from, int to) {
        int w = state;
        return (w & STATE_MASK) == from && STATE.compareAndSet(this, w, w - from + to);
    }

    /**
     * CAS to {@code to} only if the entry is still in the word {@code seen}: same state, same
     * life. Fails if its object was destroyed since, even if a new object is now in the same
     * state (see {@link BoundedStates#reclaim}).
     */
    boolean casWord(int seen, int to) {
        return STATE.compareAndSet(this, seen, (seen & ~STATE_MASK) | to);
    }

    /** Volatile write of the state, in the same life; only by the thread that owns the entry. */
    void set(int to) {
        state = (state & ~STATE_MASK) | to;
    }

    /** Volatile write of FREE, beginning the entry's next life; only by its owner (RESERVED). */
    void freed() {
        state = (state & ~STATE_MASK) + ONE_LIFE; // FREE is 0; the count may wrap: it only has to differ
    }

    /**
     * Counts one {@code counter} event of a virtual thread that owns this entry (see
     * {@link BoundedEntryFields#virtualReleased}).
     */
    void countVirtual(int counter) {
        switch (counter) {
            case Counts.RELEASED: virtualReleased++; break;
            case Counts.HIT_HOME: virtualHomeHits++; break;
            case Counts.HIT_STOLEN: virtualStolenHits++; break;
            case Counts.MISS: virtualMisses++; break;
            default: throw new IllegalArgumentException("not a virtual thread's counter: " + counter);
        }
    }

    /** Adds this entry's virtual threads' counters to {@code sums} (racy reads). */
    void sumVirtualInto(long[] sums) {
        sums[Counts.RELEASED] += virtualReleased;
        sums[Counts.HIT_HOME] += virtualHomeHits;
        sums[Counts.HIT_STOLEN] += virtualStolenHits;
        sums[Counts.MISS] += virtualMisses;
    }

    /** Whether {@code x} is this entry's current object. */
    boolean holds(Object x) {
        ObjectRef r = ref;
        return r != null && r.refersTo(x);
    }

    /**
     * The identity of one object, made when it is created and dropped when it is destroyed, so
     * that facts about the object cannot be confused with facts about the entry's next object.
     */
    static final class ObjectRef extends WeakReference<Object> {
        /** {@code System.nanoTime()} at creation; 0 when the pool has no maxLifetime. */
        final long createdNanos;
        /** The object's identity hash: where {@link BoundedIndex} files it, even once it is garbage. */
        final int hash;

        ObjectRef(Object x, long createdNanos) {
            super(x);
            this.createdNanos = createdNanos;
            this.hash = System.identityHashCode(x);
        }
    }
}

/** The fields, between {@link PadHead} and the tail padding of {@link BoundedEntry}. */
abstract class BoundedEntryFields extends PadHead {
    final int index;
    /** Read and written through {@link BoundedEntry}'s methods only. */
    volatile int state;
    /** The object while the pool holds it; null while borrowed or free. */
    Object item;
    /** The current object's identity and per-object facts; null while free. */
    BoundedEntry.ObjectRef ref;
    /**
     * The maintenance epoch of the last release (see {@link BoundedMaintenance}, idle time): a
     * long, so that no number of runs wraps it. Maintenance also reads it racily, before its
     * claiming CAS, to pick candidates; a JVM that may split a plain long's write could show it
     * a torn value there, which costs at most a needless claim or a period's delay: the check it
     * makes as the owner, after the CAS, decides.
     */
    long stamp;
    /**
     * The current borrowing's acquisition site and time; only in a pool that reports objects
     * held too long (see {@link BoundedHeldTooLong} for how it is read and written).
     */
    volatile BoundedHeldTooLong.Borrow borrow;
    /**
     * 1 while in an idle stack of {@link BoundedEntryTable} (see there for exactly when): set by
     * CAS before a push, cleared by a volatile write after a pop.
     */
    volatile int idleQueued;
    /** The entry below this one in its idle stack, as index + 1 (0: none); see {@link BoundedEntryTable}. */
    int nextIdle;
    /** The entry below this one in the free stack, as index + 1 (0: none). */
    int nextFree;
    /**
     * Virtual threads' counters of the acquisitions and releases of this entry's objects (a
     * virtual thread has no {@code Local} of its own to count in, see {@link BoundedThreads}):
     * plain, each written only by the thread that owns the entry (BORROWED by it, or RESERVED),
     * after the CAS that made it the owner and before the volatile write or CAS that gives the
     * entry up, so the writes of successive owners are ordered and none is lost; read racily by
     * {@link Pool#stats()}. They belong to the place, not to one object: they outlive it.
     */
    long virtualReleased, virtualHomeHits, virtualStolenHits, virtualMisses;

    BoundedEntryFields(int index) {
        this.index = index;
    }
}
