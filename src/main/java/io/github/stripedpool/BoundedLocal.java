package io.github.stripedpool;

import java.lang.ref.WeakReference;

/**
 * A platform thread's state in one {@link BoundedPool}: the entry it used last (a hint, not a
 * claim: it is taken like any idle entry, by CAS), which idle stack it looks at first, and its
 * counters.
 *
 * <p>Only the owner writes the fields, with plain writes; {@link Pool#stats()} reads the counters
 * racily, which is benign for the reason given in {@link PrivateSlot}. The object is padded on
 * both sides because its counters are written on every acquire and release.
 */
final class BoundedLocal extends BoundedLocalFields {
    long t00, t01, t02, t03, t04, t05, t06, t07, t08, t09, t10, t11, t12, t13, t14, t15;

    BoundedLocal(Thread owner, int home) {
        super(owner, home);
    }

    void inc(int counter) {
        switch (counter) {
            case Counts.RELEASED: released++; break;
            case Counts.HIT_PRIVATE: privateHits++; break;
            case Counts.HIT_HOME: homeHits++; break;
            case Counts.HIT_STOLEN: stolenHits++; break;
            case Counts.MISS: misses++; break;
            default: throw new IllegalArgumentException("not a per-thread counter: " + counter);
        }
    }

    void sumInto(long[] sums) {
        sums[Counts.RELEASED] += released;
        sums[Counts.HIT_PRIVATE] += privateHits;
        sums[Counts.HIT_HOME] += homeHits;
        sums[Counts.HIT_STOLEN] += stolenHits;
        sums[Counts.MISS] += misses;
    }

    /** Whether the owner has terminated; its last write then happens-before this returning true. */
    boolean ownerDead() {
        Thread t = owner.get();
        return t == null || !t.isAlive();
    }
}

/** The fields, between {@link PadHead} and the tail padding of {@link BoundedLocal}. */
abstract class BoundedLocalFields extends PadHead {
    BoundedEntry hint;
    final int home;
    long released, privateHits, homeHits, stolenHits, misses;
    /** Entries this thread's acquisitions popped or claimed (see {@link BoundedEntryTable}); for tests. */
    long examined;
    final WeakReference<Thread> owner;

    BoundedLocalFields(Thread owner, int home) {
        this.owner = new WeakReference<>(owner);
        this.home = home;
    }
}
