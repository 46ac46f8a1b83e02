package io.github.stripedpool;

/**
 * Thrown by {@link Pool#acquire()} and {@link Pool#lease()} once the pool is closed, and by
 * {@link io.github.stripedpool.buffer.BufferPool#acquire(int)} and its {@code lease} once the
 * buffer pool is closed.
 */
public final class PoolClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    /**
     * The exception for a closed pool, with a message that names it and says what to do.
     *
     * @param poolName the name of the closed pool, as the user gave it
     */
    public PoolClosedException(String poolName) {
        super("pool '" + poolName + "' is closed: it hands out no more objects; "
                + "build a new pool, or stop using this one before closing it");
    }
}
