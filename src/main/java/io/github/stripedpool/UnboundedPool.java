package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The unbounded, never-blocking pool.
 *
 * <p>Structure, from the cheapest tier to the dearest:
 * <ol>
 *   <li>a {@link PrivateSlot} per platform thread (one object; no other thread touches it except
 *       aging, close and the reaping of a dead owner);</li>
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
 * {@link #table} and a check of the entry's owner. In a pool without a destroy hook (and without
 * sampled leak detection), the private-slot acquire is a plain read and a plain write of the
 * slot, the release a release store and one counter increment: no atomic instruction, no shared
 * write, no closed check, no virtual-thread check (a virtual thread never owns a table entry, so
 * it always misses and takes the slow path). See {@link PrivateSlot} for why a third party that
 * only forgets objects needs no more, and why a pool with a destroy hook needs a compare-and-set
 * on each side.
 *
 * <p>Invariants.
 * <ul>
 *   <li><b>Exclusivity.</b> Every stripe slot and every private slot of a pool with a destroy
 *       hook is emptied only by compare-and-set, so an object goes to one taker. In a private
 *       slot without a destroy hook, a third party may take an object at the instant its owner
 *       does; it then only forgets it, never hands it out (see {@link PrivateSlot}).</li>
 *   <li><b>Reset before reuse.</b> {@link #release} runs the reset hook before the object is
 *       published; the publishing CAS (stripe) orders the reset's writes before every later
 *       taker, and a private slot's object reaches another thread only after its owner died.</li>
 *   <li><b>maxIdle.</b> The stripes' slots add up to {@code maxIdle}. A platform thread that
 *       puts objects in its private slot first borrows one unit of a stripe's capacity (a
 *       permit, {@link Stripe#lendPermit}); at most half of {@code maxIdle} is lent. So idle
 *       objects never exceed {@code maxIdle}, by construction, and a pool used only by virtual
 *       threads keeps up to {@code maxIdle} idle.</li>
 *   <li><b>Closed.</b> {@link #close} sets {@link #closed}, swaps {@link #table} for an empty
 *       one, then takes every object out of every slot. The table is read with a volatile read
 *       on every fast path, so a call that happens after close finds no slot there and takes the
 *       slow path, which checks the flag: the swap is the fast path's closed check, at no cost.
 *       A release racing close: in a pool with a destroy hook, the put is a CAS and is followed
 *       by a read of the flag (a Dekker pair with close's write of the flag and read of the
 *       slot), so the object is destroyed exactly once; without a destroy hook, a racing put
 *       may leave its object in the slot after close returned, and the owner's next call,
 *       {@code stats()} or another {@code close()} forgets it (there is nothing to destroy).</li>
 *   <li><b>Aging.</b> Only aging writes {@link #epoch}. A stripe object carries the epoch of its
 *       push: a victim once the epoch moved on, dropped when two epochs old. A private slot is
 *       aged by its put counter: an object in a slot whose puts did not move for a whole cycle is
 *       dropped. The slot of a dead thread is reaped: by the next thread that starts using the
 *       pool, or by aging; its object goes back to the stripes as a victim.</li>
 *   <li><b>No user code under a lock.</b> The pool holds no lock and no monitor at all: aging,
 *       close and {@code stats()} run concurrently, each taking objects by compare-and-set, so
 *       {@code stats()} never waits for a hook.</li>
 * </ul>
 *
 * @param <T> the type of the pooled objects
 */
final class UnboundedPool<T> implements Pool<T> {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    /**
     * Entries of {@link #table}: 256 references (1 KiB with compressed oops) per pool, enough
     * for the threads of a typical server pool to each find their own entry.
     */
    static final int THREAD_TABLE_SIZE = 256;
    private static final int TABLE_MASK = THREAD_TABLE_SIZE - 1;
    /** What {@link #table} becomes at close: never written, so every lookup misses. */
    private static final PrivateSlot[] CLOSED_TABLE = new PrivateSlot[THREAD_TABLE_SIZE];

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(PrivateSlot[].class);
    private static final VarHandle AGING;

    static {
        try {
            AGING = MethodHandles.lookup().findVarHandle(UnboundedPool.class, "aging", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Supplier<? extends T> factory;
    /** Null when no reset hook was set: a null check is cheaper than calling a no-op. */
    private final Consumer<? super T> reset;
    private final Consumer<? super T> destroy;
    /** Whether a destroy hook makes every take from a private slot a compare-and-set. */
    private final boolean exact;
    private final int maxIdle;
    private final long agingIntervalNanos;
    private final Stripe[] stripes;
    private final int mask;
    /**
     * Under {@link LeakDetection#SAMPLED}: the table and reporter of the tracked acquisitions,
     * else null. The engine decides which acquisitions to track itself, on its acquire path,
     * with a plain per-thread countdown, so that an acquisition that is not sampled calls no
     * wrapper and writes nothing shared.
     */
    final LeakDetectingPool<T> sampler;
    private final int sampleInterval;
    /**
     * The fallback lookup of a thread whose {@link #table} entry belongs to another thread. Its
     * value is a JDK type that holds the slot weakly: a thread's {@code ThreadLocalMap} keeps its
     * value until the stale entry happens to be expunged, long after the pool is gone, and a
     * library object there would pin the class loader of an application that used the library
     * (an undeployed web application's). The {@link #registry} keeps the slot alive while the
     * pool lives; a slot leaves the registry only when its owner is dead.
     */
    private final ThreadLocal<WeakReference<PrivateSlot>> slots = new ThreadLocal<>();
    /**
     * Direct-mapped from thread id to slot: a thread whose entry holds its own slot finds it with
     * one array read instead of a {@code ThreadLocal} lookup. Thread ids are unique and handed
     * out in sequence, so the threads of a pool rarely collide; a thread that does uses
     * {@link #slots}. An entry is set by CAS (from null, or from the slot of a dead thread) when
     * a slot is made, and cleared by CAS when its slot is reaped; readers compare the entry's
     * final {@code owner} with the current thread. Volatile because close swaps it for
     * {@link #CLOSED_TABLE}: reading it is the fast path's closed check.
     */
    private volatile PrivateSlot[] table = new PrivateSlot[THREAD_TABLE_SIZE];
    /** Every private slot not yet reaped: aging, close and stats reach them here. */
    private final ConcurrentLinkedQueue<PrivateSlot> registry = new ConcurrentLinkedQueue<>();
    /** Private-slot permits left to lend: at most half of maxIdle ever lives in private slots. */
    private final AtomicInteger permits;
    private final AtomicInteger nextHome = new AtomicInteger();
    /** The slot made last: the next thread to start reaps it if its owner died meanwhile. */
    private volatile PrivateSlot recent;
    /** Counters of aging, close, reaped threads and the stripes' slow paths; atomic adds. */
    private final long[] poolCounts = Counts.newArray();

    private volatile boolean closed;
    /** Written only by aging, which never runs twice at once for one pool. */
    private volatile int epoch;
    private volatile long agingCycles;
    /** 1 while an aging cycle runs; claimed by CAS so that two callers never age at once. */
    private volatile int aging;
    /** Aging only. */
    private long lastAgingNanos = System.nanoTime();

    UnboundedPool(PoolBuilder<T> b, String name) {
        this.name = name;
        this.factory = b.factory;
        this.reset = b.reset;
        this.destroy = b.destroy;
        this.exact = b.destroy != null;
        this.maxIdle = b.maxIdle;
        this.agingIntervalNanos = b.agingInterval.toNanos();
        this.permits = new AtomicInteger((maxIdle + 1) / 2);
        int n = b.stripes;
        this.mask = n - 1;
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(maxIdle / n + (i < maxIdle % n ? 1 : 0));
        }
        LeakSettings leaks = LeakSettings.resolve(b.leakDetection, b.leakSamplingInterval, b.onLeak);
        this.sampler = leaks.samplerFor(this);
        this.sampleInterval = leaks.interval;
        AgingClock.register(this);
    }

    // ---------------------------------------------------------------- acquire

    @Override
    @SuppressWarnings("unchecked")
    public T acquire() {
        Thread t = Thread.currentThread();
        PrivateSlot s = table[index(t)];
        if (s != null && s.owner == t) {
            Object x = s.item;
            if (x != null && s.plain) {
                s.item = null; // plain: see PrivateSlot
                s.privateHits++;
                return (T) x;
            }
        }
        return acquireSlow(t, s);
    }

    /** Acquisitions until the next tracked one: mean {@link #sampleInterval}, at random. */
    private int nextCountdown() {
        int n = sampleInterval;
        return n >= 1 << 29 ? n : 1 + ThreadLocalRandom.current().nextInt(2 * n - 1);
    }

    /** Under SAMPLED: counts the acquisition down, and tracks it when the count runs out. */
    private T sampled(PrivateSlot slot, T x) {
        if (slot != null ? --slot.countdown <= 0 : ThreadLocalRandom.current().nextInt(sampleInterval) == 0) {
            if (slot != null) {
                // Mean interval N, drawn at random so that a periodic load is not sampled in step.
                slot.countdown = nextCountdown();
            }
            sampler.trackSampled(x);
        } else {
            sampler.acquiredUntracked(x);
        }
        return x;
    }

    /** Everything but a plain private hit; split so that {@link #acquire()} stays small. */
    @SuppressWarnings("unchecked")
    private T acquireSlow(Thread t, PrivateSlot s) {
        if (s == null || s.owner != t) {
            if (Threads.VIRTUAL_THREADS && Threads.isVirtual(t)) {
                return acquireShared(Threads.stripeOf(t, mask), null, null);
            }
            if (closed) {
                throw closed(fallbackSlot());
            }
            s = ownSlot(t);
        }
        Object x = s.take();
        if (x != null) {
            return sampler == null ? (T) x : sampled(s, (T) x);
        }
        return acquireShared(s.home, s, null);
    }

    /** From the stripes, else the factory. Counts in {@code slot}, else in {@code shared}. */
    @SuppressWarnings("unchecked")
    private T acquireShared(int home, PrivateSlot slot, long[] shared) {
        if (closed) {
            throw closed(slot);
        }
        if (slot == null && shared == null) {
            shared = stripes[home].counts;
        }
        final Stripe[] stripes = this.stripes;
        final int e = epoch;
        int counter = Counts.HIT_HOME;
        Object x = stripes[home].popYoung(e);
        for (int i = 1; x == null && i < stripes.length; i++) {
            Stripe st = stripes[(home + i) & mask];
            if (!st.looksEmpty()) {
                x = st.popYoung(e);
                counter = Counts.HIT_STOLEN;
            }
        }
        for (int i = 0; x == null && i < stripes.length; i++) {
            Stripe st = stripes[(home + i) & mask];
            if (!st.looksEmpty()) {
                // A young object pushed since the passes above can be taken here and counted as
                // a victim: a rare miscount, never a wrong hand-out.
                x = st.popAny(e);
                counter = Counts.HIT_VICTIM;
            }
        }
        if (x == null) {
            x = create();
            count(slot, shared, Counts.CREATED);
            counter = Counts.MISS;
        }
        count(slot, shared, counter);
        if (slot != null && x == slot.lastShared) {
            slot.lastShared = null; // this thread holds it again: releasing it is no longer double
        }
        return sampler == null ? (T) x : sampled(slot, (T) x);
    }

    /**
     * The exception of an acquire on a closed pool. A release that raced close may have left its
     * object in the caller's slot (a pool without a destroy hook): forgotten here.
     */
    private PoolClosedException closed(PrivateSlot own) {
        if (own != null) {
            Object x = own.peek();
            if (x != null && own.takeFromOutside(x)) {
                rethrowVmError(drop(x, own, null));
            }
        }
        return new PoolClosedException(name);
    }

    private T create() {
        T x;
        try {
            x = factory.get();
        } catch (Exception e) {
            throw new ObjectCreationException("pool '" + name + "': the factory threw " + e
                    + "; nothing was taken from the pool, acquire() again to retry", e);
        }
        if (x == null) {
            throw new ObjectCreationException("pool '" + name
                    + "': the factory returned null; it must return a new object on every call", null);
        }
        return x;
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
            throw new NullPointerException("release(null) on pool '" + name
                    + "': pass the object that acquire() returned");
        }
        Thread t = Thread.currentThread();
        PrivateSlot s = table[index(t)];
        if (s != null && s.owner == t) {
            Object cur = s.item;
            if (!s.plain) {
                releaseChecked(s, cur, object);
                return;
            }
            if (cur == object || object == s.lastShared) {
                throw doubleRelease(object);
            }
            if (reset == null || resetOrDrop(object, s, null)) {
                if (cur == null && s.mayPut) {
                    s.put(object);
                    return;
                }
                releaseOwn(s, cur, object);
            }
            return;
        }
        releaseSlow(t, object);
    }

    /** A release to a slot that is not plain: a destroy hook, or sampled leak detection. */
    private void releaseChecked(PrivateSlot s, Object cur, T object) {
        if (sampler != null && !sampler.nothingTracked()) {
            sampler.releasedSampled(object); // first: its report of a double release is richer
        }
        if (cur == object || object == s.lastShared) {
            throw doubleRelease(object);
        }
        if (reset == null || resetOrDrop(object, s, null)) {
            releaseOwn(s, cur, object);
        }
    }

    /** A release that did not find its slot in the table: virtual thread, collision, closed. */
    private void releaseSlow(Thread t, T object) {
        if (sampler != null && !sampler.nothingTracked()) {
            sampler.releasedSampled(object);
        }
        if (Threads.VIRTUAL_THREADS && Threads.isVirtual(t)) {
            int home = Threads.stripeOf(t, mask);
            long[] shared = stripes[home].counts;
            Counts.add(shared, Counts.RELEASED, 1);
            if (reset == null || resetOrDrop(object, null, shared)) {
                if (closed || !push(object, home, epoch)) {
                    rethrowVmError(drop(object, null, shared));
                }
            }
            return;
        }
        if (closed) {
            Counts.add(poolCounts, Counts.RELEASED, 1);
            if (reset == null || resetOrDrop(object, null, poolCounts)) {
                rethrowVmError(drop(object, null, poolCounts));
            }
            return;
        }
        PrivateSlot s = ownSlot(t);
        Object cur = s.item;
        if (cur == object || object == s.lastShared) {
            throw doubleRelease(object);
        }
        if (reset == null || resetOrDrop(object, s, null)) {
            releaseOwn(s, cur, object);
        }
    }

    /**
     * After the reset: into the private slot if it is empty and this thread may put there (a
     * permit, borrowed at the first release that wants one), else to the stripes.
     */
    private void releaseOwn(PrivateSlot s, Object cur, Object x) {
        if (cur == null && (s.mayPut || tryPermit(s))) {
            s.put(x);
            // Dekker with close(): put (a CAS in exact mode) then read the flag; close writes the
            // flag then reads the slot. One of the two sees the other.
            if (s.exact && closed && s.takeFromOutside(x)) {
                rethrowVmError(drop(x, s, null));
            }
            return;
        }
        s.sharedReleases++;
        s.lastShared = x;
        if (!push(x, s.home, epoch)) {
            rethrowVmError(drop(x, s, null));
        }
    }

    /** Tries, once per aging epoch, to borrow a stripe's unit of capacity for the private slot. */
    private boolean tryPermit(PrivateSlot s) {
        int e = epoch;
        if (s.permitTry == e) {
            return false;
        }
        s.permitTry = e;
        for (int p = permits.get(); p > 0; p = permits.get()) {
            if (permits.compareAndSet(p, p - 1)) {
                for (int i = 0; i < stripes.length; i++) {
                    int k = (s.home + i) & mask;
                    if (stripes[k].lendPermit()) {
                        s.permitStripe = k;
                        s.mayPut = true;
                        return true;
                    }
                }
                permits.incrementAndGet();
                return false;
            }
        }
        return false;
    }

    private IllegalStateException doubleRelease(Object x) {
        return new IllegalStateException("pool '" + name + "': a " + x.getClass().getName()
                + " was released twice: it is already back in the pool (this thread released it "
                + "last, and has not acquired it since). This second release was ignored. After "
                + "release(x), x belongs to the pool: drop every reference to it. The default "
                + "mode catches only a double release on the same thread; leakDetection(PARANOID) "
                + "catches every one, with the stack of the first release");
    }

    /**
     * Pushes {@code x} to the first stripe with room, starting at {@code home}; if the pool closed
     * meanwhile, takes it back and destroys it.
     *
     * @return false if every stripe was full and {@code x} is still the caller's
     */
    private boolean push(Object x, int home, int stamp) {
        final Stripe[] stripes = this.stripes;
        for (int i = 0; i < stripes.length; i++) {
            Stripe s = stripes[(home + i) & mask];
            int k = s.push(x, stamp);
            if (k >= 0) {
                if (closed && s.takeBack(k, x)) {
                    rethrowVmError(drop(x, null, poolCounts));
                }
                return true;
            }
        }
        return false;
    }

    /**
     * Runs the reset hook (set, or the caller would not call); on failure drops {@code x}, and
     * rethrows a {@link VirtualMachineError} once the pool is consistent again.
     */
    @SuppressWarnings("unchecked")
    private boolean resetOrDrop(Object x, PrivateSlot slot, long[] shared) {
        try {
            reset.accept((T) x);
            return true;
        } catch (Throwable e) {
            if (slot != null) {
                slot.sharedReleases++; // a release all the same; the shared paths counted theirs
            }
            hookFailed("reset", x, e, slot, shared);
            Throwable d = drop(x, slot, shared);
            if (e instanceof VirtualMachineError) {
                throw (VirtualMachineError) e;
            }
            rethrowVmError(d);
            return false;
        }
    }

    /**
     * Lets go of {@code x}: counts it and runs the destroy hook, reporting a failure. Never
     * throws.
     *
     * @return the hook's {@link VirtualMachineError}, for the caller to rethrow when its own work
     *         is done, or null
     */
    @SuppressWarnings("unchecked")
    private Throwable drop(Object x, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.DROPPED);
        Consumer<? super T> d = destroy;
        if (d == null) {
            return null;
        }
        try {
            d.accept((T) x);
            return null;
        } catch (Throwable e) {
            try {
                hookFailed("destroy", x, e, slot, shared);
            } catch (Throwable logFailed) {
                // the log itself failed (out of memory?): the count is what stays
            }
            return e instanceof VirtualMachineError ? e : null;
        }
    }

    private static void rethrowVmError(Throwable e) {
        if (e != null) {
            throw (VirtualMachineError) e;
        }
    }

    private void hookFailed(String hook, Object x, Throwable e, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.HOOK_FAILURE);
        LOG.log(System.Logger.Level.WARNING, "pool '" + name + "': the " + hook + " hook threw on a "
                + x.getClass().getName() + "; the object was destroyed instead of pooled", e);
    }

    /** Counts in the caller's own slot if it has one, else atomically in a shared array. */
    private static void count(PrivateSlot slot, long[] shared, int counter) {
        if (slot != null) {
            slot.inc(counter);
        } else {
            Counts.add(shared, counter, 1);
        }
    }

    // ---------------------------------------------------------------- slots

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    private static int index(Thread t) {
        return (int) t.getId() & TABLE_MASK;
    }

    /** The calling platform thread's slot when its table entry is not its own: made on first use. */
    private PrivateSlot ownSlot(Thread t) {
        PrivateSlot s = fallbackSlot();
        if (s == null || s.reaped != 0) {
            s = newSlot(t);
            slots.set(new WeakReference<>(s));
        }
        return s;
    }

    /** The calling thread's slot as its {@code ThreadLocal} knows it, or null. */
    private PrivateSlot fallbackSlot() {
        WeakReference<PrivateSlot> ref = slots.get();
        return ref == null ? null : ref.get();
    }

    /** The value of the calling thread's {@code ThreadLocal} entry, as the thread holds it. */
    Object threadLocalValue() {
        return slots.get();
    }

    private PrivateSlot newSlot(Thread t) {
        // Thread-per-task code starts a thread, uses the pool once and ends: the object the last
        // thread left in its slot would wait for aging. Reap it now if that thread has ended.
        PrivateSlot last = recent;
        if (last != null && last.reaped == 0 && last.ownerDead()) {
            rethrowVmError(reap(last));
        }
        PrivateSlot s = new PrivateSlot(t, nextHome.getAndIncrement() & mask, exact, sampler != null);
        if (sampler != null) {
            s.countdown = nextCountdown();
        }
        registry.add(s);
        PrivateSlot[] tab = table;
        int i = index(t);
        PrivateSlot old = (PrivateSlot) SLOTS.getVolatile(tab, i);
        if (tab == CLOSED_TABLE) {
            // closed meanwhile: the shared empty table is never written
        } else if (old == null) {
            SLOTS.compareAndSet(tab, i, null, s);
        } else if (old.ownerDead()) {
            rethrowVmError(reap(old));
            SLOTS.compareAndSet(tab, i, old, s);
            SLOTS.compareAndSet(tab, i, null, s);
        }
        recent = s;
        return s;
    }

    /**
     * Forgets the slot of a dead thread: its object goes back to the stripes as a victim (or is
     * dropped if it already sat idle through a cycle), its counts into the pool's, its permit
     * back. Exactly one caller reaps a slot.
     *
     * @return a {@link VirtualMachineError} of the destroy hook, or null
     */
    private Throwable reap(PrivateSlot slot) {
        if (!slot.claimReap()) {
            return null;
        }
        // The owner is dead: its last writes happen-before ownerDead() returned true.
        Throwable err = null;
        if (slot.mayPut) {
            stripes[slot.permitStripe].returnPermit();
            permits.incrementAndGet();
        }
        Object x = slot.peek();
        if (x != null && slot.takeFromOutside(x)) {
            boolean idleThroughACycle = slot.agingSawItem && slot.agingPuts == slot.puts;
            if (idleThroughACycle || closed || !push(x, slot.home, epoch - 1)) {
                err = drop(x, null, poolCounts);
            }
        }
        long[] sums = new long[Counts.SIZE];
        slot.sumInto(sums);
        for (int c = 0; c < Counts.SIZE; c++) {
            if (sums[c] != 0) {
                Counts.add(poolCounts, c, sums[c]);
            }
        }
        registry.remove(slot);
        SLOTS.compareAndSet(table, index(slot.owner), slot, null);
        return err;
    }

    // ---------------------------------------------------------------- aging

    /**
     * Called by the {@link AgingClock} after each garbage collection it sees, on a background
     * thread (not always the same one), never twice at once for this pool; tests call it
     * directly, so a second caller during a cycle returns at once. Runs destroy hooks under no
     * lock; a {@link VirtualMachineError} of a hook is rethrown when the cycle is complete.
     */
    void onGarbageCollection(long now) {
        if (closed || now - lastAgingNanos < agingIntervalNanos) {
            return;
        }
        if (!AGING.compareAndSet(this, 0, 1)) {
            return;
        }
        Throwable err;
        try {
            lastAgingNanos = now;
            err = age();
        } finally {
            aging = 0;
        }
        rethrowVmError(err);
    }

    private Throwable age() {
        final int e = epoch + 1;
        epoch = e;
        Throwable[] first = new Throwable[1];
        Consumer<Object> dropper = x -> {
            Throwable t = drop(x, null, poolCounts);
            if (first[0] == null) {
                first[0] = t;
            }
        };
        for (Stripe s : stripes) {
            s.dropAged(e, dropper);
        }
        for (PrivateSlot slot : registry) {
            if (slot.reaped != 0) {
                continue;
            }
            if (slot.ownerDead()) { // first: after it, the dead owner's fields are final
                Throwable t = reap(slot);
                if (first[0] == null) {
                    first[0] = t;
                }
                continue;
            }
            Object x = slot.peek(); // acquire: the puts count of x's put is visible below
            long p = slot.puts; // racy: a stale count only drops an object one cycle early or late
            if (x != null && slot.agingSawItem && p == slot.agingPuts) {
                // No put since the last cycle and an object then and now: the same object, idle
                // through a whole cycle. Taken by CAS from x, so never an object put after this
                // look; in a pool without a destroy hook the owner may be taking x right now,
                // and then keeps it: aging only forgets it.
                if (slot.takeFromOutside(x)) {
                    dropper.accept(x);
                }
                slot.agingSawItem = false;
            } else {
                slot.agingSawItem = x != null;
            }
            slot.agingPuts = p;
        }
        agingCycles = agingCycles + 1;
        return first[0];
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
        table = CLOSED_TABLE;
        Throwable[] err = new Throwable[1];
        Consumer<Object> dropper = x -> {
            Throwable t = drop(x, null, poolCounts);
            if (err[0] == null) {
                err[0] = t;
            }
        };
        for (Stripe s : stripes) {
            s.drain(dropper);
        }
        sweepSlots(dropper);
        if (first) {
            AgingClock.unregister(this);
        }
        rethrowVmError(err[0]);
    }

    private void sweepSlots(Consumer<Object> dropper) {
        for (PrivateSlot slot : registry) {
            Object x = slot.peek();
            if (x != null && slot.takeFromOutside(x)) {
                dropper.accept(x);
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Sums the counters; takes no lock and runs no user code. On a closed pool without a destroy
     * hook, first forgets what a release racing close left in a private slot.
     */
    @Override
    public PoolStats stats() {
        if (closed && !exact) {
            sweepSlots(x -> Counts.add(poolCounts, Counts.DROPPED, 1));
        }
        long[] sums = new long[Counts.SIZE];
        Counts.sumInto(poolCounts, sums);
        int idle = 0;
        for (Stripe s : stripes) {
            Counts.sumInto(s.counts, sums);
            idle += s.countIdle();
        }
        int inSlots = 0;
        for (PrivateSlot slot : registry) {
            if (slot.reaped != 0) {
                continue; // counted in the pool's counters already, or about to be
            }
            slot.sumInto(sums);
            if (slot.peek() != null) {
                inSlots++;
            }
        }
        idle += inSlots;
        sums[Counts.RELEASED] += sums[Counts.PUTS];
        PoolStats stats = new PoolStats(name, sums, agingCycles, idle, maxIdle, closed);
        return sampler == null ? stats : stats.withLeaks(sampler.leakCount());
    }

    @Override
    public String toString() {
        return "UnboundedPool[" + name + (closed ? ", closed" : "")
                + (sampler != null ? ", leak detection sampled 1/" + sampleInterval : "")
                + ", maxIdle=" + maxIdle
                + ", stripes=" + stripes.length + "]";
    }

    // ---------------------------------------------------------------- for tests in this package

    Stripe[] stripes() {
        return stripes;
    }
}
