package io.github.stripedpool;

/**
 * The unbounded pool's shared tier: its {@link Stripe stripes}, about one per processor, and
 * where a thread looks in them. A take goes to the thread's home stripe for a young object
 * (pushed in the current aging epoch), then to the other stripes for one (stealing), then to every
 * stripe for an object of any age (a victim); a push goes to the first stripe with room from home
 * on. The pool decides what to do with the result (count it, make an object, destroy one that did
 * not fit, take one back that raced close).
 *
 * <p>Invariants: those of {@link Stripe}, which this class only visits, in a fixed order from
 * the caller's home: every slot change is a compare-and-set made there, so an object goes to one
 * taker, and {@link Stripe#looksEmpty} skips a stripe only when it holds nothing and has nothing
 * on the way in. Each take and push costs at most one visit per stripe, and each visit stops at
 * the first fitting slot or, for the young pass, at once when the stripe has no young object.
 * Stateless beyond the final array: shared by every thread of a pool.
 */
final class SharedTier {
    final Stripe[] stripes;
    private final int mask;

    /**
     * @param n the number of stripes, a power of two
     * @param maxIdle their capacity in all, spread evenly
     */
    SharedTier(int n, int maxIdle) {
        this.stripes = new Stripe[n];
        for (int i = 0; i < n; i++) {
            stripes[i] = new Stripe(maxIdle / n + (i < maxIdle % n ? 1 : 0));
        }
        this.mask = n - 1;
    }

    /** A young object of another stripe than {@code home}, or null. */
    Object steal(int home, int epoch) {
        for (int i = 1; i < stripes.length; i++) {
            Stripe st = stripes[(home + i) & mask];
            if (!st.looksEmpty()) {
                Object x = st.popYoung(epoch);
                if (x != null) {
                    return x;
                }
            }
        }
        return null;
    }

    /**
     * An object of any age from any stripe, home first, or null. A young object pushed since the
     * caller's young passes can be taken here and counted as a victim: a rare miscount, never a
     * wrong hand-out.
     */
    Object victim(int home, int epoch) {
        for (int i = 0; i < stripes.length; i++) {
            Stripe st = stripes[(home + i) & mask];
            if (!st.looksEmpty()) {
                Object x = st.popAny(epoch);
                if (x != null) {
                    return x;
                }
            }
        }
        return null;
    }

    /**
     * Pushes {@code x} to the first stripe with room, starting at {@code home}.
     *
     * @return where: the stripe's index in the high 32 bits and the slot's index in the low ones
     *         (see {@link #stripe} and {@link #slot}), or -1 if every stripe was full and
     *         {@code x} is still the caller's
     */
    long push(Object x, int home, int stamp) {
        for (int i = 0; i < stripes.length; i++) {
            int j = (home + i) & mask;
            int k = stripes[j].push(x, stamp);
            if (k >= 0) {
                return (long) j << 32 | k;
            }
        }
        return -1;
    }

    /** The stripe of a place {@link #push} returned. */
    Stripe stripe(long at) {
        return stripes[(int) (at >>> 32)];
    }

    static int stripeIndex(long at) {
        return (int) (at >>> 32);
    }

    static int slot(long at) {
        return (int) at;
    }
}
