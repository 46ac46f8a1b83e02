package io.github.stripedpool.testing;

import io.github.stripedpool.Lease;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A pool that counts the snapshots taken of it, for the monitoring integrations' tests: they
 * must take one snapshot per poll, not one per figure.
 */
public final class StatsCountingPool<T> implements Pool<T> {
    private final Pool<T> delegate;
    private final AtomicInteger snapshots = new AtomicInteger();

    public StatsCountingPool(Pool<T> delegate) {
        this.delegate = delegate;
    }

    /** Calls to {@link #stats()} so far. */
    public int snapshots() {
        return snapshots.get();
    }

    @Override
    public T acquire() {
        return delegate.acquire();
    }

    @Override
    public void release(T object) {
        delegate.release(object);
    }

    @Override
    public void invalidate(T object) {
        delegate.invalidate(object);
    }

    @Override
    public Lease<T> lease() {
        return delegate.lease();
    }

    @Override
    public PoolStats stats() {
        snapshots.incrementAndGet();
        return delegate.stats();
    }

    @Override
    public String name() {
        return delegate.name();
    }

    @Override
    public boolean isClosed() {
        return delegate.isClosed();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
