package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Consumer;

/**
 * One shared pile of idle objects. A pool has about one stripe per processor; each thread has a
 * home stripe, and takes from the others only when its own has nothing.
 *
 * <p>Structure. An array of slots, each null or holding one idle object, and one 64-bit
 * {@link #state} that packs two numbers: {@code count}, the objects in the stripe plus the pushes
 * and pops in flight, and {@code limit}, the capacity left to objects (the slots minus the
 * capacity lent to private slots as permits, see {@link #lendPermit}).
 *
 * <p>Exclusivity. A slot changes only by compare-and-set: {@code null -> x} (push) and
 * {@code x -> null} (pop, steal, aging, close). An object placed in a slot is taken out by
 * exactly one successful CAS, and a slot is never overwritten. The CAS also publishes the
 * object with release/acquire ordering, so the taker sees the releasing thread's writes,
 * including its reset. A CAS from {@code x} to null that succeeds takes {@code x} while it is
 * idle in that slot, whatever happened to the slot in between: there is no ABA problem.
 *
 * <p>Capacity, exactly. A push first reserves by a CAS of {@code state} that raises
 * {@code count} only while {@code count < limit}; a pop lowers it after its slot CAS. So
 * {@code count >= objects in slots} at every instant, and a push that reserved always has a
 * free slot to find: objects in slots {@code <= count - 1 < limit <= slots}. A push reports
 * "full" only when {@code count} has reached {@code limit}, never because it missed a free
 * slot, so the stripe never destroys objects while it has room.
 *
 * <p>No object is hidden. A pop visits every slot once, starting at the {@link #hint} and
 * going down, wrapping around, and takes the first fitting object by CAS. If an object sits in
 * a slot for the whole scan, the scan reads it there and its CAS succeeds (the slot still holds
 * it): a pop that returns null has seen every slot without a fitting object at the moment it
 * looked. A push that finds every slot taken in one pass retries: some slot was free at every
 * instant, so each failed pass means other operations completed meanwhile (lock-free). The
 * {@link #hint} (one past the slot last used) is written with plain writes by every thread and
 * only decides where scans start, so a stale hint costs a longer scan, never a lost object:
 * this replaces the earlier design, in which a hint that went too low hid objects from every
 * pop and made pushes see the stripe full, so that a load holding two to four objects per
 * thread created and destroyed objects while idle ones piled up unseen.
 *
 * <p>Order. Pushes start at the hint going up and pops at the hint going down, so a steady load
 * keeps reusing the same few warm objects near the hint (LIFO-like) and the others age out.
 *
 * <p>Ages. {@link #stamps} holds, per slot, the pool's aging epoch when the object was pushed:
 * aging drops objects whose stamp is two epochs old, and a pop tells a victim (stamp older than
 * the current epoch) from a young object. A stamp is written with a plain write before the
 * publishing CAS. Two pushers racing for one slot may leave the loser's stamp on the winner's
 * object; both are the current epoch or one apart, so the object ages at most one cycle late.
 *
 * <p>Layout. {@link PadHead} and the tail fields below keep {@code state} and {@code hint} 128
 * bytes from any other object's fields; the arrays carry {@link #PAD} unused elements at both
 * ends for the same reason. {@code @Contended} adds the JVM's own padding when
 * {@code -XX:-RestrictContended} is set.
 */
final class Stripe extends StripeFields {
    long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

    /** 128 bytes of references with compressed oops (256 without): two cache lines. */
    static final int PAD = 32;

    private static final VarHandle ITEMS = MethodHandles.arrayElementVarHandle(Object[].class);
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(StripeFields.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    Stripe(int capacity) {
        super(capacity, new Object[PAD + capacity + PAD], new int[PAD + capacity + PAD]);
        this.state = pack(0, capacity);
    }

    private static long pack(int count, int limit) {
        return ((long) limit << 32) | (count & 0xFFFF_FFFFL);
    }

    private static int count(long s) {
        return (int) s;
    }

    private static int limit(long s) {
        return (int) (s >>> 32);
    }

    /** Reserves room for one object: false if the stripe holds (or is about to hold) its limit. */
    private boolean reserve() {
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            if (count(s) >= limit(s)) {
                return false;
            }
            if (STATE.compareAndSet(this, s, s + 1)) {
                return true;
            }
        }
    }

    /** Gives back the room of an object taken out of a slot (count is at least 1 here). */
    private void taken() {
        STATE.getAndAdd(this, -1L);
    }

    /**
     * Places {@code x} in a free slot, starting at the hint and going up.
     *
     * @return the slot's index, or -1 if the stripe is full (the caller tries elsewhere or
     *         drops {@code x})
     */
    int push(Object x, int stamp) {
        if (!reserve()) {
            return -1;
        }
        final Object[] items = this.items;
        final int[] stamps = this.stamps;
        final int cap = capacity;
        int i = Math.min(Math.max(hint, 0), cap - 1);
        for (;;) { // a free slot exists at every instant: see the class comment
            for (int n = 0; n < cap; n++) {
                int k = PAD + i;
                if (ITEMS.getOpaque(items, k) == null) { // only a hint, the CAS decides
                    stamps[k] = stamp;
                    if (stamp - youngest > 0) {
                        youngest = stamp; // before the publishing CAS, like the stamp
                    }
                    if (ITEMS.compareAndSet(items, k, null, x)) {
                        hint = i + 1;
                        return k;
                    }
                }
                i = i + 1 == cap ? 0 : i + 1;
            }
        }
    }

