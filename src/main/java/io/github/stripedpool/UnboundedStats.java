package io.github.stripedpool;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The snapshot of an {@link UnboundedPool}'s counters.
 *
 * <p>Invariants. Runs no user code, and takes one lock only, {@link UnboundedAging#counting},
 * whose holders run none either, so {@code stats()} never waits for a hook. Counters are read
 * racily (see {@link PoolStats} for what a snapshot taken while threads work may read); each one
 * is exact at quiescence, and never reads lower than in a snapshot taken before: every
 * counter only grows (but for a put's count undone, see {@link PrivateSlot#put}), and the one change of what is summed, a reaped slot's counters moving into
 * the pool's, happens under the lock this sum holds, so a reaped slot, skipped here, is counted
 * in the pool's counters already. On a
 * closed pool without a destroy hook, a release that raced close may have left its object in a
 * private slot; the snapshot first forgets it, by compare-and-set, counting it dropped.
 */
final class UnboundedStats {
    private UnboundedStats() {
    }

    static PoolStats of(UnboundedPool<?> pool, ReentrantLock counting, String name, int maxIdle,
            long agingCycles, boolean exact) {
        boolean closed = pool.closed;
        if (closed && !exact) {
            UnboundedAging.sweepSlots(pool, new Consumer<Object>() { // no lambda: see ClockThread
                @Override
                public void accept(Object x) {
                    Counts.add(pool.poolCounts, Counts.DROPPED, 1);
                }
            });
        }
        long[] sums = new long[Counts.SIZE];
        StackHeadroom.ensure(); // no overflow while it is held
        counting.lock();
        try {
            Counts.sumInto(pool.poolCounts, sums);
            for (Stripe s : pool.stripes) {
                Counts.sumInto(s.counts, sums);
            }
            for (PrivateSlot slot : pool.registry) {
                if (slot.reaped == 0) { // else counted in the pool's counters already
                    slot.sumInto(sums);
                }
            }
        } finally {
            counting.unlock();
        }
        sums[Counts.RELEASED] += sums[Counts.PUTS];
        return new PoolStats(name, sums, agingCycles, countIdle(pool), maxIdle, closed);
    }

    /**
     * The idle objects in the stripes, then in the private slots of live owners: exact when no
     * call is in progress; while threads work an object may move behind the walk (missed) or
     * ahead of it (counted twice), which {@link PoolStats} caps at {@code maxIdle}.
     */
    static int countIdle(UnboundedPool<?> pool) {
        int idle = 0;
        for (Stripe s : pool.stripes) {
            idle += s.countIdle();
        }
        for (PrivateSlot slot : pool.registry) {
            if (slot.reaped != 0) {
                continue;
            }
            if (slot.peek() != null) {
                idle++;
            }
            for (int i = slot.spareEntries() - 1; i >= 0; i--) {
                if (slot.peekSpare(i) != null) {
                    idle++;
                }
            }
        }
        return idle;
    }
}
