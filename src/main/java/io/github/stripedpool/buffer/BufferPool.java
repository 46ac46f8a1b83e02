package io.github.stripedpool.buffer;

import io.github.stripedpool.Lease;
import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.LeakReport;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;
import io.github.stripedpool.PoolClosedException;
import io.github.stripedpool.PoolStats;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A pool of byte buffers in size classes, with a memory budget: {@code byte[]}, heap
 * {@link ByteBuffer}s or direct {@code ByteBuffer}s.
 *
 * <pre>{@code
 * BufferPool<byte[]> buffers = BufferPool.bytes().budget(32 << 20).build();
 * byte[] b = buffers.acquire(1500);   // b.length == 2048: keep your own count of the bytes used
 * try {
 *     int n = in.read(b, 0, 1500);
 *     ...
 * } finally {
 *     buffers.release(b);
 * }
 * }</pre>
 *
 * <h2>Size classes</h2>
 * Buffers come in sizes that double from the smallest class (default 64 bytes) to the largest
 * (default 64 KiB). {@link #acquire(int) acquire(n)} returns a buffer of the smallest class of at
 * least {@code n} bytes, which is usually larger than {@code n}: the caller keeps track of how
 * many bytes it uses. A {@code ByteBuffer} comes with position 0, limit {@code n}, capacity the
 * class size and big-endian order, so that {@code remaining()} is what was asked for. A
 * {@code byte[]} comes as the previous borrower left it, unless the pool
 * {@linkplain BufferPoolBuilder#zeroOnRelease(boolean) zeroes on release}. A request above the
 * largest class is served by a new buffer of exactly {@code n} bytes that the pool does not
 * keep.
 *
 * <p>Each class is an unbounded {@link Pool}: a thread that releases a buffer and acquires one of
 * the same class again gets it back from its private slot; idle buffers nobody reuses are
 * dropped after two aging cycles of the garbage collector (see
 * {@link PoolBuilder#agingInterval}).
 *
 * <h2>Budget</h2>
 * The idle buffers never hold more than the {@linkplain BufferPoolBuilder#budget(long) budget}
 * (default 16 MiB). Every class may keep the same number of idle buffers, as many as the budget
 * holds of one buffer of every class (with the defaults, 128 of each class, 129 of those up to
 * 4 KiB); a buffer released beyond its class's count is dropped. Buffers in use are not
 * counted: they are the application's.
 *
 * <p>After a garbage collection that leaves the heap fuller than
 * {@linkplain BufferPoolBuilder#trimAboveHeap(double) a threshold} (default 85 %), idle buffers
 * are dropped at once, all of them when the heap is fuller still: memory goes back when the heap
 * is short, not a few seconds later.
 *
 * <h2>Lease</h2>
 * {@link #lease(int)} hands out a buffer in a {@link Lease}, which gives it back when closed,
 * at the end of a try-with-resources block:
 *
 * <pre>{@code
 * try (Lease<byte[]> lease = buffers.lease(1500)) {
 *     byte[] b = lease.get();
 *     int n = in.read(b, 0, 1500);
 *     ...
 * }
 * }</pre>
 *
 * The buffer goes back to the class it came from, without the lookup by capacity that
 * {@code release} makes; where the compiler sees the whole block, it finds the calling thread's
 * slot of that class once for both ends and allocates no lease. That is the faster form, and
 * the safer: no release is forgotten on an exception, and a second close of the lease throws
 * instead of giving the buffer back twice (a {@code release(lease.get())} besides the close is
 * caught as {@link #release(Object)}'s double releases are). {@link Lease#invalidate()} drops the
 * buffer (freeing a direct one, unless {@link BufferPoolBuilder#freeOnDrop(boolean)} says not
 * to) instead of keeping it.
 *
 * <h2>Release</h2>
 * {@link #release(Object)} finds the class by the buffer's capacity. A buffer whose capacity is
 * above the largest class is accepted and dropped (the oversized buffers the pool handed out
 * come back this way). One whose capacity is not a class size, or that is of another kind (a
 * heap buffer to a direct pool, a read-only view, a heap view that does not cover its whole
 * array), is rejected with {@link IllegalArgumentException}. A foreign buffer of a class size
 * or above the largest class, a {@code duplicate()} of a pooled buffer and any writable view
 * of a direct one are not caught, except with {@link LeakDetection#PARANOID}, which rejects
 * them before anything is dropped or freed. {@code PARANOID} also catches a double release
 * made while the pool still holds the buffer, oversized buffers' included, but not one made
 * after the buffer was handed out again: that release cannot be told from its new borrower's
 * (see {@link LeakDetection#PARANOID}), and the buffer is then kept, or dropped, under that
 * borrower. Leak
 * detection covers the oversized buffers as it covers the classes: their leak reports go to the
 * same listener, under the name of a pool named after this one with {@code "-oversized"}
 * appended.
 *
 * <h2>Direct buffers</h2>
 * A direct buffer the pool drops (beyond the budget, aged out, oversized, at close) has its
 * native memory freed at once, not at some later collection, so that dropped buffers never
 * exhaust {@code -XX:MaxDirectMemorySize}. This uses {@code sun.misc.Unsafe.invokeCleaner}
 * from module {@code jdk.unsupported}; where that module is not present (on the module path,
 * add {@code --add-modules jdk.unsupported}), a warning is logged once and the garbage collector
 * frees them ({@link BufferPoolBuilder#freeOnDrop(boolean)} says more, and how to opt out). A
 * consequence: <b>a direct buffer must not be touched after its release</b>, nor
 * released twice, nor a view of it (a slice, a duplicate) released in its place: a view
 * of a class size is kept as a buffer of that class, and once its parent is dropped and freed
 * it is handed out over freed memory. Each may read or write freed memory and crash the JVM.
 * Test with {@link LeakDetection#PARANOID}: it catches views and a double release made before
 * the buffer is handed out again; a later one only code that releases each buffer once avoids.
 *
 * <p>All methods are thread-safe. The settings are fixed when the pool is built.
 *
 * @param <B> {@code byte[]} or {@link ByteBuffer}
 */
public final class BufferPool<B> implements AutoCloseable {
    /*
     * Design. One unbounded Pool per size class, built from the public API only, so that the
     * engine's paths know nothing of buffers. acquire maps the size to a class with a few bit
     * operations and calls that class's pool; release maps the capacity back. All kind-specific
     * work (clearing a ByteBuffer, zeroing, freeing direct memory) is the class pools' reset and
     * destroy hooks, chosen when the pool is built: a byte[] pool without zeroing has no hook.
     *
     * Oversized buffers go through one more engine pool, which keeps none (retainIf refuses
     * every one, so each release drops and, direct, frees its buffer) and whose factory makes
     * the size the acquiring thread asked for (REQUESTED, set around the call: the engine runs
     * the factory of an unbounded pool on the acquiring thread, and with nothing idle it always
     * runs it; the previous value is put back after the call, so that even an acquire nested in
     * another on one thread leaves the outer one its size). So they get what the classes get
     * from the engine with no code of their own: leak detection with the borrow site,
     * PARANOID's rejection of foreign buffers and double releases before anything is freed,
     * close.
     *
     * Concurrency. Every field is final and set in the constructor, but the closed flag. A
     * buffer moves between threads only through an engine pool, which never hands one object to
     * two threads; this class keeps no buffer of its own. The flag is written before the pools
     * are closed, and read by isClosed() only.
     *
     * Budget invariant: class i's pool holds at most keep(i) idle buffers of size(i) (its
     * maxIdle, which the pool never exceeds), and sum(keep(i) * size(i)) <= budget (see
     * SizeClasses), so the idle bytes never exceed the budget, whatever the interleaving.
     */
    private final BufferKind<B> kind;
    private final String name;
    private final SizeClasses sizes;
    private final Pool<B>[] classes;
    private final int maxClass;
    /**
     * The classes' shape, copied from {@link #sizes}. With one class per doubling (the default)
     * acquire and release find the class with a leading-zero count and a subtraction; any other
     * layout, and every size out of range, goes through {@link SizeClasses#classFor} and
     * {@link SizeClasses#classOf}. The short path is worth its branch: with the general
     * arithmetic alone, BufferBenchmark's mixed sizes (heap, one thread) ran at about 0.75 of
     * the rate they run at with it (10 forks each, fork medians 43 to 56 ops/µs against 65 to 68).
     */
    private final int minShift;
    private final int stepShift;
    private final int count;
    /** Frees a dropped buffer at once; null if the collector frees it (heap, or not wanted). */
    private final Consumer<B> freer;
    /** Appended to the pool's name to name the pool of oversized buffers. */
    static final String OVERSIZED_SUFFIX = "-oversized";
    /** Hands out and takes back the buffers above the largest class; keeps none (see above). */
    private final Pool<B> oversizedPool;
    /** The size the oversized pool's factory makes: set by the acquiring thread, read on it. */
    private static final ThreadLocal<int[]> REQUESTED = ThreadLocal.withInitial(() -> new int[1]);
    private volatile boolean closed;

    /**
     * Starts building a pool of {@code byte[]}.
     *
     * @return a builder with default settings
     */
    public static BufferPoolBuilder<byte[]> bytes() {
        return new BufferPoolBuilder<>(BufferKind.BYTES);
    }

    /**
     * Starts building a pool of heap {@link ByteBuffer}s ({@link ByteBuffer#allocate(int)}).
     *
     * @return a builder with default settings
     */
    public static BufferPoolBuilder<ByteBuffer> heapBuffers() {
        return new BufferPoolBuilder<>(BufferKind.HEAP);
    }

    /**
     * Starts building a pool of direct {@link ByteBuffer}s
     * ({@link ByteBuffer#allocateDirect(int)}), whose dropped buffers are freed at once.
     *
     * @return a builder with default settings
     */
    public static BufferPoolBuilder<ByteBuffer> directBuffers() {
        return new BufferPoolBuilder<>(BufferKind.DIRECT);
    }

    @SuppressWarnings("unchecked") // an array of a generic type: filled with Pool<B> only
    BufferPool(BufferKind<B> kind, String name, SizeClasses sizes, boolean zero, boolean freeOnDrop,
            double trimAboveHeap, LeakDetection leakDetection, Consumer<? super LeakReport> onLeak) {
        this.kind = kind;
        this.name = name;
        this.sizes = sizes;
        this.maxClass = sizes.maxSize();
        this.minShift = sizes.minShift();
        this.stepShift = sizes.stepShift();
        this.count = sizes.count();
        this.classes = (Pool<B>[]) new Pool<?>[sizes.count()];
        this.freer = kind.freer(freeOnDrop);
        Consumer<B> clearer = kind.clearer(zero);
        try {
            for (int i = 0; i < classes.length; i++) {
                int size = sizes.size(i);
                PoolBuilder<B> b = Pool.builder(() -> kind.allocate(size)).name(name + "-" + size);
                if (sizes.keep(i) > 0) {
                    b.maxIdle(sizes.keep(i));
                } else {
                    // The budget leaves this class no buffer: keep none, so the budget holds.
                    b.maxIdle(1).retainIf(x -> false);
                }
                if (clearer != null) {
                    b.reset(clearer);
                }
                if (freer != null) {
                    b.destroy(freer);
                }
                b.trimAboveHeap(trimAboveHeap);
                if (leakDetection != null) {
                    b.leakDetection(leakDetection);
                }
                if (onLeak != null) {
                    b.onLeak(onLeak);
                }
                classes[i] = b.build();
            }
            PoolBuilder<B> o = Pool.builder(() -> kind.allocate(REQUESTED.get()[0]))
                    .name(name + OVERSIZED_SUFFIX).maxIdle(1).retainIf(x -> false).trimAboveHeap(1);
            if (freer != null) {
                o.destroy(freer);
            }
            if (leakDetection != null) {
                o.leakDetection(leakDetection);
            }
            if (onLeak != null) {
                o.onLeak(onLeak);
            }
            this.oversizedPool = o.build();
        } catch (RuntimeException | Error e) {
            try {
                closeBuilt(); // the classes built so far: their aging registrations go
            } catch (RuntimeException | Error second) {
                e.addSuppressed(second);
            }
            throw e;
        }
    }

    /**
     * Takes a buffer of at least {@code minSize} bytes: an idle one of the smallest class that
     * fits, or a new one. See the class description for the state it comes in.
     *
     * @param minSize the bytes needed, from 0 to {@code Integer.MAX_VALUE - 8}
     * @return a buffer that belongs to the caller until {@link #release(Object) released}; its
     *         capacity is the class size, or exactly {@code minSize} above the largest class
     * @throws IllegalArgumentException if {@code minSize} is negative or above
     *         {@code Integer.MAX_VALUE - 8}
     * @throws io.github.stripedpool.PoolClosedException if the pool is closed
     * @throws OutOfMemoryError if a new buffer could not be allocated (heap or direct memory)
     */
    public B acquire(int minSize) {
        int i = classFor(minSize);
        try {
            if (i < 0 || i == count) {
                return kind.handOut(oversized(minSize, Pool::acquire), minSize);
            }
            return kind.handOut(classes[i].acquire(), minSize);
        } catch (PoolClosedException e) {
            throw closed(e);
        }
    }

    /**
     * Takes a buffer as {@link #acquire(int)} does, in a lease that gives it back to its class
     * when closed (see the class description): the faster form where the compiler sees the whole
     * try-with-resources block, and the one that cannot forget a release. The lease follows
     * {@link Lease}'s rules: a second {@code close()}, or {@code get()} after it, throws
     * {@link IllegalStateException}; {@link Lease#invalidate()} drops the buffer (and frees a
     * direct one, as a drop does) instead of keeping it. Leak detection tracks a lease as it tracks an
     * acquisition.
     *
     * @param minSize the bytes needed, from 0 to {@code Integer.MAX_VALUE - 8}
     * @return a lease of a buffer in the state {@link #acquire(int)} describes
     * @throws IllegalArgumentException if {@code minSize} is negative or above
     *         {@code Integer.MAX_VALUE - 8}
     * @throws io.github.stripedpool.PoolClosedException if the pool is closed
     * @throws OutOfMemoryError if a new buffer could not be allocated (heap or direct memory)
     */
    public Lease<B> lease(int minSize) {
        int i = classFor(minSize);
        Lease<B> lease;
        try {
            lease = i < 0 || i == count ? oversized(minSize, Pool::lease) : classes[i].lease();
        } catch (PoolClosedException e) {
            throw closed(e);
        }
        kind.handOut(lease.get(), minSize); // sets a ByteBuffer's limit, in place
        return lease;
    }

    /**
     * The exception of an acquire or lease after close: the class pool that threw {@code e} has
     * a name of its own (this pool's, with its size or {@value #OVERSIZED_SUFFIX} appended), which
     * the caller never chose; this one names the buffer pool, with {@code e} as its cause.
     */
    private PoolClosedException closed(PoolClosedException e) {
        PoolClosedException c = new PoolClosedException(name);
        c.initCause(e);
        return c;
    }

    /** The class of a request, {@link #count} above the largest, negative if out of range. */
    private int classFor(int minSize) {
        return stepShift == 0 && minSize > 0 && minSize <= maxClass
                ? (minSize <= 1 << minShift ? 0 : 32 - Integer.numberOfLeadingZeros(minSize - 1) - minShift)
                : SizeClasses.classFor(minSize, minShift, stepShift, count);
    }

    /**
     * Split from acquire and lease: rare by design, and allocates; or throws for a size out of
     * range. {@code take} acquires or leases from the oversized pool.
     */
    private <R> R oversized(int minSize, Function<Pool<B>, R> take) {
        sizes.indexFor(minSize, name); // throws if minSize is negative or too large
        int[] requested = REQUESTED.get();
        int outer = requested[0]; // 0, unless this acquire is nested in another on this thread
        requested[0] = minSize;
        try {
            return take.apply(oversizedPool); // the factory makes minSize bytes: see the design comment
        } finally {
            requested[0] = outer;
        }
    }

    /**
     * Gives a buffer back: it is cleared (and zeroed, if the pool zeroes on release) and kept
     * for reuse, or dropped if its class already keeps its count of idle buffers, or if it is
     * larger than the largest class. A dropped direct buffer is freed at once. After
     * {@link #close()} every released buffer is dropped.
     *
     * @param buffer a buffer this pool handed out and that was not released since; it must not
     *        be used after this call
     * @throws NullPointerException if {@code buffer} is null
     * @throws IllegalArgumentException if its capacity is not a class size and not above the
     *         largest class, or it is of another kind than the pool's (heap or direct,
     *         read-only), or, with {@link LeakDetection#PARANOID}, the pool did not hand it out
     * @throws IllegalStateException on a double release the underlying pool catches (see
     *         {@link Pool#release(Object)})
     */
    public void release(B buffer) {
        Objects.requireNonNull(buffer, "buffer is null: release the buffer that acquire returned");
        int capacity = kind.capacity(buffer, name);
        if (capacity > maxClass) {
            oversizedPool.release(buffer); // dropped (and freed) unless PARANOID rejects it first
            return;
        }
        int i = stepShift == 0 && (capacity & (capacity - 1)) == 0 && capacity >= 1 << minShift
                ? 31 - Integer.numberOfLeadingZeros(capacity) - minShift
                : SizeClasses.classOf(capacity, minShift, stepShift, count);
        classes[i >= 0 ? i : sizes.indexOf(capacity, name)].release(buffer); // indexOf throws
    }

    /**
     * A snapshot of the pool's counters: each class's {@link PoolStats}, the idle bytes against
     * the budget, the oversized buffers.
     *
     * @return the counters as they were during this call
     */
    public BufferPoolStats stats() {
        PoolStats[] s = new PoolStats[classes.length];
        long trims = Long.MAX_VALUE;
        for (int i = 0; i < s.length; i++) {
            s[i] = classes[i].stats();
            trims = Math.min(trims, s[i].trims());
        }
        return new BufferPoolStats(name, kind.label(), sizes, s, oversizedPool.stats(), trims);
    }

    /**
     * The pool's name, the prefix of its classes' names.
     *
     * @return the name given to the builder, or a generated one
     */
    public String name() {
        return name;
    }

    /**
     * Whether {@link #close()} was called.
     *
     * @return true once the pool is closed
     */
    public boolean isClosed() {
        return closed;
    }

    /**
     * Closes the pool: drops every idle buffer now (freeing direct ones), and every buffer in
     * use when it comes back. Then {@link #acquire(int)} throws
     * {@link io.github.stripedpool.PoolClosedException}. Idempotent.
     */
    @Override
    public void close() {
        // Before the pools: an acquire that finds its class closed finds this set, as isClosed()
        // promises. An acquire of a class not closed yet may still succeed meanwhile, as one
        // that races the close of any Pool may.
        closed = true;
        closeBuilt();
    }

    private void closeBuilt() {
        Throwable first = null;
        for (int i = 0; i <= classes.length; i++) {
            Pool<B> p = i < classes.length ? classes[i] : oversizedPool;
            if (p == null) {
                continue;
            }
            try {
                p.close();
            } catch (RuntimeException | Error e) {
                if (first == null) {
                    first = e;
                }
            }
        }
        if (first instanceof RuntimeException) {
            throw (RuntimeException) first;
        }
        if (first != null) {
            throw (Error) first;
        }
    }

    @Override
    public String toString() {
        return stats().toString();
    }
}
