package io.github.stripedpool;

/**
 * Thrown by {@link Pool#acquire()} when the pool's factory threw or returned null. The factory's
 * exception, if any, is the {@link #getCause() cause}. The pool itself is unaffected: the next
 * acquire calls the factory again.
 */
public final class ObjectCreationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ObjectCreationException(String message, Throwable cause) {
        super(message, cause);
    }
}
