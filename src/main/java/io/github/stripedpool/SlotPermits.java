package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The permits that let a platform thread keep an object in its private slot, so that idle
 * objects never exceed {@code maxIdle}.
 *
 * <p>Invariants. The stripes' slots add up to {@code maxIdle}. A permit is one unit of a
 * stripe's capacity, lent by {@link Stripe#lendPermit} to one private slot: while lent, that
 * stripe holds one object less. At most half of {@code maxIdle} is ever lent ({@link #left}
 * starts there and is taken by compare-and-set before a stripe is asked), so a pool whose
 * threads have no private slot (virtual threads) still keeps up to {@code maxIdle} idle. A slot
 * asks at most once per aging epoch ({@link PrivateSlotFields#permitTry}, owner only), so a
 * thread refused once does not contend on {@link #left} at every release. A permit comes back
 * when its slot is reaped ({@link #giveBack}), by exactly one reaper. A slot may hold up
 * to {@link PrivateSlotFields#SPARES} more, one for each of its spare entries
 * ({@link PrivateSlotFields#spares}), lent the same way, one at a time as the thread holds more
 * objects at once. A refused slot asks again in the next epoch, not before; a slot that was lent
 * one may ask for the next at once, so a thread that holds eight objects gets its entries within
 * one cycle of its releases.
 */
final class SlotPermits {
    /** Permits left to lend. */
    private final AtomicInteger left;
    private final Stripe[] stripes;
    private final int mask;

    SlotPermits(Stripe[] stripes, int maxIdle) {
        this.left = new AtomicInteger((maxIdle + 1) / 2);
        this.stripes = stripes;
        this.mask = stripes.length - 1;
    }

    /**
     * Tries to borrow a stripe's unit of capacity for the slot {@code s}: its first permit, or,
     * once it holds that one, the permit of its next spare entry (while it holds fewer than
     * {@link PrivateSlotFields#SPARES}). After a refusal, not again in the same aging epoch.
     */
    boolean tryLend(PrivateSlot s, int epoch) {
        boolean spare = s.mayPut;
        if (spare ? s.spareTry == epoch || !s.mayAskSpare() : s.permitTry == epoch) {
            return false;
        }
        int k = lend(s.home);
        if (k < 0) {
            if (spare) {
                s.spareTry = epoch;
            } else {
                s.permitTry = epoch;
            }
            return false;
        }
        if (spare) {
            s.spareStripes[s.spareCap] = k;
            s.spareCap++;
        } else {
            s.permitStripe = k;
            s.permitted();
        }
        return true;
    }

    /** One unit of a stripe's capacity, from {@code home} on: the stripe's index, or -1. */
    private int lend(int home) {
        for (int p = left.get(); p > 0; p = left.get()) {
            if (left.compareAndSet(p, p - 1)) {
                for (int i = 0; i < stripes.length; i++) {
                    int k = (home + i) & mask;
                    if (stripes[k].lendPermit()) {
                        return k;
                    }
                }
                left.incrementAndGet();
                return -1;
            }
        }
        return -1;
    }

    /** Returns the permits of a reaped slot. */
    void giveBack(PrivateSlot s) {
        if (s.mayPut) {
            stripes[s.permitStripe].returnPermit();
            left.incrementAndGet();
        }
        for (int i = 0; i < s.spareCap; i++) {
            stripes[s.spareStripes[i]].returnPermit();
            left.incrementAndGet();
        }
    }

    /** Lends no more permits: every later release goes to the stripes. For tests. */
    void withdrawAll() {
        left.set(0);
    }
}
