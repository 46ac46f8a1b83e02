package io.github.stripedpool;

import java.util.function.Supplier;

/**
 * A pool of reusable objects.
 *
 * <p>{@link #acquire()} hands out an idle object or, when none is idle, a new one from the
 * factory. {@link #release(Object)} resets the object and keeps it for the next
 * {@code acquire()}, on this thread or any other.
 *
 * <p>A pool has one of two modes, chosen when it is built:
 * <ul>
 *   <li><b>unbounded</b> (the default): {@code acquire()} never blocks, and creates whenever
 *       nothing is idle. Idle objects that nobody reuses across two aging cycles (driven by the
 *       garbage collector, see {@link PoolBuilder#agingInterval}) are dropped, so memory comes
 *       back after a burst;</li>
 *   <li><b>bounded</b> ({@link PoolBuilder#maxTotal(int)}): at most {@code maxTotal} objects
 *       exist at once; when all are in use, {@code acquire()} waits up to the acquire timeout.
 *       Waiters queue oldest first, but a release does not hand its object to the queue: it
 *       makes it idle and wakes the oldest waiter, which competes for it with threads that
 *       acquire without waiting (the releasing thread may take it straight back). Once the
 *       oldest waiter has waited 1 ms, every release hands its object directly to the
 *       longest waiter, until the queue is empty or its front has waited less than 1 ms. When
 *       eight or more platform threads queue, more than the pool serves in 1 ms, that
 *       threshold is eight turns of the queue served in order, at most 12 ms: every wait is
 *       longer than 1 ms there in any order, and the releasing threads keep their objects
 *       between hand-offs instead of paying a wake-up for each.</li>
 * </ul>
 *
 * <p>All methods are thread-safe. An object obtained from {@code acquire()} belongs to the
 * caller until it is released, and must be released at most once, to the pool it came from.
 *
 * <h2>After {@link #close()}</h2>
 * <ul>
 *   <li>{@code acquire()} and {@code lease()} throw {@link PoolClosedException};</li>
 *   <li>{@code release(x)} is accepted: {@code x} is reset and destroyed instead of pooled, so
 *       objects that were in use when the pool closed are destroyed when they come back;</li>
 *   <li>{@code stats()}, {@code name()} and {@code isClosed()} keep working;</li>
 *   <li>{@code close()} again does nothing.</li>
 * </ul>
 *
 * <h2>User code that calls back into a pool</h2>
 * The factory and every hook and listener ({@code reset}, {@code destroy}, {@code retainIf},
 * {@code validate}, {@code onLeak}) may call any method of this pool or of another one:
 * {@code acquire}, {@code release}, {@code invalidate}, {@code lease}, {@code stats} and
 * {@code close}. The nested call works as it would anywhere else and the accounting stays
 * exact: nothing is lost or destroyed twice. A hook that closes its own pool makes the calls
 * that follow see a closed pool: the call that ran the hook finishes (an object it was
 * releasing is destroyed), and the next {@code acquire} throws {@link PoolClosedException}. A
 * hook must not give back the very object it was called for (a reset that "closes" it, and the
 * close releases it; a reset that finds it broken and invalidates it instead of throwing): that
 * is a second give-back. A bounded pool and {@code PARANOID} refuse the nested call with
 * {@link IllegalStateException}, which counts as the hook's failure (the object is destroyed
 * once); an unbounded pool on a platform thread lets the nested call do its work and refuses the
 * outer {@code release}, so the object is pooled or destroyed once. An unbounded pool below
 * {@code PARANOID} does not see it on a virtual thread, nor when the hook then gives back
 * another object too. Two
 * things are the caller's to avoid: a hook that calls, without end, the call that runs it (a
 * factory that acquires from its own empty pool recurses until {@link StackOverflowError}), and,
 * in a bounded pool, a hook that waits for an object while the thread already holds the last
 * ones (it waits for its own release, up to the acquire timeout). In a bounded pool with
 * {@code minIdle}, eviction and a trim under heap pressure first take out every object they will
 * destroy, then run the destroy hooks: a destroy hook that waits there for an object of its own
 * pool at its cap waits for those, up to its timeout (without {@code minIdle} each object is
 * destroyed as soon as it is taken out, and the hook gets one of the others).
 *
 * <h2>Misuse the pool catches</h2>
 * <ul>
 *   <li>Every pool: {@code release(null)}, and the same object released twice in a row on one
 *       thread ({@link IllegalStateException}); in an unbounded pool without leak detection, while
 *       the pool still holds a trace of the first release: the object still idle where that
 *       thread put it, or dropped by that release (see {@link #release}). One that aging or
 *       {@code close()} destroyed in between leaves none.</li>
 *   <li>A bounded pool: every double release or invalidation ({@link IllegalStateException}
 *       while the pool still holds the object; {@link IllegalArgumentException} once the first
 *       call destroyed it, since the pool then holds no trace of it), and an object it did not
 *       hand out ({@link IllegalArgumentException}). Either way the pool is unchanged.</li>
 *   <li>{@link LeakDetection#PARANOID}, either engine: the same, and the report names where the
 *       object was acquired and first released.</li>
 *   <li>An unbounded pool without leak detection, by design (it keeps no table of its objects,
 *       so that a cycle costs nanoseconds), does not catch a second release on another thread of
 *       an object already released, nor an object it did not hand out: both are pooled, and the
 *       object may then reach two borrowers. {@link LeakDetection#SAMPLED} catches the double
 *       release of the acquisitions it tracks. Switch {@code PARANOID} on in tests to catch
 *       all of them.</li>
 * </ul>
 *
 * @param <T> the type of the pooled objects
 */
