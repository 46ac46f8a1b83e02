package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link BoundedEntry entries} of a {@link BoundedPool}, grown on demand up to
 * {@code maxTotal}, and where to find an idle one and a free one without looking at the others:
 * {@link #takeIdle} and {@link #claimFree} cost the same with 10 objects in use or 100,000, and
 * with {@code maxTotal(64)} or {@code maxTotal(Integer.MAX_VALUE)}. Only maintenance, close and
 * stats walk the whole table.
 *
 * <p>The array. {@link #entries} is replaced, never changed in place, by a longer copy that
 * holds the same entries at the same indexes followed by new FREE ones; so an entry, once in the
 * table, stays at its index for good. Growing takes {@link #growLock}, for an array copy only,
 * never around user code; it happens when a creator holding a unit of capacity finds no FREE
 * entry, at most log2(maxTotal / {@value #INITIAL}) times in a pool's life. The table's length
 * never exceeds maxTotal, and it never shrinks.
 *
 * <p>Stacks. Entries are linked, by index, into lock-free (Treiber) stacks whose heads sit in
 * {@link #heads}, 128 bytes apart: {@link #stacks} stacks of idle entries, an entry going to
 * the one its index picks, and one stack of FREE entries. A head is a long: a version in the
 * high half, bumped by every successful CAS, and {@code index + 1} of the top entry in the low
 * half (0: empty); each entry's link ({@code nextIdle}, {@code nextFree}) holds the same for the
 * entry below it. The version makes a pop whose top was popped and pushed again meanwhile fail
 * its CAS (ABA), short of 2^32 operations on one stack between its read and its CAS. An entry has
 * one link per kind of stack, so it can be in an idle stack and in the free stack at once.
 *
 * <p>Invariants of the free stack. It holds exactly the FREE entries that no thread is about to
 * push or has popped: an entry is pushed by the thread that made it FREE (as owner) before that
 * thread gives the entry's unit of capacity back, and a creator pops one only after reserving a
 * unit. So entries outside the free stack never outnumber units held, and a creator, who holds a
 * unit with no entry, finds the stack non-empty once the table is maxTotal long: a creator that
 * finds it empty takes {@link #growLock}, pops again (a grower pushes its new entries before
 * unlocking) and grows only if still empty. Every pop is exactly one entry: {@code claimFree}
 * examines one entry.
 *
 * <p>Invariants of the idle stacks. An entry's {@code idleQueued} flag is 1 exactly while the
 * entry is in an idle stack, being pushed (by the thread whose CAS set the flag), or popped by a
 * taker that has not cleared the flag yet; it goes from 0 to 1 only by CAS, so an entry is never
 * pushed twice without a pop in between. A thread that makes an entry IDLE
 * ({@link BoundedStates#publish}) then calls {@link #offerIdle}: if the flag is 0 it CASes it to 1
 * and pushes the entry. A taker pops,
 * clears the flag (volatile write), then reads the state (volatile): IDLE, it CASes it to
 * BORROWED, as every hand-out does; otherwise the entry is stale (taken meanwhile through a
 * thread's hint, evicted, closed, handed to a waiter) and is dropped. Dekker between the two:
 * the publisher writes IDLE then reads the flag, the taker writes the flag then reads the state,
 * so either the taker sees IDLE or the publisher sees 0 and pushes again. Hence <em>an IDLE entry
 * is in an idle stack, or being pushed by its publisher, or held by a taker that will try to
 * take it</em>: no idle object is lost from view, which is what a waiter's look after queueing
 * relies on (see {@link BoundedWaiting}). An entry is at most once in the idle stacks, so they
 * hold at most as many entries as the table.
 *
 * <p>Cost. A take looks at the {@link #stacks} heads at most (a constant, at most
 * {@link PoolBuilder#MAX_STRIPES}) and pops stale entries on the way; each stale pop undoes
 * exactly one push, and each push follows one publish, so stale pops cost at most one per
 * earlier release: constant amortized, whatever the objects in use. A thread that takes its last
 * entry back through its hint touches no stack at all, and its release finds the flag still 1.
 * No allocation, except when the table grows.
 */
final class BoundedEntryTable {
    /** Entries made up front: a small pool never grows, and its hot path never sees a copy. */
    static final int INITIAL = 64;
    /** Longs from one head to the next: 128 bytes, so two heads never share a line pair. */
    private static final int SPREAD = 16;

    private static final VarHandle HEADS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle QUEUED;

    static {
        try {
            QUEUED = MethodHandles.lookup().findVarHandle(BoundedEntry.class, "idleQueued", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final int maxTotal;
    /** Idle stacks: a power of two, at most the pool's stripes and maxTotal. */
    private final int stacks;
    /** Where the free stack's head is in {@link #heads}. */
    private final int freeHead;
    /** Idle stack {@code s}'s head at {@code (s + 1) * SPREAD}, the free stack's at {@link #freeHead}. */
    private final long[] heads;
    private final ReentrantLock growLock = new ReentrantLock();
    private volatile BoundedEntry[] entries = new BoundedEntry[0];

    BoundedEntryTable(int maxTotal, int stripes) {
        this.maxTotal = maxTotal;
        this.stacks = Math.max(1, Math.min(Integer.highestOneBit(Math.max(1, stripes)),
                Integer.highestOneBit(maxTotal)));
        this.freeHead = (stacks + 1) * SPREAD;
        this.heads = new long[freeHead + 2 * SPREAD];
        grow(Math.min(maxTotal, INITIAL));
    }

    /** The entries now; a later call may return a longer array. */
    BoundedEntry[] array() {
        return entries;
    }

    // ---------------------------------------------------------------- free entries

    /** As {@link #claimFree(BoundedThreads.Local)}, for a caller that counts nothing. */
    BoundedEntry claimFree() {
        return claimFree(null);
    }

    /**
     * Claims a FREE entry (to RESERVED) for a unit of capacity the caller holds: pops the free
     * stack, growing the table if it is empty (see the class comment for why one is found).
     * {@code l}, if not null, counts the entry examined.
     */
    BoundedEntry claimFree(BoundedThreads.Local l) {
        BoundedEntry e;
        do {
            e = pop(freeHead, false);
            if (e == null) {
                e = claimGrowing();
            }
        } while (e == null); // never, by the count in the class comment; a retry is harmless
        if (l != null) {
            l.examined++;
        }
        e.set(BoundedEntry.RESERVED);
        return e;
    }

    private BoundedEntry claimGrowing() {
        StackHeadroom.ensure(); // no overflow while it is held
        growLock.lock();
        try {
            BoundedEntry e = pop(freeHead, false);
            if (e == null && entries.length < maxTotal) {
                grow((int) Math.min(maxTotal, 2L * entries.length));
                e = pop(freeHead, false);
            }
            return e;
        } finally {
            growLock.unlock();
        }
    }

    /**
     * Makes {@code e}, which the caller owns and whose object is gone, FREE and pushes it on the
     * free stack; before its unit of capacity is given back.
     */
    void free(BoundedEntry e) {
        e.freed(); // FREE, in the entry's next life

        push(freeHead, e, false);
    }

    /**
     * Publishes a copy of the table {@code length} long, then pushes the new entries on the free
     * stack, linked together in index order, with one CAS; under {@link #growLock} or in the
     * constructor.
     */
    private void grow(int length) {
        BoundedEntry[] old = entries;
        BoundedEntry[] es = java.util.Arrays.copyOf(old, length);
        for (int i = old.length; i < length; i++) {
            es[i] = new BoundedEntry(i);
            es[i].nextFree = i + 2; // the entry after it, as index + 1
        }
        entries = es; // before the push: a popper finds the entries it pops by index
        BoundedEntry last = es[length - 1];
        for (;;) {
            long h = (long) HEADS.getVolatile(heads, freeHead);
            last.nextFree = (int) h;
            if (HEADS.compareAndSet(heads, freeHead, h, bumped(h, old.length + 1))) {
                return;
            }
        }
    }

    // ---------------------------------------------------------------- idle entries

    /**
     * Called by the thread that has just written IDLE into {@code e} (the publisher's half of
     * the Dekker pair in the class comment): pushes it unless it is in an idle stack already.
     */
    void offerIdle(BoundedEntry e) {
        if ((int) QUEUED.getVolatile(e) == 0 && QUEUED.compareAndSet(e, 0, 1)) {
            push((stackOf(e) + 1) * SPREAD, e, true);
        }
    }

    /**
     * Takes an idle entry (CAS IDLE to BORROWED), from the stack {@code home} on; null if every
     * stack was found empty. Stale entries popped on the way are dropped (see the class
     * comment); {@code l}, if not null, counts every entry popped.
     */
    BoundedEntry takeIdle(int home, BoundedThreads.Local l) {
        return takeIdle(home, l, false);
    }

    /**
     * As {@link #takeIdle(int, BoundedThreads.Local)}, or, if {@code reserve}, with the CAS IDLE
     * to RESERVED: for a taker that may give the entry back ({@link BoundedStates#reserveIdle}).
     */
    BoundedEntry takeIdle(int home, BoundedThreads.Local l, boolean reserve) {
        final int mask = stacks - 1;
        for (int i = 0; i < stacks; i++) {
            int head = (((home + i) & mask) + 1) * SPREAD;
            for (BoundedEntry e; (e = pop(head, true)) != null; ) {
                if (l != null) {
                    l.examined++;
                }
                QUEUED.setVolatile(e, 0);
                if (reserve ? BoundedStates.idleToReserved(e) : BoundedStates.idleToBorrowed(e)) {
                    return e;
                }
            }
        }
        return null;
    }

    /** The idle stack a thread whose home is {@code home}, in [0, maxTotal), looks at first. */
    int homeStack(int home) {
        return (int) ((long) home * stacks / maxTotal) & (stacks - 1);
    }

    /** The idle stack {@code e} is pushed on. */
    int stackOf(BoundedEntry e) {
        return e.index & (stacks - 1);
    }

    // ---------------------------------------------------------------- the stacks

    private void push(int head, BoundedEntry e, boolean idle) {
        final int top = e.index + 1;
        for (;;) {
            long h = (long) HEADS.getVolatile(heads, head);
            if (idle) {
                e.nextIdle = (int) h;
            } else {
                e.nextFree = (int) h;
            }
            if (HEADS.compareAndSet(heads, head, h, bumped(h, top))) {
                return;
            }
        }
    }

    /**
     * Pops the top entry, or null if the stack is empty. The link read may be stale (the entry
     * popped and pushed again meanwhile); then the head's version has moved and the CAS fails.
     */
    private BoundedEntry pop(int head, boolean idle) {
        for (;;) {
            long h = (long) HEADS.getVolatile(heads, head);
            int top = (int) h;
            if (top == 0) {
                return null;
            }
            // Read after the head: the array that holds the entry was published before its push.
            BoundedEntry e = entries[top - 1];
            int next = idle ? e.nextIdle : e.nextFree;
            if (HEADS.compareAndSet(heads, head, h, bumped(h, next))) {
                return e;
            }
        }
    }

    /** Whether the free stack is empty now; for tests. */
    boolean isFreeStackEmpty() {
        return (int) (long) HEADS.getVolatile(heads, freeHead) == 0;
    }

    /** A head with the version of {@code h} plus one and {@code top} on top. */
    private static long bumped(long h, int top) {
        return ((h >>> 32) + 1) << 32 | (top & 0xFFFFFFFFL);
    }
}
