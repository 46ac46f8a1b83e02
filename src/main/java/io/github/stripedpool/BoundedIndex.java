package io.github.stripedpool;

import java.util.concurrent.locks.ReentrantLock;

/**
 * Finds the {@link BoundedEntry} that holds a given object, for the release of an object that
 * is not the releasing thread's last one: an open-addressing hash table from the object's
 * identity hash to its entry, so that such a release costs a hash and, on average, one or two
 * probes, whatever maxTotal is and however many objects the thread holds. It replaces a scan of
 * every entry.
 *
 * <p>Structure. {@link #slots} is a power-of-two array of entries (or {@link #REMOVED}, or
 * null), probed linearly from the slot the object's {@link System#identityHashCode identity hash}
 * picks. An entry is put in when its object is created ({@link BoundedStates#make}) and taken out
 * when the object is destroyed or reclaimed ({@link BoundedStates#destroy}, {@link BoundedStates#reclaim}), at the slot of the hash
 * recorded in the object's {@link BoundedEntry.ObjectRef}, so that a collected object can still
 * be taken out. A lookup confirms a candidate with {@link BoundedEntry#holds}, which compares the
 * entry's current object by identity, so an entry that moved on to another object is never
 * mistaken for the old one's.
 *
 * <p>Invariants. Writers take {@link #lock}, which guards only array writes and never user
 * code. In one array a slot goes from null to an entry, from an entry to {@link #REMOVED} or
 * back to an entry, and never back to null: removal leaves a tombstone, and only a rehash into a
 * new array, published by the volatile write of {@code slots}, clears tombstones; an array, once
 * replaced, is never written again. Non-null slots (entries and tombstones) stay at most half of
 * the array, so every probe sequence ends at a null slot.
 *
 * <p>Why a lock-free lookup finds its object. A thread releases an object it was handed: its
 * entry was put in before the object was handed out, and the hand-out (the creator's own
 * program order, or the CAS {@code IDLE -> BORROWED} after the volatile write that made it idle)
 * orders that insertion, and every write to {@code slots} before it, before the lookup. The
 * lookup reads {@code slots} after that, so it sees the array the entry went into, or a later
 * one that a rehash filled with every live entry; in that array the slots between the hash's
 * home and the entry were non-null before the insertion and stay non-null, so the probe reaches
 * the entry. Plain reads of slots may see other slots stale; a stale slot is another object's,
 * and {@code holds} rejects it.
 *
 * <p>Cost. No allocation on lookup; a lookup reads the object's identity hash (kept in its
 * header after the first call) and, on average, fewer than two slots at the load kept here.
 * Memory: one reference per slot, between two and eight slots per live object. Create and
 * destroy take the lock for a few writes, plus, now and then, a rehash in proportion to the
 * live objects.
 */
final class BoundedIndex {
    /** The tombstone of a removed entry: keeps probe sequences through its slot intact. */
    private static final BoundedEntry REMOVED = new BoundedEntry(-1);
    /** Slots of a new pool's index: twice {@link BoundedEntryTable#INITIAL} entries. */
    private static final int INITIAL_SLOTS = 2 * BoundedEntryTable.INITIAL;

    private final ReentrantLock lock = new ReentrantLock();
    /** See the class comment; replaced under {@link #lock}, read without it. */
    private volatile BoundedEntry[] slots = new BoundedEntry[INITIAL_SLOTS];
    /** Non-null slots of {@link #slots}, tombstones included; under {@link #lock}. */
    private int used;
    /** Entries in {@link #slots}; under {@link #lock}. */
    private int size;

    /**
     * The entry that holds {@code x} now, or null if none does. It returns the entry it checked,
     * never the slot read again: between the two reads a removal may have left its tombstone
     * there ({@code BoundedIndexLookupVsRehashRace} saw {@link #REMOVED} come back that way). The
     * probe is {@link #indexOf}'s, step for step.
     */
    BoundedEntry find(Object x) {
        BoundedEntry[] s = slots;
        int mask = s.length - 1;
        for (int i = home(System.identityHashCode(x), mask); ; i = (i + 1) & mask) {
            BoundedEntry e = s[i];
            if (e == null) {
                return null;
            }
            if (e.holds(x)) {
                return e;
            }
        }
    }

    /**
     * The slot of the entry that holds {@code x}, or, if none does, {@code -1 - k} where
     * {@code k} is the null slot that ended the probe: the probe of {@link #find}, for
     * {@link #probes}, so that what a test counts is what a release does.
     */
    private static int indexOf(BoundedEntry[] s, Object x) {
        int mask = s.length - 1;
        for (int i = home(System.identityHashCode(x), mask); ; i = (i + 1) & mask) {
            BoundedEntry e = s[i];
            if (e == null) {
                return -1 - i;
            }
            if (e.holds(x)) {
                return i;
            }
        }
    }

    /** Fibonacci hashing: spreads identity hashes that differ in their high bits only. */
    private static int home(int hash, int mask) {
        return (hash * 0x9E3779B9) >>> 7 & mask;
    }

    /** Puts {@code e} in; its {@code ref} is already its new object's. */
    void add(BoundedEntry e) {
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            BoundedEntry[] s = slots;
            if (2 * (used + 1) > s.length) {
                s = rehash(s);
            }
            int mask = s.length - 1;
            int i = home(e.ref.hash, mask);
            while (s[i] != null && s[i] != REMOVED) {
                i = (i + 1) & mask;
            }
            if (s[i] == null) {
                used++;
            }
            s[i] = e;
            size++;
        } finally {
            lock.unlock();
        }
    }

    /** Takes {@code e} out, before its {@code ref} is dropped; a no-op if it is not in. */
    void remove(BoundedEntry e) {
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            BoundedEntry[] s = slots;
            int mask = s.length - 1;
            for (int i = home(e.ref.hash, mask); s[i] != null; i = (i + 1) & mask) {
                if (s[i] == e) {
                    s[i] = REMOVED;
                    size--;
                    return;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * A new array with every entry of {@code old} and no tombstone, at most a quarter full after
     * the next insertion, published before it is returned; under {@link #lock}.
     */
    private BoundedEntry[] rehash(BoundedEntry[] old) {
        int length = INITIAL_SLOTS;
        while (length < 4 * (size + 1)) {
            length <<= 1;
        }
        BoundedEntry[] s = new BoundedEntry[length];
        int mask = length - 1;
        for (BoundedEntry e : old) {
            if (e != null && e != REMOVED) {
                int i = home(e.ref.hash, mask);
                while (s[i] != null) {
                    i = (i + 1) & mask;
                }
                s[i] = e;
            }
        }
        used = size;
        slots = s;
        return s;
    }

    // ---------------------------------------------------------------- for tests

    /** Slots a lookup of {@code x} reads, the last one included. */
    int probes(Object x) {
        BoundedEntry[] s = slots;
        int i = indexOf(s, x);
        int end = i >= 0 ? i : -1 - i;
        return ((end - home(System.identityHashCode(x), s.length - 1)) & (s.length - 1)) + 1;
    }

    /** Entries in the index. */
    int size() {
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            return size;
        } finally {
            lock.unlock();
        }
    }
}