public interface Pool<T> extends AutoCloseable {

    /**
     * Starts building a pool.
     *
     * @param factory makes a new object whenever no idle one is available; must not return null
     * @param <T> the type of the pooled objects
     * @return a builder with default settings
     * @throws NullPointerException if {@code factory} is null
     */
    static <T> PoolBuilder<T> builder(Supplier<? extends T> factory) {
        return new PoolBuilder<>(factory);
    }

    /**
     * Starts building a pool whose factory may throw checked exceptions. A lambda or method
     * reference such as {@code () -> new Socket(host, port)} or {@code Connections::open} picks
     * this method over {@link #builder(Supplier)}. When the factory throws,
     * {@link #acquire()} throws {@link ObjectCreationException} with the exception as its cause.
     *
     * @param factory makes a new object whenever no idle one is available; must not return null
     * @param <T> the type of the pooled objects
     * @return a builder with default settings
     * @throws NullPointerException if {@code factory} is null
     */
    static <T> PoolBuilder<T> builder(ObjectFactory<? extends T> factory) {
        return new PoolBuilder<>(factory);
    }

    /**
     * Takes an idle object, or makes one with the factory when none is idle. An unbounded pool
     * never blocks; a bounded pool at its cap waits up to its
     * {@link PoolBuilder#acquireTimeout(java.time.Duration) acquire timeout}.
     *
     * @return an object that belongs to the caller until {@link #release(Object) released}
     * @throws PoolClosedException if the pool is closed
     * @throws ObjectCreationException if the factory threw an exception, checked or not, or
     *         returned null (the cause is kept); an {@link Error} thrown by the factory (say
     *         {@link OutOfMemoryError}) is not wrapped: it propagates as it is, and nothing was
     *         taken from the pool
     * @throws PoolTimeoutException if the pool is bounded and no object came within the timeout
     * @throws PoolInterruptedException if the pool is bounded and the waiting thread was
     *         interrupted (its interrupt status stays set)
     */
    T acquire();

    /**
     * Like {@link #acquire()}, waiting at most {@code timeout} for an object when the pool is
     * bounded and all its objects are in use. A pool that never blocks (the default, unbounded
     * mode) ignores the timeout and behaves exactly like {@link #acquire()}.
     *
     * @param timeout the longest wait; zero or negative means do not wait
     * @return an object that belongs to the caller until {@link #release(Object) released}
     * @throws NullPointerException if {@code timeout} is null
     * @throws PoolClosedException if the pool is closed
     * @throws ObjectCreationException if the factory threw an exception, checked or not, or
     *         returned null (the cause is kept); an {@link Error} the factory throws, such as
     *         {@link OutOfMemoryError}, reaches the caller as it is
     * @throws PoolTimeoutException if the pool is bounded and no object came within the timeout
     * @throws PoolInterruptedException if the pool is bounded and the waiting thread was
     *         interrupted (its interrupt status stays set)
     */
    default T acquire(java.time.Duration timeout) {
        java.util.Objects.requireNonNull(timeout,
                "timeout is null: pass a Duration, e.g. Duration.ofSeconds(2)");
        return acquire();
    }

