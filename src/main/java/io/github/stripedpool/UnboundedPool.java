package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The unbounded, never-blocking pool.
 *
 * <p>Structure, from the cheapest tier to the dearest:
 * <ol>
 *   <li>a {@link PrivateSlot} per platform thread (one object, reached through a
 *       {@code ThreadLocal}; no other thread touches it except aging and close);</li>
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
 * <p>Invariants.
 * <ul>
 *   <li><b>Exclusivity.</b> Every place an idle object can be (a private slot, a stripe slot) is
 *       emptied only by a compare-and-set, so an object goes to one taker. See {@link Stripe}
 *       and {@link PrivateSlot}.</li>
 *   <li><b>Reset before reuse.</b> {@link #release} runs the reset hook before the object is
 *       published by any CAS; the CAS orders the reset's writes before every later taker.</li>
 *   <li><b>maxIdle.</b> The stripes' slot counts add up to {@code maxIdle - permits}, where
 *       {@code permits} is the number of private slots allowed to hold an object; a platform
 *       thread takes a permit when it first uses the pool, and aging gives it back when the
 *       thread is gone. So idle objects never exceed {@code maxIdle}, by construction rather than
 *       by a shared counter.</li>
 *   <li><b>Nothing lost at close.</b> {@link #close} sets {@link #closed} and then empties every
 *       slot; a release publishes its object and then reads {@link #closed}. Both sides are
 *       sequentially consistent (volatile write, CAS, volatile read), so either close sees the
 *       object or the releaser sees the flag and takes its object back to destroy it. Hence,
 *       once close has returned, no private slot holds an object for longer than the release
 *       that put it there, and a private-slot acquire cannot succeed on a closed pool: acquire
 *       checks the flag only on its slow path.</li>
 *   <li><b>Aging.</b> Only the aging thread writes {@link #epoch}. An object carries the epoch of
 *       its release; it is a victim once the epoch has moved on, and is dropped when it is two
 *       epochs old. A slot of a thread that died is emptied at the next cycle, its object put
 *       back in circulation (or dropped if old), and its counters folded into the pool's.</li>
 * </ul>
 *
 * <p>Counters live in the slot of the thread that counts (plain fields, owner-written), in the
 * stripes for virtual threads (atomic adds, on a line those threads write anyway), and in
 * {@link #poolCounts} for the rare events of aging and close. {@link #lifecycle} serialises
 * aging, close and {@link #stats()} with each other, never with acquire or release.
 *
 * @param <T> the type of the pooled objects
 */
final class UnboundedPool<T> implements Pool<T> {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    /**
     * Entries of {@link #byThread}: 256 references (1 KiB with compressed oops) per pool, enough
     * for the threads of a typical server pool to each find their own entry.
     */
    static final int THREAD_TABLE_SIZE = 256;

    private static final VarHandle SLOTS = MethodHandles.arrayElementVarHandle(PrivateSlot[].class);

    private final String name;
    private final Supplier<? extends T> factory;
    /** Null when no reset hook was set: a null check is cheaper than calling a no-op. */
    private final Consumer<? super T> reset;
    private final Consumer<? super T> destroy;
    private final int maxIdle;
    private final long agingIntervalNanos;
    private final Stripe[] stripes;
    private final int mask;
    private final ThreadLocal<PrivateSlot> slots = ThreadLocal.withInitial(this::newSlot);
    /**
     * Direct-mapped from thread id to slot: a thread whose entry holds its own slot finds it with
     * one array read instead of a {@code ThreadLocal} lookup (weak-reference map probing). Thread
     * ids are unique and handed out in sequence, so the threads of a pool rarely collide; a
     * thread that does uses {@link #slots} instead. An entry is set by CAS from null when a slot
     * is created and cleared by CAS when aging reaps it; readers compare the entry's final
     * {@code owner} with the current thread, so a stale read only sends them to the slower path.
     */
    private final PrivateSlot[] byThread;
    private final int byThreadMask;
    /** Every private slot of a live (or not yet reaped) thread: aging and close reach them here. */
    private final ConcurrentLinkedQueue<PrivateSlot> registry = new ConcurrentLinkedQueue<>();
    private final AtomicInteger permits;
    private final AtomicInteger nextHome = new AtomicInteger();
    /** Counters of aging, close and reaped threads; written with atomic adds. */
    private final long[] poolCounts = Counts.newArray();
    private final Object lifecycle = new Object();

    private volatile boolean closed;
    /** Written only by the aging thread (under {@link #lifecycle}). */
    private volatile int epoch;
    private volatile long agingCycles;
    /** Aging thread only. */
    private long lastAgingNanos = System.nanoTime();

    UnboundedPool(PoolBuilder<T> b, String name) {
        this.name = name;
        this.factory = b.factory;
        this.reset = b.reset;
        this.destroy = b.destroy;
        this.maxIdle = b.maxIdle;
        this.agingIntervalNanos = b.agingInterval.toNanos();
        int privateSlots = (maxIdle + 1) / 2;
        this.permits = new AtomicInteger(privateSlots);
        int n = b.stripes;
        this.mask = n - 1;
        this.byThread = new PrivateSlot[THREAD_TABLE_SIZE];
        this.byThreadMask = THREAD_TABLE_SIZE - 1;
        this.stripes = new Stripe[n];
        int shared = maxIdle - privateSlots;
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(shared / n + (i < shared % n ? 1 : 0));
        }
        AgingClock.register(this);
    }

    // ---------------------------------------------------------------- acquire

    @Override
    @SuppressWarnings("unchecked")
    public T acquire() {
        // No closed check here: once close() has returned, every private slot is empty and stays
        // so (see the class comment), so a closed pool always reaches acquireSlow, which checks.
        if (Threads.VIRTUAL_THREADS && Threads.isVirtual(Thread.currentThread())) {
            return acquireVirtual();
        }
        PrivateSlot slot = slot();
        Object x = slot.take();
        if (x != null) {
            slot.privateHits++;
            return (T) x;
        }
        return acquireSlow(slot.home, slot, null);
    }

    private T acquireVirtual() {
        int home = Threads.stripeOf(Thread.currentThread(), mask);
        return acquireSlow(home, null, stripes[home].counts);
    }

    /**
     * Split from {@link #acquire()} so that the private-slot path stays small enough to inline.
     * Counts go to {@code slot} if the caller has one, else to the {@code shared} array.
     */
    @SuppressWarnings("unchecked")
    private T acquireSlow(int home, PrivateSlot slot, long[] shared) {
        if (closed) {
            throw new PoolClosedException(name);
        }
        final Stripe[] stripes = this.stripes;
        final int e = epoch;
        Object x = stripes[home].popYoung(e);
        if (x != null) {
            count(slot, shared, Counts.HIT_HOME);
            return (T) x;
        }
        for (int i = 1; i < stripes.length; i++) {
            Stripe s = stripes[(home + i) & mask];
            if (!s.looksEmpty() && (x = s.popYoung(e)) != null) {
                count(slot, shared, Counts.HIT_STOLEN);
                return (T) x;
            }
        }
        for (int i = 0; i < stripes.length; i++) {
            Stripe s = stripes[(home + i) & mask];
            if (!s.looksEmpty() && (x = s.popAny(e)) != null) {
                // A young object pushed since the passes above can be taken here and counted as
                // a victim: a rare miscount, never a wrong hand-out.
                count(slot, shared, Counts.HIT_VICTIM);
                return (T) x;
            }
        }
        T made = create();
        count(slot, shared, Counts.CREATED);
        count(slot, shared, Counts.MISS);
        return made;
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
        return new Lease<>(this, acquire());
    }

    // ---------------------------------------------------------------- release

    @Override
    public void release(T object) {
        if (object == null) {
            throw new NullPointerException("release(null) on pool '" + name
                    + "': pass the object that acquire() returned");
        }
        if (Threads.VIRTUAL_THREADS && Threads.isVirtual(Thread.currentThread())) {
            releaseVirtual(object);
            return;
        }
        PrivateSlot slot = slot();
        slot.released++;
        if (reset != null && !resetOrDrop(object, slot, null)) {
            return;
        }
        if (slot.put(object, epoch)) {
            if (closed && slot.takeFromOutside(object)) {
                drop(object, slot, null); // raced close: see the class comment
            }
            return;
        }
        releaseSlow(object, slot.home, slot, null);
    }

    private void releaseVirtual(T object) {
        int home = Threads.stripeOf(Thread.currentThread(), mask);
        long[] shared = stripes[home].counts;
        Counts.add(shared, Counts.RELEASED, 1);
        if (reset == null || resetOrDrop(object, null, shared)) {
            releaseSlow(object, home, null, shared);
        }
    }

    /** Split from {@link #release} for the same reason as {@link #acquireSlow}. */
    private void releaseSlow(Object x, int home, PrivateSlot slot, long[] shared) {
        if (!push(x, home, epoch)) {
            drop(x, slot, shared);
        }
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
                    drop(x, null, poolCounts);
                }
                return true;
            }
        }
        return false;
    }

    /** Runs the reset hook (set, or the caller would not call); on failure drops {@code x}. */
    @SuppressWarnings("unchecked")
    private boolean resetOrDrop(Object x, PrivateSlot slot, long[] shared) {
        try {
            reset.accept((T) x);
            return true;
        } catch (Throwable e) {
            hookFailed("reset", x, e, slot, shared);
            drop(x, slot, shared);
            if (e instanceof VirtualMachineError) {
                throw (VirtualMachineError) e;
            }
            return false;
        }
    }

    /** Lets go of {@code x}: counts it and runs the destroy hook, reporting a failure. */
    @SuppressWarnings("unchecked")
    private void drop(Object x, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.DROPPED);
        Consumer<? super T> d = destroy;
        if (d == null) {
            return;
        }
        try {
            d.accept((T) x);
        } catch (Throwable e) {
            hookFailed("destroy", x, e, slot, shared);
            if (e instanceof VirtualMachineError) {
                throw (VirtualMachineError) e;
            }
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

    /** The calling platform thread's slot: its thread-id table entry, else its ThreadLocal. */
    private PrivateSlot slot() {
        Thread t = Thread.currentThread();
        PrivateSlot s = byThread[threadIndex(t)];
        return s != null && s.owner == t ? s : slots.get();
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    private int threadIndex(Thread t) {
        return (int) t.getId() & byThreadMask;
    }

    private PrivateSlot newSlot() {
        Thread t = Thread.currentThread();
        PrivateSlot s = new PrivateSlot(t, nextHome.getAndIncrement() & mask, takePermit());
        registry.add(s);
        SLOTS.compareAndSet(byThread, threadIndex(t), null, s); // taken: this thread uses slots
        return s;
    }

    private boolean takePermit() {
        for (int p = permits.get(); p > 0; p = permits.get()) {
            if (permits.compareAndSet(p, p - 1)) {
                return true;
            }
        }
        return false;
    }

    // ---------------------------------------------------------------- aging

    /** Called by the {@link AgingClock} thread after each garbage collection it sees. */
    void onGarbageCollection(long now) {
        if (closed || now - lastAgingNanos < agingIntervalNanos) {
            return;
        }
        lastAgingNanos = now;
        synchronized (lifecycle) {
            if (!closed) {
                age();
            }
        }
    }

    private void age() {
        final int e = epoch + 1;
        epoch = e;
        Consumer<Object> dropper = x -> drop(x, null, poolCounts);
        for (Stripe s : stripes) {
            s.dropAged(e, dropper);
        }
        for (PrivateSlot slot : registry) {
            boolean dead = slot.ownerDead(); // first: after it, the dead owner's slot is final
            Object x = slot.peek();
            if (x != null) {
                int stamp = slot.stamp();
                if (e - stamp >= 2) {
                    if (slot.takeFromOutside(x)) {
                        drop(x, null, poolCounts);
                    }
                } else if (dead && slot.takeFromOutside(x) && !push(x, slot.home, stamp)) {
                    drop(x, null, poolCounts);
                }
            }
            if (dead) {
                reap(slot);
            }
        }
        agingCycles = agingCycles + 1;
    }

    /** Forgets the slot of a dead thread, keeping its counts and giving back its permit. */
    private void reap(PrivateSlot slot) {
        long[] sums = new long[Counts.SIZE];
        slot.sumInto(sums);
        for (int c = 0; c < Counts.SIZE; c++) {
            if (sums[c] != 0) {
                Counts.add(poolCounts, c, sums[c]);
            }
        }
        registry.remove(slot);
        SLOTS.compareAndSet(byThread, threadIndex(slot.owner), slot, null);
        if (slot.mayPark) {
            permits.incrementAndGet();
        }
    }

    // ---------------------------------------------------------------- close, stats

    @Override
    public void close() {
        synchronized (lifecycle) {
            if (closed) {
                return;
            }
            closed = true;
            Consumer<Object> dropper = x -> drop(x, null, poolCounts);
            for (Stripe s : stripes) {
                s.drain(dropper);
            }
            for (PrivateSlot slot : registry) {
                Object x = slot.peek();
                if (x != null && slot.takeFromOutside(x)) {
                    drop(x, null, poolCounts);
                }
            }
        }
        AgingClock.unregister(this);
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public PoolStats stats() {
        synchronized (lifecycle) {
            long[] sums = new long[Counts.SIZE];
            Counts.sumInto(poolCounts, sums);
            int idle = 0;
            for (Stripe s : stripes) {
                Counts.sumInto(s.counts, sums);
                idle += s.countIdle();
            }
            for (PrivateSlot slot : registry) {
                slot.sumInto(sums);
                if (slot.peek() != null) {
                    idle++;
                }
            }
            return new PoolStats(name, sums, agingCycles, idle, maxIdle, closed);
        }
    }

    @Override
    public String toString() {
        return "UnboundedPool[" + name + (closed ? ", closed" : "") + ", maxIdle=" + maxIdle
                + ", stripes=" + stripes.length + "]";
    }

    // ---------------------------------------------------------------- for tests in this package

    Stripe[] stripes() {
        return stripes;
    }
}
