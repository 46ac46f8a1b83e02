package io.github.stripedpool;

/**
 * Thrown by {@link Pool#acquire()} and {@link Pool#lease()} once the pool is closed.
 */
public final class PoolClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    PoolClosedException(String poolName) {
        super("pool '" + poolName + "' is closed: it hands out no more objects; "
                + "build a new pool, or stop using this one before closing it");
    }
}