    /**
     * Gives an object back. The reset hook runs first, on the calling thread, before the object
     * can reach any other thread. If the reset hook throws, the object is destroyed instead of
     * pooled and the failure is logged and counted in {@link PoolStats#hookFailures()}; it is not
     * thrown to the caller, unless it is a {@link VirtualMachineError} ({@link OutOfMemoryError},
     * {@link StackOverflowError}): that one is rethrown once the object has been destroyed and
     * counted, because the JVM is in trouble and the caller must hear of it. The same holds for
     * the destroy hook when a release destroys an object on the caller's thread. If the pool is
     * closed, or is unbounded and already holds {@link PoolBuilder#maxIdle maxIdle} idle objects,
     * the object is destroyed. A bounded pool makes it idle and wakes the thread that has waited
     * longest, if any, or, once that thread has waited 1 ms (up to 12 ms in a long queue of
     * platform threads), hands the object to it directly (see the class description).
     *
     * @param object an object this pool handed out and that was not released since
     * @throws NullPointerException if {@code object} is null
     * @throws IllegalStateException on a double release the pool can see without cost: an
     *         unbounded pool catches the release of an object that is idle in the calling
     *         thread's private slot, or that the calling thread gave back last (released to the
     *         shared tier, or dropped: no room, refused, a failed reset, invalidated, a closed
     *         pool) and has not acquired since (the common bug: the same object released twice
     *         in a row on one thread; its destroy hook then does not run a second time). A
     *         factory that hands out again, to another thread, an object this pool destroyed
     *         has its release refused on the thread that gave it back last: make objects anew.
     *         Double releases across threads, on virtual threads, or of an object that went
     *         through other hands in between are not caught;
     *         {@link LeakDetection#PARANOID} catches every one made while the pool holds the
     *         object. None can catch a second release made after another thread acquired the
     *         object again: it cannot be told from that borrower's own release
     * @throws IllegalArgumentException if the pool is bounded, or leak detection is
     *         {@link LeakDetection#PARANOID}, and the object is not one it handed out
     */
    void release(T object);

    /**
     * Gives back an object that must not be reused, because it broke while in use (a socket the
     * other side closed, a parser left in an unknown state): the pool destroys it instead of
     * pooling it. The destroy hook runs on the calling thread; the reset hook does not run. In a
     * bounded pool the object's unit of capacity comes back, so a waiting thread gets a new
     * object. The object counts as released, and in {@link PoolStats#invalidated()} and
     * {@link PoolStats#dropped()}.
     *
     * <p>A destroy hook that throws is logged and counted, not thrown, unless it throws a
     * {@link VirtualMachineError}, which is rethrown once the pool is consistent again. After
     * {@link #close()} invalidate works as before.
     *
     * @param object an object this pool handed out and that was neither released nor
     *        invalidated since
     * @throws NullPointerException if {@code object} is null
     * @throws IllegalStateException on an invalidation of an object already given back, where
     *         the pool can see it: as for {@link #release(Object)}
     * @throws IllegalArgumentException if the pool is bounded, or leak detection is
     *         {@link LeakDetection#PARANOID}, and the object is not one it handed out
     */
    void invalidate(T object);

    /**
     * Acquires an object wrapped in a {@link Lease} that releases it on {@link Lease#close()}, for
     * use in try-with-resources.
     *
     * @return a new lease holding an acquired object
     * @throws PoolClosedException if the pool is closed
     * @throws ObjectCreationException if the factory threw an exception or returned null (an
     *         {@link Error} reaches the caller as it is)
     * @throws PoolTimeoutException if the pool is bounded and no object came within the
     *         acquire timeout
     * @throws PoolInterruptedException if the pool is bounded and the waiting thread was
     *         interrupted; the thread's interrupt status is set again
     */
    Lease<T> lease();

    /**
     * A snapshot of the pool's counters. Counting costs a platform thread's hot path no shared
     * write in an unbounded pool (its counters are fields of its own slot); threads without a
     * slot of their own (virtual threads among them) add to their stripe's counters atomically.
     * A bounded pool counts a platform thread's operations in fields of its own and a virtual
     * thread's in plain fields of the entry it holds (which only its holder writes). Taking the
     * snapshot visits every stripe and every thread-private slot, so it is meant for monitoring,
     * not for every operation.
     *
     * @return the counters as they were during this call
     */
    PoolStats stats();

    /**
     * The pool's name, used in every message and report.
     *
     * @return the name given to the builder, or a generated one
     */
    String name();

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once the pool is closed
     */
    boolean isClosed();

    /**
     * Closes the pool: destroys every idle object now, and every object in use when it comes
     * back. Idempotent (a second call destroys whatever a release racing the first one left).
     * A destroy hook that throws is logged and counted, and close goes on; if it threw a
     * {@link VirtualMachineError}, close rethrows the first one after all the work is done.
     *
     * <p>Background work already under way is not waited for: an object a library worker had
     * already taken out to destroy it (aging, eviction, a trim under heap pressure) or was
     * making (a bounded pool's minIdle refill) is destroyed on that worker, exactly once,
     * possibly just after close returns. Waiting for it would deadlock a hook that waits for
     * the thread that calls close (a destroy hook that takes a lock the caller holds).
     */
    @Override
    void close();
}