    /**
     * Takes a young object (pushed in the current epoch). Returns at once, without a scan, when
     * no push of this epoch reached the stripe ({@link #youngest}): right after an aging cycle
     * every object is a victim, and a scan would visit every slot for nothing, at a cost that
     * grows with {@code maxIdle}, on every acquire that goes past the private slot. A scan that
     * finds none lowers {@link #youngest} below the epoch, for the same reason: the young
     * objects of the epoch were all taken, and until the next young push the acquires that go
     * on to take victims (after a burst and an aging cycle, every one) would each scan the
     * whole capacity for nothing.
     *
     * @return the object, or null if none was seen
     */
    Object popYoung(int epoch) {
        if (youngest != epoch) {
            return null;
        }
        Object x = pop(epoch, false);
        if (x == null && youngest == epoch) {
            youngest = epoch - 1; // racy with a push: see the field's comment
        }
        return x;
    }

    /** Takes an object whatever its age, or returns null if none was seen. */
    Object popAny(int epoch) {
        return pop(epoch, true);
    }

    private Object pop(int epoch, boolean victimsToo) {
        if (count((long) STATE.getVolatile(this)) == 0) {
            return null;
        }
        final Object[] items = this.items;
        final int[] stamps = this.stamps;
        final int cap = capacity;
        int i = Math.min(Math.max(hint, 1), cap) - 1;
        for (int n = 0; n < cap; n++) {
            int k = PAD + i;
            Object x = ITEMS.getAcquire(items, k);
            if (x != null && (victimsToo || epoch - stamps[k] <= 0)
                    && ITEMS.compareAndSet(items, k, x, null)) {
                taken();
                hint = i;
                return x;
            }
            i = i == 0 ? cap - 1 : i - 1;
        }
        return null;
    }

    /**
     * Whether the stripe holds no object and has none on the way in: a cheap check before
     * stealing. A stripe that is not empty may still have nothing for a pop to take (a push in
     * flight, or only victims).
     */
    boolean looksEmpty() {
        return count((long) STATE.getOpaque(this)) == 0;
    }

    /**
     * Lends one unit of capacity to a private slot (a permit), so that the idle objects of the
     * stripes and of the private slots together never exceed {@code maxIdle}.
     *
     * @return false if the stripe has no room to lend
     */
    boolean lendPermit() {
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            int limit = limit(s);
            if (count(s) >= limit) {
                return false;
            }
            if (STATE.compareAndSet(this, s, pack(count(s), limit - 1))) {
                return true;
            }
        }
    }

    /** Takes back a unit lent by {@link #lendPermit}. */
    void returnPermit() {
        STATE.getAndAdd(this, 1L << 32);
    }

    /**
     * Takes every object whose stamp is at least two epochs old and hands it to {@code drop},
     * which must not throw.
     *
     * @return the number of objects dropped
     */
    int dropAged(int epoch, Consumer<Object> drop) {
        final Object[] items = this.items;
        final int[] stamps = this.stamps;
        int dropped = 0;
        for (int i = 0; i < capacity; i++) {
            int k = PAD + i;
            Object x = ITEMS.getAcquire(items, k);
            if (x != null && epoch - stamps[k] >= 2 && ITEMS.compareAndSet(items, k, x, null)) {
                taken();
                drop.accept(x);
                dropped++;
            }
        }
        return dropped;
    }

    /** Takes every object out and hands it to {@code sink}, which must not throw; used by close. */
    int drain(Consumer<Object> sink) {
        final Object[] items = this.items;
        int n = 0;
        for (int i = 0; i < capacity; i++) {
            int k = PAD + i;
            Object x = ITEMS.getAcquire(items, k);
            if (x != null && ITEMS.compareAndSet(items, k, x, null)) {
                taken();
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
        if (ITEMS.compareAndSet(items, k, x, null)) {
            taken();
            return true;
        }
        return false;
    }

    /** Whether {@code x} is idle in slot {@code k} (an index {@link #push} returned) now. */
    boolean holdsAt(int k, Object x) {
        return ITEMS.getOpaque(items, k) == x;
    }

    /** Whether {@code x} is idle in this stripe now; a scan, for tests only. */
    boolean holds(Object x) {
        final Object[] items = this.items;
        for (int i = 0; i < capacity; i++) {
            if (ITEMS.getOpaque(items, PAD + i) == x) {
                return true;
            }
        }
        return false;
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
    /** {@code limit << 32 | count}; changed by CAS and atomic adds only (see {@link Stripe}). */
    @jdk.internal.vm.annotation.Contended("stripe")
    volatile long state;
    /** Where scans start: one past the slot last used. Plain, racy, always within [0, capacity]. */
    @jdk.internal.vm.annotation.Contended("stripe")
    int hint;
    /**
     * The newest stamp pushed here, so that {@link Stripe#popYoung} can tell without a scan
     * that the stripe holds no young object. Plain and racy, like {@link #hint}: written before
     * the publishing CAS, it is at least the stamp of any object a pop can see, except that two
     * racing pushers of different epochs (a reaped object is pushed one epoch old) may leave the
     * older value; and a young scan that found nothing lowers it below the epoch
     * ({@link Stripe#popYoung}), which may hide a push that landed during that scan. Then a
     * young object is taken by the victim pass and counted as a victim hit, or waits for the
     * next push of the epoch: a miscount, never a lost or doubly handed object, and aging
     * reads the per-slot stamps, not this.
     */
    @jdk.internal.vm.annotation.Contended("stripe")
    int youngest;
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
