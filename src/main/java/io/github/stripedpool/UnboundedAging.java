package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The aging of an {@link UnboundedPool}'s idle objects, and the reaping of its dead threads'
 * private slots.
 *
 * <p>Aging. The {@link AgingClock} calls {@link #onGarbageCollection} after each garbage
 * collection it sees, from a background thread that is not always the same one; tests call it
 * directly. A cycle is claimed by compare-and-set of {@link #agingBy}, so two cycles of one pool
 * never run at once, and only a cycle writes the pool's epoch. A stripe object carries the epoch
 * of its push: a victim once the epoch moved on, dropped when two epochs old. A private slot is
 * aged by its put counter: an object in a slot whose puts did not move through a whole cycle is
 * dropped. Aging takes every object by compare-and-set from the object it read, so it never
 * erases an object put after it looked, and in a pool without a destroy hook it only forgets
 * what it takes (the owner may be taking the same object at that instant and keeps it; see
 * {@link PrivateSlot}).
 *
 * <p>Reaping. The slot of a dead thread is reaped by aging or by the next thread that starts
 * using the pool. Exactly one caller reaps a slot ({@link PrivateSlot#claimReap}); after
 * {@link PrivateSlot#ownerDead} returned true every write of the dead owner is visible, so its
 * object can go back to the stripes as a victim and its counters into the pool's. The claim and
 * the move of the counters are one step for {@code stats()}, under {@link #counting}, which
 * {@link UnboundedStats} holds while it sums: a snapshot counts the dead thread's work once,
 * in its slot or in the pool's counters, never neither (a counter read lower than the snapshot
 * before, which a metrics system takes for a reset) nor both. The step runs no user code and
 * allocates nothing, so the lock is held for a few additions; the hooks of the reap (a destroy
 * of the slot's objects) run after it.
 *
 * <p>Close. {@link #sweepSlots} takes every slot's object by compare-and-set; {@link #closed}
 * forgets the object that a release racing close left in the caller's own slot.
 *
 * <p>Destroy hooks run under no lock; the first {@link VirtualMachineError} of a hook is
 * rethrown when the cycle (or the reap) is complete.
 */
final class UnboundedAging {
    private static final VarHandle AGING;

    static {
        try {
            AGING = MethodHandles.lookup().findVarHandle(UnboundedAging.class, "agingBy", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final UnboundedPool<?> pool;
    /** Held while a reaped slot's counters move into the pool's, and while stats() sums them. */
    final ReentrantLock counting = new ReentrantLock();
    private final long intervalNanos;
    /**
     * Whether a collection trims (see {@link HeapTrim} and {@link TrimGate}). Asked after each
     * collection, in an aging job of the pool's lane, never on acquire or release; used only
     * while {@link #agingBy} is held.
     */
    private final TrimGate trimGate;
    private volatile long cycles;
    /**
     * The thread running an aging cycle, null while none runs; claimed by CAS so that two
     * callers never age at once. Cleared in a {@code finally}, which a throwable can pass when
     * the heap is exhausted (see {@link ClockThread}): a claim left behind by the calling thread
     * itself, or by a thread that is no longer alive, cannot be a cycle in progress, and is taken
     * over, so that a pool never stops aging for good.
     */
    private volatile Thread agingBy;
    /** Collections after which the pool trimmed; written under {@link #agingBy}. */
    private volatile long trims;
    /** Written only while {@link #agingBy} is held. */
    private long lastNanos = System.nanoTime();

    /**
     * Whether leak detection is on: then each collection, not only each cycle, clears the
     * records of objects owners last released to a stripe that are no longer idle there
     * ({@link #forgetShared}), so that none keeps an object another thread borrowed, and leaked,
     * reachable until the next cycle, or for good with aging off.
     */
    private final boolean forgetsAtEachCollection;

    UnboundedAging(UnboundedPool<?> pool, long intervalNanos, double trimAboveHeap, boolean detectsLeaks) {
        this.pool = pool;
        this.intervalNanos = intervalNanos;
        this.trimGate = new TrimGate(trimAboveHeap);
        this.forgetsAtEachCollection = detectsLeaks;
    }

    /** The aging state, for a test's failure report. */
    String describe() {
        Thread t = agingBy;
        return "cycles " + cycles + ", aging by " + (t == null ? "none" : t.getName()
                + (t.isAlive() ? "" : " (dead)")) + ", last cycle " + (System.nanoTime() - lastNanos) / 1_000_000
                + " ms ago";
    }

    /** Aging cycles run so far. */
    long cycles() {
        return cycles;
    }

    /** Collections after which the heap was fuller than the threshold and the pool trimmed. */
    long trims() {
        return trims;
    }

    /**
     * Runs a cycle if the interval has passed and no other cycle of the pool runs. Whatever the
     * interval, if the heap is fuller than the pool's threshold and {@link #trimGate} does not hold
     * the trim back: one cycle ({@link HeapTrim#SOFT}),
     * or two in a row ({@link HeapTrim#HARD}), which drop every idle object.
     */
    void onGarbageCollection(long now) {
        if (pool.closed) {
            return;
        }
        if (forgetsAtEachCollection) {
            // No claim: forgetShared's writes are racy by design, and a cycle makes them too.
            for (PrivateSlot slot : pool.registry) {
                forgetShared(slot, pool.stripes);
            }
        }
        if (!trimGate.trims() && now - lastNanos < intervalNanos) {
            return; // the common case, decided without a claim (a stale lastNanos only delays)
        }
        Thread me = Thread.currentThread();
        Thread holder = agingBy;
        if (holder != null && (holder == me || !holder.isAlive())) {
            AGING.compareAndSet(this, holder, null); // left behind: see agingBy
        }
        if (!AGING.compareAndSet(this, null, me)) {
            return;
        }
        FirstError dropped = new FirstError(pool);
        try {
            // Under the claim: the gate is not thread-safe, and tests call this beside the lane.
            int trim = trimGate.level(now);
            if (trim == HeapTrim.NONE && now - lastNanos < intervalNanos) {
                return;
            }
            lastNanos = now;
            age(dropped);
            if (trim == HeapTrim.HARD) {
                // The first cycle made every idle object a victim (and put each private slot's
                // put count on record); the second drops them all, as a second collection would.
                age(dropped);
            }
            if (trim != HeapTrim.NONE) {
                trims = trims + 1;
                trimGate.trimmed(dropped.count, now, trim == HeapTrim.SOFT);
            } else {
                trimGate.aged();
            }
        } finally {
            agingBy = null;
        }
        UserHooks.rethrowVmError(dropped.error);
    }

    /** One aging cycle; what it drops goes to {@code first}, which keeps the first error. */
    private void age(FirstError first) {
        final UnboundedPool<?> p = pool;
        final int e = p.epoch + 1;
        p.epoch = e;
        for (Stripe s : p.stripes) {
            s.dropAged(e, first);
        }
        for (PrivateSlot slot : p.registry) {
            if (slot.reaped != 0) {
                continue;
            }
            if (slot.ownerDead()) { // first: after it, the dead owner's fields are final
                first.keep(reap(slot));
                continue;
            }
            Object x = slot.peek(); // acquire: the puts count of x's put is visible below
            long puts = slot.puts; // racy: a stale count only drops an object one cycle early or late
            if (x != null && slot.agingSawItem && puts == slot.agingPuts) {
                // No put since the last cycle and an object then and now: the same object, idle
                // through a whole cycle. Taken by CAS from x, so never an object put after this
                // look; in a pool without a destroy hook the owner may be taking x right now,
                // and then keeps it: aging only forgets it.
                if (slot.takeFromOutside(x)) {
                    first.accept(x);
                }
                slot.agingSawItem = false;
            } else {
                slot.agingSawItem = x != null;
            }
            slot.agingPuts = puts;
            ageSpares(slot, first);
            forgetShared(slot, p.stripes);
        }
        cycles = cycles + 1;
    }

    /**
     * Clears the slot's record of the object its owner last released to a stripe once that
     * object is no longer idle where it was pushed (taken, or dropped by this cycle): the
     * record is a strong reference (the one of an object dropped at its release is weak, and
     * stays: {@link PrivateSlotFields#lastDropped}), and it must not keep an object the pool dropped reachable
     * for as long as the thread lives (a megabyte buffer per request thread), nor one another
     * thread took and leaked, which leak detection could then never report. A racy write of
     * a field the owner writes: it may clear the owner's newer record instead, which only
     * leaves a second release of that object to PARANOID (see {@link ReleaseChecks}).
     */
    private static void forgetShared(PrivateSlot slot, Stripe[] stripes) {
        Object shared = slot.lastShared;
        if (shared != null && !stripes[slot.lastSharedStripe].holdsAt(slot.lastSharedIndex, shared)) {
            slot.lastShared = null;
        }
    }

    /** Ages each spare entry of a live owner's slot by its own put count, as the slot's object. */
    private static void ageSpares(PrivateSlot slot, FirstError first) {
        for (int i = slot.spareEntries() - 1; i >= 0; i--) {
            Object y = slot.peekSpare(i);
            long sparePuts = slot.sparePuts[i];
            if (y != null && slot.agingSawSpare[i] && sparePuts == slot.agingSparePuts[i]) {
                if (slot.takeSpareFromOutside(i, y)) {
                    first.accept(y);
                }
                slot.agingSawSpare[i] = false;
            } else {
                slot.agingSawSpare[i] = y != null;
            }
            slot.agingSparePuts[i] = sparePuts;
        }
    }

    /**
     * Forgets the slot of a dead thread: its object goes back to the stripes as a victim (or is
     * dropped if it already sat idle through a cycle), its counts into the pool's, its permit
     * back. Exactly one caller reaps a slot.
     *
     * @return a {@link VirtualMachineError} of the destroy hook, or null
     */
    Throwable reap(PrivateSlot slot) {
        final UnboundedPool<?> p = pool;
        long[] sums = new long[Counts.SIZE]; // before the lock: nothing under it can fail
        StackHeadroom.ensure(); // no overflow while it is held
        counting.lock();
        try {
            if (!slot.claimReap()) {
                return null;
            }
            slot.sumInto(sums); // final: the owner is dead, see below
            for (int c = 0; c < Counts.SIZE; c++) {
                if (sums[c] != 0) {
                    Counts.add(p.poolCounts, c, sums[c]);
                }
            }
        } finally {
            counting.unlock();
        }
        // The owner is dead: its last writes happen-before ownerDead() returned true.
        Throwable err = null;
        p.permits.giveBack(slot);
        Object x = slot.peek();
        if (x != null && slot.takeFromOutside(x)) {
            boolean idleThroughACycle = slot.agingSawItem && slot.agingPuts == slot.puts;
            err = reuseOrDrop(x, idleThroughACycle, slot.home);
        }
        for (int i = slot.spareEntries() - 1; i >= 0; i--) {
            Object y = slot.peekSpare(i);
            if (y != null && slot.takeSpareFromOutside(i, y)) {
                boolean idleThroughACycle = slot.agingSawSpare[i]
                        && slot.agingSparePuts[i] == slot.sparePuts[i];
                Throwable e = reuseOrDrop(y, idleThroughACycle, slot.home);
                err = err != null ? err : e;
            }
        }
        slot.lastShared = null; // the owner is dead: the records only pin objects
        slot.lastDropped = null;
        p.registry.remove(slot);
        p.slots.forget(slot);
        p.slots.forgetRecent(slot);
        return err;
    }

    /**
     * The sweep of {@link UnboundedPool#close}, once the pool's flag is set and its thread-id
     * table emptied: destroys every idle object in the stripes and the private slots, each taken by
     * compare-and-set; on the first close, leaves the aging clock. Rethrows the first
     * {@link VirtualMachineError} of a destroy hook once everything is done.
     */
    static void sweepClosed(UnboundedPool<?> pool, boolean first) {
        FirstError dropper = new FirstError(pool);
        for (Stripe s : pool.stripes) {
            s.drain(dropper);
        }
        sweepSlots(pool, dropper);
        if (first) {
            AgingClock.unregister(pool);
            FlightRecorderEvents.poolClosed();
        }
        UserHooks.rethrowVmError(dropper.error);
    }

    /**
     * Takes every object out of every private slot and passes it to {@code dropper}: close, and
     * {@code stats()} of a closed pool. Each object is taken by compare-and-set, so a racing
     * aging cycle or a second sweep never drops one twice.
     */
    static void sweepSlots(UnboundedPool<?> pool, Consumer<Object> dropper) {
        for (PrivateSlot slot : pool.registry) {
            slot.lastShared = null; // the stripes are drained: it only pins (see forgetShared)
            Object x = slot.peek();
            if (x != null && slot.takeFromOutside(x)) {
                dropper.accept(x);
            }
            for (int i = slot.spareEntries() - 1; i >= 0; i--) {
                Object y = slot.peekSpare(i);
                if (y != null && slot.takeSpareFromOutside(i, y)) {
                    dropper.accept(y);
                }
            }
        }
    }

    /** A dead owner's object: back to the stripes as a victim, or dropped. */
    private Throwable reuseOrDrop(Object x, boolean idleThroughACycle, int home) {
        final UnboundedPool<?> p = pool;
        if (idleThroughACycle || p.closed || p.pushAt(x, home, p.epoch - 1) < 0) {
            return p.hooks.drop(x, null, p.poolCounts);
        }
        return null;
    }

    /**
     * The exception of an acquire on a closed pool. A release that raced close may have left its
     * object in the caller's slot {@code own} (a pool without a destroy hook): forgotten here.
     */
    static PoolClosedException closed(UnboundedPool<?> pool, PrivateSlot own) {
        if (own != null) {
            Object x = own.peek();
            if (x != null && own.takeFromOutside(x)) {
                UserHooks.rethrowVmError(pool.hooks.drop(x, own, null));
            }
            for (int i = own.spareEntries() - 1; i >= 0; i--) {
                Object y = own.peekSpare(i);
                if (y != null && own.takeSpareFromOutside(i, y)) {
                    UserHooks.rethrowVmError(pool.hooks.drop(y, own, null));
                }
            }
        }
        return new PoolClosedException(pool.name());
    }

    /** Drops what it is given, keeping the first {@link VirtualMachineError} of a destroy hook. */
    static final class FirstError implements Consumer<Object> {
        private final UnboundedPool<?> pool;
        Throwable error;

        FirstError(UnboundedPool<?> pool) {
            this.pool = pool;
        }

        /** Objects dropped through {@link #accept}. */
        long count;

        @Override
        public void accept(Object x) {
            count++;
            keep(pool.hooks.drop(x, null, pool.poolCounts));
        }

        void keep(Throwable t) {
            if (error == null) {
                error = t;
            }
        }
    }
}
