package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A platform thread's own slot in one pool: at most one idle object, the thread's counters and
 * its home stripe. Reached through the pool's {@code ThreadLocal}, and also from the pool's
 * registry so that aging and close can empty slots of threads that went idle or died.
 *
 * <p>Concurrency. {@link #item} moves {@code null -> x} only by its owner (release) and
 * {@code x -> null} by the owner (acquire), by aging (the object sat idle two cycles, or the
 * owner died) or by close. Every transition is a compare-and-set, so the object goes to exactly
 * one of them. The owner's CAS is uncontended and its cache line stays in the owner's core
 * except in the rare instant aging looks at it, so it costs a locked instruction but no
 * coherence traffic. It cannot be a plain write: an owner that read {@code x} and wrote null
 * while aging took {@code x} would hand out an object that aging destroys. Taking from an idle
 * thread without the owner's cooperation needs either a read-modify-write or a store-load fence
 * on the owner's side; this class uses the cheaper of the two, once per transition.
 *
 * <p>{@link #stamp} is written by the owner with a plain write before the CAS that publishes the
 * object, and read by aging after it has read the object; a stale stamp can only make an object
 * look younger (it was re-released in between), which delays its aging by a cycle.
 *
 * <p>The counters are plain {@code long} fields written by the owner only, with plain
 * increments: a version with opaque array accesses cost a third of the whole private-slot cycle.
 * {@link Pool#stats()} reads them racily; every 64-bit JVM writes an aligned {@code long} in one
 * instruction, so a reader sees an old or a new value, never a torn one, and a snapshot that is a
 * few operations old is what monitoring asks for.
 */
final class PrivateSlot extends PrivateSlotFields {
    long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

    private static final VarHandle ITEM;

    static {
        try {
            ITEM = MethodHandles.lookup().findVarHandle(PrivateSlotFields.class, "item", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    PrivateSlot(Thread owner, int home, boolean mayPark) {
        super(owner, home, mayPark);
    }

    /** The owner takes its parked object, or gets null if the slot is empty or was emptied. */
    Object take() {
        Object x = item;
        return x != null && ITEM.compareAndSet(this, x, null) ? x : null;
    }

    /** The owner puts {@code x}; false if the slot is occupied (or this thread has no permit). */
    boolean put(Object x, int epoch) {
        if (!mayPark || item != null) {
            return false;
        }
        stamp = epoch;
        return ITEM.compareAndSet(this, null, x);
    }

    /** Any thread (aging, close) takes {@code x} if it is still the slot's object. */
    boolean takeFromOutside(Object x) {
        return ITEM.compareAndSet(this, x, null);
    }

    Object peek() {
        return item;
    }

    int stamp() {
        return stamp;
    }

    /** Increments a counter; slow paths only, the fast paths increment their field directly. */
    void inc(int counter) {
        switch (counter) {
            case Counts.CREATED: created++; break;
            case Counts.DROPPED: dropped++; break;
            case Counts.RELEASED: released++; break;
            case Counts.HIT_PRIVATE: privateHits++; break;
            case Counts.HIT_HOME: homeHits++; break;
            case Counts.HIT_STOLEN: stolenHits++; break;
            case Counts.HIT_VICTIM: victimHits++; break;
            case Counts.MISS: misses++; break;
            case Counts.HOOK_FAILURE: hookFailures++; break;
            default: throw new IllegalArgumentException("no counter " + counter);
        }
    }

    /** Adds this slot's counters into {@code sums} (indexed like {@link Counts}). */
    void sumInto(long[] sums) {
        sums[Counts.CREATED] += created;
        sums[Counts.DROPPED] += dropped;
        sums[Counts.RELEASED] += released;
        sums[Counts.HIT_PRIVATE] += privateHits;
        sums[Counts.HIT_HOME] += homeHits;
        sums[Counts.HIT_STOLEN] += stolenHits;
        sums[Counts.HIT_VICTIM] += victimHits;
        sums[Counts.MISS] += misses;
        sums[Counts.HOOK_FAILURE] += hookFailures;
    }

    /** Whether the owner has terminated; its last write then happens-before this returning true. */
    boolean ownerDead() {
        return !owner.isAlive();
    }
}

/** The slot's fields, between {@link PadHead} and the tail padding of {@link PrivateSlot}. */
abstract class PrivateSlotFields extends PadHead {
    @jdk.internal.vm.annotation.Contended("slot")
    volatile Object item;
    int stamp;
    long created, dropped, released, privateHits, homeHits, stolenHits, victimHits, misses,
            hookFailures;
    final int home;
    /** Whether this thread got one of the pool's private-slot permits (see {@code maxIdle}). */
    final boolean mayPark;
    /**
     * Strong, so that the pool's thread-id table can tell its entry's owner by identity; a dead
     * thread's object is kept only until the next aging cycle reaps its slot.
     */
    final Thread owner;

    PrivateSlotFields(Thread owner, int home, boolean mayPark) {
        this.owner = owner;
        this.home = home;
        this.mayPark = mayPark;
    }
}
