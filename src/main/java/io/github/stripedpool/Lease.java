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
 * calling {@link #get()} after closing or invalidating it, throws {@link IllegalStateException}
 * whose message says how the lease ended: the object may already belong to another thread by
 * then, or be destroyed. When the acquisition was tracked by {@link LeakDetection leak
 * detection}, the exception's cause is the stack trace of the {@code close()} or
 * {@code invalidate()} that ended the lease.
 *
 * <p>Each lease is a small object. Where the JIT sees the whole try-with-resources block it
 * removes the allocation; on a path where it cannot, use {@link Pool#acquire()} and
 * {@link Pool#release(Object)}, which never allocate.
 *
 * @param <T> the type of the pooled object
 */
public sealed class Lease<T> implements AutoCloseable permits TrackedLease {
    /** {@link #state} while the lease holds its object ({@link #object} is not null). */
    private static final int HOLDING = 0;
    /** Ended by {@link #close()}: the object went back to the pool. */
    private static final int CLOSED = 1;
    /** Ended by {@link #invalidate()}: the one {@link #close()} that follows does nothing. */
    private static final int INVALIDATED = 2;
    /** Ended by {@link #invalidate()}, and that close came too: a further one throws. */
    private static final int INVALIDATED_CLOSED = 3;

    private final Pool<T> pool;
    private T object;
    /** How the lease ended, for the next call's exception; {@link #HOLDING} until then. */
    private int state;

    Lease(Pool<T> pool, T object) {
        this.pool = pool;
        this.object = object;
    }

    /**
     * The leased object.
     *
     * @return the object, which belongs to the caller until this lease is closed
     * @throws IllegalStateException if the lease is already closed or invalidated
     */
    public T get() {
        T o = object;
        if (o == null) {
            throw new IllegalStateException("lease of pool '" + pool.name() + "' used after "
                    + (state == CLOSED ? "close(): the object already went back to the pool"
                            : "invalidate(): the object was dropped (destroyed), not given back for reuse")
                    + "; keep every use inside the try-with-resources block, before it ends");
        }
        return o;
    }

    /**
     * Releases the object to its pool; after {@link #invalidate()}, does nothing the first time.
     *
     * @throws IllegalStateException if the lease is already closed (or invalidated and closed);
     *         the pool is not touched
     */
    @Override
    public void close() {
        T o = object;
        if (o == null) {
            if (state == INVALIDATED) {
                state = INVALIDATED_CLOSED; // the close of the try-with-resources block
                return;
            }
            throw new IllegalStateException("lease of pool '" + pool.name() + "' closed "
                    + (state == CLOSED ? "twice: the object was released at the first close()"
                            : "again after invalidate() and the close() that followed it: the object "
                                    + "was dropped at invalidate(), and no close() gives anything back"));
        }
        object = null;
        state = CLOSED;
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
            throw new IllegalStateException("lease of pool '" + pool.name() + "' invalidated after "
                    + (state == CLOSED ? "close(): the object already went back to the pool"
                            : "invalidate(): the object was already dropped"));
        }
        object = null;
        state = INVALIDATED;
        pool.invalidate(o);
    }

    @Override
    public String toString() {
        T o = object;
        return "Lease[pool=" + pool.name() + ", " + (o != null ? "holding " + o
                : state == CLOSED ? "closed" : "invalidated") + "]";
    }
}
