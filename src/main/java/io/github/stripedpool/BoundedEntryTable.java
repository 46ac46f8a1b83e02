package io.github.stripedpool;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link BoundedEntry entries} of a {@link BoundedPool}, grown on demand up to
 * {@code maxTotal}, so that capacity costs memory only for objects that exist (or existed: the
 * table never shrinks) and a scan for an idle object costs in proportion to them, not to the cap.
 * {@code maxTotal(Integer.MAX_VALUE)} starts as small as {@code maxTotal(64)}.
 *
 * <p>Invariants. {@link #entries} is replaced, never changed in place, by a longer copy that
 * holds the same entries at the same indexes followed by new FREE ones; so an entry, once in the
 * table, stays at its index for good, and a reader of an older array misses only entries added
 * after it read, which are claimed by creators and reach waiters through the wait queue's
 * signals, not through scans. Growing takes {@link #growLock}, for an array copy only, never
 * around user code; it happens when a creator holding a unit of capacity finds no FREE entry,
 * at most log2(maxTotal / {@value #INITIAL}) times in a pool's life. The table's length never
 * exceeds maxTotal, and a creator always ends up with an entry: non-FREE entries never
 * outnumber live units, and the table grows while it is shorter than maxTotal.
 */
final class BoundedEntryTable {
    /** Entries made up front: a small pool never grows, and its hot path never sees a copy. */
    static final int INITIAL = 64;

    private final int maxTotal;
    private final ReentrantLock growLock = new ReentrantLock();
    private volatile BoundedEntry[] entries;

    BoundedEntryTable(int maxTotal) {
        this.maxTotal = maxTotal;
        this.entries = extend(new BoundedEntry[0], Math.min(maxTotal, INITIAL));
    }

    /** The entries now; a later call may return a longer array. */
    BoundedEntry[] array() {
        return entries;
    }

    /**
     * Claims a FREE entry (CAS to RESERVED) for a unit of capacity the caller holds. One exists
     * or the table may grow: entries become non-FREE only with a unit and FREE before their unit
     * is given back, so non-FREE entries never outnumber live units, the caller's included. A
     * pass may still miss a FREE entry while other creators and destroyers move, so it passes
     * again; every retry means another thread progressed.
     */
    BoundedEntry claimFree() {
        for (;;) {
            BoundedEntry[] es = entries;
            for (BoundedEntry e : es) {
                if (e.state() == BoundedEntry.FREE && e.cas(BoundedEntry.FREE, BoundedEntry.RESERVED)) {
                    return e;
                }
            }
            if (es.length < maxTotal) {
                grow(es);
            }
        }
    }

    private void grow(BoundedEntry[] seen) {
        growLock.lock();
        try {
            if (entries == seen) {
                int n = seen.length;
                entries = extend(seen, (int) Math.min(maxTotal, Math.max(1L, 2L * n)));
            }
        } finally {
            growLock.unlock();
        }
    }

    private static BoundedEntry[] extend(BoundedEntry[] old, int length) {
        BoundedEntry[] es = java.util.Arrays.copyOf(old, length);
        for (int i = old.length; i < length; i++) {
            es[i] = new BoundedEntry(i);
        }
        return es;
    }
}
