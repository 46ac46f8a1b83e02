package io.github.stripedpool;

/**
 * Thrown by the acquire methods of a bounded pool (see {@link PoolBuilder#maxTotal(int)}) when
 * the thread is interrupted while it waits for an object. The thread's interrupt status is still
 * set when this is thrown, so code further up sees the interruption too. The
 * {@link #getCause() cause} is an {@link InterruptedException} for code that looks for one.
 *
 * <p>Nothing is lost: if an object was handed to the thread in the instant it was interrupted,
 * the object goes back to the pool (to the next waiting thread, if any) before this is thrown.
 */
public final class PoolInterruptedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    PoolInterruptedException(String message) {
        super(message, new InterruptedException(message));
    }
}
