package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * One shared stack of idle objects. A pool has about one stripe per processor; each thread has a
 * home stripe, and takes from the others only when its own is empty.
 *
 * <p>Concurrency. The stack is an array of slots, each either null or holding one idle object.
 * The only transitions of a slot are {@code null -> x} (push) and {@code x -> null} (pop, steal,
 * aging, close), and each is a compare-and-set on that slot. This is the whole correctness
 * argument: an object placed in a slot is taken out by exactly one successful compare-and-set,
 * so no two threads ever receive it, and a slot is never overwritten, so nothing is lost. The
 * CAS also publishes the object with release/acquire ordering, so the taker sees everything the
 * releasing thread wrote to it, including its reset. No ABA problem can arise: a CAS from
 * {@code x} to null that succeeds takes {@code x} while it is idle in that slot, whatever
 * happened to the slot in between.
 *
 * <p>{@link #top} is a hint, not a size: one past the highest slot a push or pop last used.
 * Every thread writes it with plain writes, and races may leave it too high (a scan then meets a
 * few nulls) or too low (an object above it stays unseen by pops until a push scans past it or
 * the next aging cycle repairs the hint). Both are benign: the hint only decides where scans
 * start. Keeping pushes and pops at the top makes the stripe a LIFO, so a steady load reuses the
 * same few warm objects and the ones at the bottom age out.
 *
 * <p>{@link #stamps} holds, per slot, the pool's aging epoch when the object was pushed: aging
 * drops objects whose stamp is two epochs old, and a pop tells a victim (stamp older than the
 * current epoch) from a young object. A stamp is written with a plain write before the
 * publishing CAS. Two pushers racing for one slot may leave the loser's stamp on the winner's
 * object; both are the current epoch or one apart, so the object ages at most one cycle late.
 *
 * <p>Layout. {@link PadHead} and the tail fields below keep {@code top} 128 bytes from any other
 * object's fields; the arrays carry {@link #PAD} unused elements at both ends for the same
 * reason. {@code @Contended} adds the JVM's own padding when {@code -XX:-RestrictContended} is
 * set.
 */
final class Stripe extends StripeFields {
    long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

    /** 128 bytes of references with compressed oops (256 without): two cache lines. */
    static final int PAD = 32;

    private static final VarHandle ITEMS = MethodHandles.arrayElementVarHandle(Object[].class);

    Stripe(int capacity) {
        super(capacity, new Object[PAD + capacity + PAD], new int[PAD + capacity + PAD]);
    }

    /**
     * Places {@code x} in the first free slot at or above the hint.
     *
     * @return the slot's index, or -1 if the stripe looks full (the caller tries elsewhere or
     *         drops {@code x})
     */
    int push(Object x, int stamp) {
        final Object[] items = this.items;
        final int[] stamps = this.stamps;
        final int cap = capacity;
        for (int i = top; i < cap; i++) {
            int k = PAD + i;
            if (items[k] == null) { // plain read: only a hint, the CAS decides
                stamps[k] = stamp;
                if (ITEMS.compareAndSet(items, k, null, x)) {
                    top = i + 1;
                    return k;
                }
            }
        }
        return -1;
    }

    /**
     * Takes the top object if it is young (pushed in the current epoch).
     *
     * @return the object, or null if the stripe is empty or its top object is a victim
     */
    Object popYoung(int epoch) {
        return pop(epoch, false);
    }

    /** Takes the top object whatever its age, or returns null if the stripe is empty. */
    Object popAny(int epoch) {
        return pop(epoch, true);
    }

    private Object pop(int epoch, boolean victimsToo) {
        final Object[] items = this.items;
        final int[] stamps = this.stamps;
        final int t = top;
        for (int i = t - 1; i >= 0; i--) {
            int k = PAD + i;
            Object x = ITEMS.getAcquire(items, k);
            if (x == null) {
                continue;
            }
            if (!victimsToo && epoch - stamps[k] > 0) {
                return null; // LIFO: below a victim there are only victims
            }
            if (ITEMS.compareAndSet(items, k, x, null)) {
                top = i;
                return x;
            }
        }
        if (t != 0 && top == t) {
            top = 0; // scanned to the bottom and found nothing: let the next pop start at once
        }
        return null;
    }

    /** Whether any slot below the hint may hold an object; a cheap check before stealing. */
    boolean looksEmpty() {
        return top == 0;
    }

    /**
     * Takes every object whose stamp is at least two epochs old and hands it to {@code drop},
     * then repairs the hint to one past the highest occupied slot.
     *
     * @return the number of objects dropped
     */
    int dropAged(int epoch, Consumer<Object> drop) {
        final Object[] items = this.items;
        final int[] stamps = this.stamps;
        int dropped = 0;
        int highest = -1;
        for (int i = 0; i < capacity; i++) {
            int k = PAD + i;
            Object x = ITEMS.getAcquire(items, k);
            if (x == null) {
                continue;
            }
            if (epoch - stamps[k] >= 2 && ITEMS.compareAndSet(items, k, x, null)) {
                drop.accept(x);
                dropped++;
            } else {
                highest = i;
            }
        }
        top = highest + 1; // racy like every write of the hint; see the class comment
        return dropped;
    }

    /** Takes every object out and hands it to {@code sink}; used by close. */
    int drain(Consumer<Object> sink) {
        final Object[] items = this.items;
        int n = 0;
        for (int i = 0; i < capacity; i++) {
            int k = PAD + i;
            Object x = ITEMS.getAcquire(items, k);
            if (x != null && ITEMS.compareAndSet(items, k, x, null)) {
                sink.accept(x);
                n++;
            }
        }
        return n;
    }

    /**
     * Takes {@code x} back out of slot {@code k} (an index {@link #push} returned) if nobody took
     * it since; used by a release that raced close.
     */
    boolean takeBack(int k, Object x) {
        return ITEMS.compareAndSet(items, k, x, null);
    }

    int countIdle() {
        final Object[] items = this.items;
        int n = 0;
        for (int i = 0; i < capacity; i++) {
            if (ITEMS.getAcquire(items, PAD + i) != null) {
                n++;
            }
        }
        return n;
    }
}

/** The stripe's fields, between {@link PadHead} and the tail padding of {@link Stripe}. */
abstract class StripeFields extends PadHead {
    /** Hint: one past the highest slot last used. Written by every thread that uses the stripe. */
    @jdk.internal.vm.annotation.Contended("stripe")
    int top;
    final int capacity;
    /** Slots {@code [PAD, PAD + capacity)}; the ends are padding. */
    final Object[] items;
    /** Aging epoch of each slot's object, same indexing as {@link #items}. */
    final int[] stamps;
    /** Counters of the threads that use this stripe without a private slot (virtual threads). */
    final long[] counts = Counts.newArray();

    StripeFields(int capacity, Object[] items, int[] stamps) {
        this.capacity = capacity;
        this.items = items;
        this.stamps = stamps;
    }
}
