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
 * when its slot is reaped ({@link #giveBack}), by exactly one reaper.
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

    /** Tries, once per aging epoch, to borrow a stripe's unit of capacity for the slot {@code s}. */
    boolean tryLend(PrivateSlot s, int epoch) {
        if (s.permitTry == epoch) {
            return false;
        }
        s.permitTry = epoch;
        for (int p = left.get(); p > 0; p = left.get()) {
            if (left.compareAndSet(p, p - 1)) {
                for (int i = 0; i < stripes.length; i++) {
                    int k = (s.home + i) & mask;
                    if (stripes[k].lendPermit()) {
                        s.permitStripe = k;
                        s.permitted();
                        return true;
                    }
                }
                left.incrementAndGet();
                return false;
            }
        }
        return false;
    }

    /** Returns the permit of a reaped slot that held one. */
    void giveBack(PrivateSlot s) {
        stripes[s.permitStripe].returnPermit();
        left.incrementAndGet();
    }

    /** Lends no more permits: every later release goes to the stripes. For tests. */
    void withdrawAll() {
        left.set(0);
    }
}
