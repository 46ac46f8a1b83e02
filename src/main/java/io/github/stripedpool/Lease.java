package io.github.stripedpool;

/**
 * An acquired object that goes back to its pool on {@link #close()}:
 *
 * <pre>{@code
 * try (Lease<Buffer> lease = pool.lease()) {
 *     write(lease.get());
 * }
 * }</pre>
 *
 * <p>An object found broken inside the block is given back with {@link #invalidate()}: the pool
 * destroys it, and the closing of the lease at the end of the block does nothing more.
 *
 * <p>A lease is meant for the thread that opened it; it is not thread-safe. Closing it twice, or
 * calling {@link #get()} after closing or invalidating it, throws {@link IllegalStateException}:
 * the object may already belong to another thread by then. When the acquisition was tracked by
 * {@link LeakDetection leak detection}, the exception's cause is the stack trace of the first
 * {@code close()}.
 *
 * <p>Each lease is a small object. Where the JIT sees the whole try-with-resources block it
 * removes the allocation; on a path where it cannot, use {@link Pool#acquire()} and
 * {@link Pool#release(Object)}, which never allocate.
 *
 * @param <T> the type of the pooled object
 */
public sealed class Lease<T> implements AutoCloseable permits TrackedLease {
    private final Pool<T> pool;
    private T object;
    /** Set by {@link #invalidate()}: the one {@link #close()} that follows does nothing. */
    private boolean invalidated;

    Lease(Pool<T> pool, T object) {
        this.pool = pool;
        this.object = object;
    }

    /**
     * The leased object.
     *
     * @return the object, which belongs to the caller until this lease is closed
     * @throws IllegalStateException if the lease is already closed
     */
    public T get() {
        T o = object;
        if (o == null) {
            throw new IllegalStateException("lease of pool '" + pool.name()
                    + "' used after close(): the object already went back to the pool; "
                    + "keep every use inside the try-with-resources block");
        }
        return o;
    }

    /**
     * Releases the object to its pool.
     *
     * @throws IllegalStateException if the lease is already closed; the pool is not touched
     */
    @Override
    public void close() {
        T o = object;
        if (o == null && invalidated) {
            invalidated = false; // the close of the try-with-resources block; a second one throws
            return;
        }
        if (o == null) {
            throw new IllegalStateException("lease of pool '" + pool.name()
                    + "' closed twice: the object was released at the first close()");
        }
        object = null;
        pool.release(o);
    }

    /**
     * Gives the object back as broken, with {@link Pool#invalidate(Object)}: the pool destroys
     * it instead of pooling it. The next {@link #close()} (the end of the try-with-resources
     * block) then does nothing.
     *
     * @throws IllegalStateException if the lease is already closed or invalidated; the pool is
     *         not touched
     */
    public void invalidate() {
        T o = object;
        if (o == null) {
            throw new IllegalStateException("lease of pool '" + pool.name()
                    + "' invalidated after close() or invalidate(): the object was already given back");
        }
        object = null;
        invalidated = true;
        pool.invalidate(o);
    }

    @Override
    public String toString() {
        T o = object;
        return "Lease[pool=" + pool.name() + ", " + (o == null ? "closed" : "holding " + o) + "]";
    }
}
