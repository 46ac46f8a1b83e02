package io.github.stripedpool.micrometer;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import java.util.function.LongSupplier;

/**
 * The last {@link PoolStats} snapshot of one pool, shared by all of its meters in one registry,
 * so that one scrape of the registry takes one snapshot instead of one per meter, and all meters
 * of the scrape agree. One per registry: a snapshot refreshed by another registry's poll in the
 * middle of this one's scrape would mix two snapshots in it.
 *
 * <p>Holds no reference to the pool: the meters reference the pool weakly (Micrometer's default),
 * so a pool that the application dropped without {@link PoolMetrics#close()} can still be
 * collected.
 *
 * <p>Concurrency. A refresh takes the snapshot and publishes it under this object's monitor,
 * after looking again whether another poll refreshed it meanwhile: snapshots are taken and
 * published one after the other, so a poll never reads figures older than one before it read.
 * Without it, two polls that found the snapshot old at once each took one, and the last write
 * won: when that was the older snapshot, every counter went back for a second, which a
 * registry reads as a reset. {@code stats()} runs no user code and waits for none, so a poll
 * waits for one snapshot at most; a fresh snapshot is read without the monitor.
 */
final class StatsCache {
    /**
     * How long a snapshot serves: one second. Registries read all meters of a scrape or a push
     * step within milliseconds and poll every few seconds at the most (Prometheus scrapes every
     * 15 to 60 s, push registries every minute), so a scrape never sees the last one's figures.
     */
    static final long MAX_AGE_NANOS = 1_000_000_000L;

    private final LongSupplier nanoClock;
    private volatile Snapshot last;

    StatsCache(LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
    }

    /** A snapshot of {@code pool} taken less than {@link #MAX_AGE_NANOS} ago. */
    PoolStats of(Pool<?> pool) {
        Snapshot s = last;
        if (s == null || nanoClock.getAsLong() - s.takenAt() >= MAX_AGE_NANOS) {
            s = refresh(pool);
        }
        return s.stats();
    }

    private synchronized Snapshot refresh(Pool<?> pool) {
        long now = nanoClock.getAsLong();
        Snapshot s = last;
        if (s == null || now - s.takenAt() >= MAX_AGE_NANOS) { // again: another poll may have
            s = new Snapshot(pool.stats(), now);
            last = s;
        }
        return s;
    }

    private record Snapshot(PoolStats stats, long takenAt) {
    }
}
