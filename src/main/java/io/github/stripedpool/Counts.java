package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Counter indices, and the shared counter arrays: one per stripe (for the threads that have no
 * private slot) and one per pool (aging, close, reaped threads). A {@link PrivateSlot} keeps its
 * owner's counters in fields of its own instead.
 *
 * <p>In the unbounded engine a private-slot cycle pays for two plain increments of its owner's
 * own fields: the hit ({@link #HIT_PRIVATE}) and the put ({@link #PUTS}). {@link #RELEASED} there
 * counts the releases that did not go to a private slot; {@code released = RELEASED + PUTS}.
 * The bounded engine has no private slot: its {@link #RELEASED} counts every release and it
 * never counts {@link #PUTS}. Both sides of a cycle are
 * counted where they happen, so acquisitions and releases balance exactly at quiescence, even in
 * the race where aging forgets an object its owner is taking (see {@link PrivateSlot}).
 *
 * <p>Every counter array is padded by {@link #PAD} unused elements at both ends, so that its
 * atomic adds never share a cache line with another object's data.
 */
final class Counts {
    static final int CREATED = 0;
    static final int DROPPED = 1;
    static final int RELEASED = 2;
    static final int HIT_PRIVATE = 3;
    static final int HIT_HOME = 4;
    static final int HIT_STOLEN = 5;
    static final int HIT_VICTIM = 6;
    static final int MISS = 7;
    static final int HOOK_FAILURE = 8;
    static final int PUTS = 9;
    /** Objects given back with {@link Pool#invalidate}: destroyed, never pooled. */
    static final int INVALIDATED = 10;
    /** Released objects the {@link PoolBuilder#retainIf retain predicate} refused: destroyed. */
    static final int NOT_RETAINED = 11;
    static final int SIZE = 12;

    /** 128 bytes of {@code long}s: two cache lines, see the package conventions. */
    static final int PAD = 16;

    private static final VarHandle LONGS = MethodHandles.arrayElementVarHandle(long[].class);

    private Counts() {
    }

    static long[] newArray() {
        return new long[PAD + SIZE + PAD];
    }

    /** Adds to a counter that several threads write. */
    static void add(long[] counts, int counter, long delta) {
        LONGS.getAndAdd(counts, PAD + counter, delta);
    }

    /** Adds every counter of {@code counts} into {@code sums} (an unpadded array of SIZE). */
    static void sumInto(long[] counts, long[] sums) {
        for (int c = 0; c < SIZE; c++) {
            sums[c] += (long) LONGS.getOpaque(counts, PAD + c);
        }
    }
}
