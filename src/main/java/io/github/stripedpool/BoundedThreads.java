package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads that use one {@link BoundedPool}, and its counters: each platform thread's
 * {@link Local} (its hint, the idle stack it looks at first, its counters) and the pool-wide
 * {@link #counts}.
 *
 * <p>Counting. Hits, misses and releases are counted in the thread's {@code Local}
 * (plain fields, owner-written, read racily by {@link #sum}) or, for virtual threads, which get
 * no {@code Local}, in the entry the event is about ({@link BoundedEntry#countVirtual}): plain
 * fields too, written only by the thread that owns the entry at that moment, on a line that
 * thread has just written with its CAS. Atomic adds to a shared array cost every acquire and
 * release of a virtual thread two locked instructions, and contend on a line whenever two
 * carriers pick the same array: a third of a cycle of 8 virtual threads on 50 idle objects (a
 * cycle every 19.5 ns of wall time on 2 carriers, against 12.7 ns with the counts in the entry).
 * Rare events (creations, destroys, hook failures, which cost a factory or destroy call anyway)
 * go atomically in {@code counts}. A dead thread's counters are folded into {@code counts} and
 * its {@code Local} forgotten; {@link #registryLock} makes folding and {@link #sum} exclusive,
 * so that a fold is never counted twice or missed by a sum. No user code runs under it.
 *
 * <p>Virtual threads' hints. A virtual thread has no {@code Local}, so no hint of its own: it
 * may run one request and end. Instead {@link #virtualHints} keeps, in a slot chosen by thread
 * id, the entry that a virtual thread of that slot acquired last by another way than the slot
 * (the idle stacks, a creation, a wait), and a virtual thread's acquire tries that entry first,
 * as a platform thread tries its own hint. Nothing in a slot is a claim:
 * the entry is taken by the same CAS (IDLE to BORROWED) as any idle entry, it stays where the
 * idle stacks' protocol put it (see {@link BoundedEntryTable}: a hint take leaves the entry in its
 * stack, flag set, exactly as a platform thread's does), and a slot that names an entry in any
 * other state costs one failed read. So exclusivity and the idle stacks' invariants need nothing
 * more than they do for platform threads. A slot is written with release and read with acquire
 * semantics, so an entry read from a slot is seen as fully built; only after a miss on the
 * slot, and only if it names another entry, so that virtual threads whose hints hit write no
 * shared line. Why: a virtual thread's acquire from the idle stacks pops a head shared by every
 * carrier, clears the entry's flag (a full fence) and CASes the state; its release CASes the
 * flag back and pushes again. Through the slot, the acquire is one CAS and the release finds the
 * flag still set. The array holds at most 64 references to entries the table holds anyway.
 */
final class BoundedThreads {
    /** Registrations of threads between two sweeps of dead threads' counters. */
    private static final int REAP_EVERY = 64;
    /** Virtual threads' hint slots at most: past that, more slots only spread the same entries thinner. */
    private static final int MAX_VIRTUAL_HINTS = 64;
    private static final VarHandle HINTS = MethodHandles.arrayElementVarHandle(BoundedEntry[].class);

    private final int maxTotal;
    /** Rare events and dead threads' counters; atomic adds. */
    final long[] counts = Counts.newArray();
    /** Entries virtual threads took last, by thread id (see the class comment); a power of two long. */
    private final BoundedEntry[] virtualHints;
    private final int hintMask;
    /**
     * Each thread's {@code Local}, held weakly: a thread-local's value stays in the
     * thread's map after the pool is gone, and a library object there would pin the library's
     * class loader (a web application's, after undeploy) for as long as the thread lives. The
     * {@link #registry} holds the {@code Local} strongly while the pool lives.
     */
    private final ThreadLocal<WeakReference<Local>> locals = new ThreadLocal<>();
    private final ConcurrentLinkedQueue<Local> registry = new ConcurrentLinkedQueue<>();
    private final AtomicInteger registrations = new AtomicInteger();
    private final ReentrantLock registryLock = new ReentrantLock();

    BoundedThreads(int maxTotal) {
        this.maxTotal = maxTotal;
        // a power of two at or above maxTotal, at most 64
        this.virtualHints = new BoundedEntry[maxTotal >= MAX_VIRTUAL_HINTS ? MAX_VIRTUAL_HINTS
                : maxTotal <= 1 ? 1 : Integer.highestOneBit(maxTotal - 1) << 1];
        this.hintMask = virtualHints.length - 1;
        loadNow(Local.class);
        loadNow(BoundedWaitQueue.Waiter.class); // made by every wait, virtual threads' included
    }

    /**
     * Loads {@code c} on the thread that builds the pool. Virtual threads never get a
     * {@code Local}, yet compiled code that mentions it may load it when it first runs
     * (a deoptimisation loads the class it names), and a class is loaded under a monitor of its
     * class loader, inside the JVM: a virtual thread that waits there while another loads it
     * pins its carrier (seen: 1 to 17 ms, on JDK 25). A class loaded before any thread uses the
     * pool costs none of that.
     */
    private static void loadNow(Class<?> c) {
        try {
            MethodHandles.lookup().ensureInitialized(c);
        } catch (IllegalAccessException e) {
            throw new AssertionError("a class of the library's own package", e);
        }
    }

    /** The calling platform thread's state; null on a virtual thread. */
    Local local() {
        if (Threads.VIRTUAL_THREADS && Threads.isVirtual(Thread.currentThread())) {
            return null;
        }
        WeakReference<Local> r = locals.get();
        Local l = r != null ? r.get() : null;
        if (l == null) {
            l = newLocal();
            locals.set(new WeakReference<>(l));
        }
        return l;
    }

    /** Where a virtual thread looks for idle entries first: a home in [0, maxTotal). */
    int virtualHome() {
        return Threads.stripeOf(Thread.currentThread(), 0xFFFFFF) % maxTotal;
    }

    private Local newLocal() {
        // Golden-ratio spacing: threads registered one after another start far apart.
        int k = registrations.getAndIncrement();
        int home = (int) (((k * 0x9E3779B9L) & 0xFFFFFFFFL) * maxTotal >>> 32);
        Local l = new Local(Thread.currentThread(), home);
        registry.add(l);
        if (k % REAP_EVERY == REAP_EVERY - 1) {
            reapDead();
        }
        return l;
    }

    /** The entry in the calling virtual thread's hint slot, or null: a hint, not a claim. */
    BoundedEntry virtualHint() {
        return virtualHint(virtualHintSlot());
    }

    /**
     * Remembers {@code e}, which the calling virtual thread has just taken, as the hint of its
     * slot, unless the slot names it already.
     */
    void hintVirtual(BoundedEntry e) {
        hintVirtual(virtualHintSlot(), e);
    }

    /** The calling thread's hint slot. */
    int virtualHintSlot() {
        return Threads.stripeOf(Thread.currentThread(), hintMask);
    }

    /** The entry in hint slot {@code slot}, or null. */
    BoundedEntry virtualHint(int slot) {
        return (BoundedEntry) HINTS.getAcquire(virtualHints, slot);
    }

    /** Names {@code e} in hint slot {@code slot}, unless it is there already. */
    void hintVirtual(int slot, BoundedEntry e) {
        if (HINTS.getAcquire(virtualHints, slot) != e) {
            HINTS.setRelease(virtualHints, slot, e);
        }
    }

    /** Hint slots for virtual threads; for tests. */
    int virtualHintSlots() {
        return virtualHints.length;
    }

    /**
     * Counts one {@code counter} event of the calling thread, {@code l} (null: a virtual thread),
     * about the entry {@code e}, which it owns (see the class comment).
     */
    static void count(Local l, BoundedEntry e, int counter) {
        if (l != null) {
            l.inc(counter);
        } else {
            e.countVirtual(counter);
        }
    }

    /** Counts {@code delta} events of a pool-wide counter. */
    void add(int counter, long delta) {
        Counts.add(counts, counter, delta);
    }

    /** Folds the counters of terminated threads into {@link #counts} and forgets them. */
    void reapDead() {
        StackHeadroom.ensure(); // no overflow while it is held
        if (!registryLock.tryLock()) {
            return; // sum() or another sweep is at it
        }
        try {
            for (Local l : registry) {
                if (l.ownerDead()) {
                    long[] sums = new long[Counts.SIZE];
                    l.sumInto(sums);
                    for (int c = 0; c < Counts.SIZE; c++) {
                        if (sums[c] != 0) {
                            Counts.add(counts, c, sums[c]);
                        }
                    }
                    registry.remove(l);
                }
            }
        } finally {
            registryLock.unlock();
        }
    }

    /**
     * Every counter, summed over the pool, its threads and, for virtual threads, its
     * {@code entries} (an unpadded array of Counts.SIZE).
     */
    long[] sum(BoundedEntry[] entries) {
        long[] sums = new long[Counts.SIZE];
        for (BoundedEntry e : entries) { // never folded: no need to exclude a fold
            e.sumVirtualInto(sums);
        }
        StackHeadroom.ensure(); // no overflow while it is held
        registryLock.lock();
        try {
            Counts.sumInto(counts, sums);
            for (Local l : registry) {
                l.sumInto(sums);
            }
            return sums;
        } finally {
            registryLock.unlock();
        }
    }

    /**
     * A platform thread's state in one {@link BoundedPool}: the entry it used last (a hint, not a
     * claim: it is taken like any idle entry, by CAS), which idle stack it looks at first, and its
     * counters.
     *
     * <p>Only the owner writes the fields, with plain writes; {@link Pool#stats()} reads the counters
     * racily, which is benign for the reason given in {@link PrivateSlot}. The object is padded on
     * both sides because its counters are written on every acquire and release.
     */
    static final class Local extends LocalFields {
        long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

        Local(Thread owner, int home) {
            super(owner, home);
        }

        void inc(int counter) {
            switch (counter) {
                case Counts.RELEASED: released++; break;
                case Counts.HIT_PRIVATE: privateHits++; break;
                case Counts.HIT_HOME: homeHits++; break;
                case Counts.HIT_STOLEN: stolenHits++; break;
                case Counts.MISS: misses++; break;
                default: throw new IllegalArgumentException("not a per-thread counter: " + counter);
            }
        }

        void sumInto(long[] sums) {
            sums[Counts.RELEASED] += released;
            sums[Counts.HIT_PRIVATE] += privateHits;
            sums[Counts.HIT_HOME] += homeHits;
            sums[Counts.HIT_STOLEN] += stolenHits;
            sums[Counts.MISS] += misses;
        }

        /** Whether the owner has terminated; its last write then happens-before this returning true. */
        boolean ownerDead() {
            Thread t = owner.get();
            return t == null || !t.isAlive();
        }
    }

    /** The fields, between {@link PadHead} and the tail padding of {@link Local}. */
    abstract static class LocalFields extends PadHead {
        BoundedEntry hint;
        final int home;
        long released, privateHits, homeHits, stolenHits, misses;
        /** Entries this thread's acquisitions popped or claimed (see {@link BoundedEntryTable}); for tests. */
        long examined;
        final WeakReference<Thread> owner;

        LocalFields(Thread owner, int home) {
            this.owner = new WeakReference<>(owner);
            this.home = home;
        }
    }
}
