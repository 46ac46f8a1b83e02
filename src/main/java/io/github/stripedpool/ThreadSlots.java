package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The making and finding of the unbounded pool's {@link PrivateSlot}s: the thread-id
 * {@link #table} (which the pool's fast paths read directly, and which only this class writes),
 * the registry of every slot not yet reaped, the {@code ThreadLocal} that finds the slot of a
 * thread whose table entry belongs to another thread, the round-robin choice of home stripes,
 * and the slot made last.
 *
 * <p>Invariants. A slot is in {@link #registry} from its making until it is reaped (its owner
 * is dead), so aging, close and {@code stats()} reach every live slot; the registry holds it
 * strongly. {@link #fallback}'s value is a JDK type that holds the slot weakly: a thread's
 * {@code ThreadLocalMap} keeps its value until the stale entry happens to be expunged, long
 * after the pool is gone, and a library object there would pin the class loader of an
 * application that used the library (an undeployed web application's). {@link #recent} is
 * written by the thread that made the slot and read by the next one, which reaps it if its owner
 * died (thread-per-task code); a stale read only leaves that reaping to aging. Reaping forgets
 * it ({@link #forgetRecent}), so that a reaped slot does not keep its dead thread reachable.
 * Every entry of {@link #table} holds null or a slot of the registry: a slot is registered
 * before it is entered, and leaves the registry only once reaped, after its entry was cleared
 * ({@link #forget}) or taken over by a live thread's slot.
 */
final class ThreadSlots {
    /**
     * Entries of {@link #table}: 256 references (1 KiB with compressed oops) per pool, enough
     * for the threads of a typical server pool to each find their own entry.
     */
    static final int TABLE_SIZE = 256;
    private static final int TABLE_MASK = TABLE_SIZE - 1;

    private static final VarHandle ENTRIES = MethodHandles.arrayElementVarHandle(PrivateSlot[].class);

    /**
     * Direct-mapped from thread id to slot: a thread whose entry holds its own slot finds it with
     * one array read instead of a {@code ThreadLocal} lookup. Thread ids are unique and handed
     * out in sequence, so the threads of a pool rarely collide; a thread that does uses
     * {@link #fallback}. An entry is set by CAS (from null, or from the slot of a dead thread)
     * when a slot is made ({@link #newSlot}), and cleared by CAS when its slot is reaped
     * ({@link #forget}); readers compare the entry's final {@code owner} with the current thread.
     * Close empties every entry ({@link #emptyTable}): finding none is the fast path's closed
     * check (see {@link UnboundedPool}, "Closed").
     *
     * <p>Final in the pool too, and its entries read plainly, on purpose. The table was once
     * swapped for an empty one at close, through a volatile field; a volatile read is an acquire
     * barrier for the compiler, so every read after it is made again, and an acquire and the
     * release that follows it each walked field, entry and owner anew. A final field needs no
     * barrier, is seen by every thread however the pool was shared, and lets the compiler share
     * that walk between the two when both are inlined into the caller (CycleBenchmark, one
     * thread, no hooks: 150 and 167 ops/µs with the volatile field, 184 and 173 without,
     * alternating jars).
     */
    final PrivateSlot[] table = new PrivateSlot[TABLE_SIZE];
    /** Every private slot not yet reaped: aging, close and stats reach them here. */
    final ConcurrentLinkedQueue<PrivateSlot> registry = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<WeakReference<PrivateSlot>> fallback = new ThreadLocal<>();
    private final AtomicInteger nextHome = new AtomicInteger();
    /** The slot made last: the next thread to start reaps it if its owner died meanwhile. */
    private volatile PrivateSlot recent;
    private final int mask;
    private final boolean exact;
    private final int hooks;
    private final LeakDetectingPool<?> sampler;
    private final SampleCountdown<?> sampling;

    /**
     * @param stripes the number of stripes, a power of two: homes are assigned among them
     * @param exact whether the pool has a destroy hook (see {@link PrivateSlot})
     * @param hooks the pool's release hooks, as {@link UserHooks#slotHooks()} tells them
     * @param sampler and {@code sampling}: under sampled leak detection, else null
     */
    ThreadSlots(int stripes, boolean exact, int hooks, LeakDetectingPool<?> sampler, SampleCountdown<?> sampling) {
        this.mask = stripes - 1;
        this.exact = exact;
        this.hooks = hooks;
        this.sampler = sampler;
        this.sampling = sampling;
    }

    /** The slot made last, or null. */
    PrivateSlot recent() {
        return recent;
    }

    /**
     * Forgets {@code s} as the most recent slot once it is reaped, so that it does not keep its
     * dead thread reachable. Racy: a slot made meanwhile may be forgotten instead, which only
     * leaves its reaping to aging (see the class comment).
     */
    void forgetRecent(PrivateSlot s) {
        if (recent == s) {
            recent = null;
        }
    }

    /** A new slot for {@code t}, registered, and known as the most recent. */
    PrivateSlot make(Thread t) {
        PrivateSlot s = new PrivateSlot(t, nextHome.getAndIncrement() & mask, exact,
                sampler == null ? null : sampler.table(), hooks);
        if (sampling != null) {
            sampling.start(s);
        }
        registry.add(s);
        recent = s;
        return s;
    }

    /** The calling thread's slot as its {@code ThreadLocal} knows it, or null. */
    PrivateSlot fallback() {
        WeakReference<PrivateSlot> ref = fallback.get();
        return ref == null ? null : ref.get();
    }

    /** Makes {@code s} the calling thread's slot for {@link #fallback}. */
    void remember(PrivateSlot s) {
        fallback.set(new WeakReference<>(s));
    }

    /** The value of the calling thread's {@code ThreadLocal} entry, as the thread holds it. */
    Object threadLocalValue() {
        return fallback.get();
    }

    /** The entry of {@code t} in {@link #table}. */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    static int index(Thread t) {
        return (int) t.getId() & TABLE_MASK;
    }

    /**
     * Makes the calling thread's slot, enters it in the table (if its entry is free or a dead
     * thread's) and remembers it, then reaps the dead threads' slots it met. In that order:
     * reaping may drop an object, and a destroy hook that calls the pool on this thread must
     * find the slot made here; made after the reap, the hook's call made a slot of its own, and
     * the thread then had two, one of them never read again, with the object the outer call put
     * in it.
     */
    PrivateSlot newSlot(Thread t, UnboundedPool<?> pool) {
        // Thread-per-task code starts a thread, uses the pool once and ends: the object the last
        // thread left in its slot would wait for aging. It is reaped below if that thread ended.
        PrivateSlot last = recent;
        PrivateSlot s = make(t);
        int i = index(t);
        PrivateSlot old = (PrivateSlot) ENTRIES.getVolatile(table, i);
        boolean entered = false;
        if (old == null) {
            entered = ENTRIES.compareAndSet(table, i, null, s);
        } else if (old.ownerDead()) {
            // Its reaping, below or by aging meanwhile, empties the entry only if it still holds old.
            entered = ENTRIES.compareAndSet(table, i, old, s) || ENTRIES.compareAndSet(table, i, null, s);
        } else {
            old = null; // a live thread's entry: nothing to reap
        }
        if (entered && pool.closed) {
            // Closed meanwhile. This thread entered its slot by compare-and-set and then read
            // the flag; close writes the flag and then empties the entries (emptyTable): one of
            // the two saw the other, so either close emptied this entry, or this thread does.
            ENTRIES.compareAndSet(table, i, s, null);
        }
        remember(s);
        Throwable err = null;
        if (last != null && last.reaped == 0 && last.ownerDead()) {
            err = pool.aging.reap(last);
        }
        if (old != null && old != last) {
            Throwable e = pool.aging.reap(old); // null if reaped already
            err = err != null ? err : e;
        }
        UserHooks.rethrowVmError(err);
        return s;
    }

    /** Clears the table entry of a reaped slot, if it is still the slot's. */
    void forget(PrivateSlot slot) {
        ENTRIES.compareAndSet(table, index(slot.owner), slot, null);
    }

    /**
     * Empties every entry of the table; by close, after it wrote the pool's closed flag. A call
     * made after this finds no entry and takes the slow path, which reads the flag. Every entry
     * holds a slot of the registry (class comment). A slot this loop does not see, or sees
     * before it is entered, was registered or entered after the flag was written: its thread
     * reads the flag after entering it and takes it out itself ({@link #newSlot}).
     */
    void emptyTable() {
        for (PrivateSlot s : registry) {
            ENTRIES.compareAndSet(table, index(s.owner), s, null);
        }
    }

    /** The table's entries that hold a slot; for the tests of close's handshake with newSlot. */
    int enteredSlots() {
        int n = 0;
        for (int i = 0; i < TABLE_SIZE; i++) {
            n += ENTRIES.getVolatile(table, i) != null ? 1 : 0;
        }
        return n;
    }
}
