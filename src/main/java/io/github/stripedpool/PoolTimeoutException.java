package io.github.stripedpool;

/**
 * Thrown by {@link Pool#acquire()}, {@link Pool#acquire(java.time.Duration)} and
 * {@link Pool#lease()} of a bounded pool (see {@link PoolBuilder#maxTotal(int)}) when every object
 * stayed in use for the whole timeout. The message names the pool, its cap, how many objects were
 * in use, how many other threads were waiting and the timeout, which is usually enough to tell a
 * pool that is too small from objects that are not released.
 *
 * <p>Nothing is taken from the pool when this is thrown: the caller holds no object and no place
 * in the queue of waiting threads.
 */
public final class PoolTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PoolTimeoutException(String message) {
        super(message);
    }
}
