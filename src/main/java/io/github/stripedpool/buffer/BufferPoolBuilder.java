package io.github.stripedpool.buffer;

import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.LeakReport;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Configures and builds a {@link BufferPool}. Obtained from {@link BufferPool#bytes()},
 * {@link BufferPool#heapBuffers()} or {@link BufferPool#directBuffers()}.
 *
 * <p>{@link #build()} copies the settings: changing the builder afterwards does not change a
 * built pool. A builder is not thread-safe.
 *
 * @param <B> {@code byte[]} or {@link java.nio.ByteBuffer}
 */
public final class BufferPoolBuilder<B> {
    /**
     * Default {@link #maxClassSize(int)}: 64 KiB. It covers the buffers of most I/O (a TLS
     * record is at most 16 KiB, socket and file copies commonly use 8 to 64 KiB), and every
     * class of the default 16 MiB budget can keep 128 buffers (129 up to 4 KiB); each doubling
     * of the largest class about halves that count, for every class.
     */
    static final int DEFAULT_MAX_CLASS = 64 * 1024;

    /**
     * Default {@link #minClassSize(int)}: 64 bytes, one cache line. Smaller requests get a
     * 64-byte buffer: below that, pooling costs more than the JVM's allocation of the array.
     */
    static final int DEFAULT_MIN_CLASS = 64;

    /** Largest class size: 1 GiB, the largest power of two an array can have. */
    static final int MAX_CLASS_LIMIT = 1 << 30;

    /**
     * Default {@link #budget(long)}: 16 MiB of idle buffers, small beside any heap or direct
     * memory limit a server runs with, and with the default classes 128 idle buffers of each
     * (129 of those up to 4 KiB).
     */
    static final long DEFAULT_BUDGET = 16L * 1024 * 1024;

    /**
     * Default {@link #trimAboveHeap(double)}: 0.85. A heap still 85 % full after a collection
     * has little headroom left, and the collector will soon run back to back; below that, the
     * idle buffers are what keeps the allocation rate, and so the collections, down.
     */
    static final double DEFAULT_TRIM_ABOVE_HEAP = 0.85;

    private static final AtomicInteger UNNAMED = new AtomicInteger();

    private final BufferKind<B> kind;
    private int minClass = DEFAULT_MIN_CLASS;
    private int maxClass = DEFAULT_MAX_CLASS;
    private long budget = DEFAULT_BUDGET;
    private boolean zeroOnRelease;
    private boolean freeOnDrop = true;
    private double trimAboveHeap = DEFAULT_TRIM_ABOVE_HEAP;
    private String name;
    private int steps = 1;
    private LeakDetection leakDetection;
    private Consumer<? super LeakReport> onLeak;

    BufferPoolBuilder(BufferKind<B> kind) {
        this.kind = kind;
    }

    /**
     * Sets the smallest size class: every request of this size or less gets a buffer of this
     * size.
     *
     * @param size a power of two from 1 to 2<sup>30</sup>, at most the largest class; default 64
     * @return this builder
     * @throws IllegalArgumentException if {@code size} is not a power of two in that range
     */
    public BufferPoolBuilder<B> minClassSize(int size) {
        this.minClass = powerOfTwo(size, "minClassSize");
        return this;
    }

    /**
     * Sets the largest size class. A request for more is served by a new buffer of exactly the
     * size asked for, which the pool does not keep: its release is accepted and the buffer
     * dropped (see {@link BufferPoolStats#oversizedAcquired()}).
     *
     * @param size a power of two from 1 to 2<sup>30</sup>, at least the smallest class;
     *        default 65,536 (64 KiB)
     * @return this builder
     * @throws IllegalArgumentException if {@code size} is not a power of two in that range
     */
    public BufferPoolBuilder<B> maxClassSize(int size) {
        this.maxClass = powerOfTwo(size, "maxClassSize");
        return this;
    }

    /**
     * Sets how many size classes each doubling holds: 1 gives the powers of two alone (a request
     * of 17 KiB gets 32 KiB); 2, 4 or 8 add evenly spaced classes between each two (with 4:
     * 16, 20, 24, 28, 32 KiB...), so that a buffer is at most a half, a quarter or an eighth
     * larger than asked for. Finer classes waste less memory on each buffer in use, which counts
     * when many are held at once in a heap with little room; but the budget then holds fewer
     * buffers of each class (with 4, the class sizes add up to about three and a quarter times
     * as much, so each class keeps about three tenths as many: 39 of the largest instead of 128
     * with the default budget).
     *
     * @param steps 1, 2, 4 or 8, at most the smallest class size; default 1
     * @return this builder
     * @throws IllegalArgumentException if {@code steps} is not 1, 2, 4 or 8
     */
    public BufferPoolBuilder<B> classesPerDoubling(int steps) {
        if (steps < 1 || steps > 8 || Integer.bitCount(steps) != 1) {
            throw new IllegalArgumentException("classesPerDoubling must be 1, 2, 4 or 8, got " + steps
                    + ": the number of size classes from one power of two to the next");
        }
        this.steps = steps;
        return this;
    }

    /**
     * Sets the most bytes the pool keeps in idle buffers, over all its classes. Every class may
     * keep the same number of idle buffers: the budget divided by the sum of the class sizes
     * (rounded down), and what is left gives one more to each class in turn from the smallest,
     * while it fits (a budget below the sum keeps one of each of the smallest classes, and none
     * of the others). So the idle buffers' bytes never exceed the budget, whatever the load; a
     * release beyond its class's count drops the buffer. Direct and heap pools are separate
     * pools with separate budgets.
     *
     * <p>To keep a whole burst of {@code N} buffers held at once, whatever their sizes, give
     * {@code N} times the sum of the class sizes (about twice the largest class with one class
     * per doubling: 128 KiB for the default classes). A class keeps only what was released to
     * it, so the budget is a cap, not memory taken: the classes a workload does not use hold
     * nothing (docs/buffers.md, "Sizing the budget"). A class keeps at most 65,536 idle buffers
     * however large the budget, because its pool reserves a slot of about 8 bytes for each
     * buffer it may keep: a budget of {@code Long.MAX_VALUE} ("no limit") reserves about half a
     * megabyte per class.
     *
     * @param bytes zero or more (zero keeps nothing); default 16 MiB
     * @return this builder
     * @throws IllegalArgumentException if {@code bytes} is negative
     */
    public BufferPoolBuilder<B> budget(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("budget must be zero or more bytes, got " + bytes
                    + ": it is the most memory the pool keeps in idle buffers");
        }
        this.budget = bytes;
        return this;
    }

    /**
     * Sets whether a released buffer is filled with zeros before it can be reused, so that no
     * borrower ever reads what the previous one wrote (the class of bug that leaked one
     * request's data into another's response in some servers). It costs a pass over the whole
     * buffer at each release. Off by default: code that writes before it reads, and reads only
     * what it wrote, does not need it. Oversized buffers, which the pool never keeps,
     * are not zeroed.
     *
     * @param zero true to zero every buffer the pool keeps; default false
     * @return this builder
     */
    public BufferPoolBuilder<B> zeroOnRelease(boolean zero) {
        this.zeroOnRelease = zero;
        return this;
    }

    /**
     * Direct pools: sets whether a direct buffer the pool drops (beyond the budget, aged out,
     * oversized, at close) has its native memory freed at once, through
     * {@code sun.misc.Unsafe.invokeCleaner} (module {@code jdk.unsupported}), or left to the
     * garbage collector, which frees it when it finds the buffer unreachable. Freeing at once
     * keeps dropped buffers from exhausting {@code -XX:MaxDirectMemorySize} between
     * collections; it makes a use of the buffer after its release, or a second release, a
     * use of freed memory, which may crash the JVM.
     *
     * <p>On JDK 24 and later the JVM prints a warning the first time the method is called,
     * unless run with {@code --sun-misc-unsafe-memory-access=allow}; with {@code =deny} it
     * refuses the call, and the pool logs one warning and leaves dropped buffers to the
     * collector. Where {@code jdk.unsupported} is absent the pool logs one warning at
     * {@link #build()} and does the same. Heap pools ignore this setting.
     *
     * @param free true to free dropped direct buffers at once; default true
     * @return this builder
     */
    public BufferPoolBuilder<B> freeOnDrop(boolean free) {
        this.freeOnDrop = free;
        return this;
    }

    /**
     * Sets the heap fullness above which the pool gives its idle buffers back at once. After
     * each garbage collection (at most one check per collection, on the library's background
     * worker, never on acquire or release), if the heap's used part exceeds this fraction of
     * its maximum (read as {@link io.github.stripedpool.PoolBuilder#trimAboveHeap(double)} says,
     * on every collector), each class runs an aging cycle at once: the buffers idle since its
     * last cycle are dropped, the others at the next collection unless reused. Above halfway
     * from this fraction to a full heap, every idle buffer of every class is dropped at once.
     * After a trim that dropped buffers a class trims no more for one second, but for the one
     * trim that drops what the first marked: they were old, and a generational collector's
     * young collections would otherwise find the heap as full and trim again, dropping the
     * buffers just made again (see
     * {@link io.github.stripedpool.PoolBuilder#trimAboveHeap(double)}).
     * Counted in {@link BufferPoolStats#trims()}; the same as
     * {@link io.github.stripedpool.PoolBuilder#trimAboveHeap(double)} for each class. For a direct pool the heap is still what is measured:
     * its idle buffers are dropped (and freed) when the heap is short, not when direct memory
     * is.
     *
     * @param fraction from 0 to 1; 1 never trims. Default 0.85
     * @return this builder
     * @throws IllegalArgumentException if {@code fraction} is not from 0 to 1
     */
    public BufferPoolBuilder<B> trimAboveHeap(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("trimAboveHeap must be a fraction of the maximum heap from 0 "
                    + "to 1 (such as 0.85; 1 never trims), got " + fraction);
        }
        this.trimAboveHeap = fraction;
        return this;
    }

    /**
     * Names the pool; each size class is a {@link io.github.stripedpool.Pool} named after it
     * with the class size appended ({@code "net-4096"}), and the pool of oversized buffers with
     * {@code "-oversized"}. Same rules as {@link io.github.stripedpool.PoolBuilder#name(String)};
     * the length is checked by {@link #build()}, which knows the longest suffix: at most 200
     * characters with it: 190 with the default classes.
     *
     * @param name printable, not blank; default {@code buffers-N}
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank, longer than 200 characters, or
     *         holds a character that is not printable (the message gives its position and code
     *         point)
     */
    public BufferPoolBuilder<B> name(String name) {
        Objects.requireNonNull(name, "name is null: pass a printable name");
        if (name.isBlank()) {
            throw new IllegalArgumentException("name is blank: pass a short name that identifies "
                    + "the buffer pool in logs, such as \"http-bodies\"");
        }
        int chars = characters(name);
        if (chars > MAX_POOL_NAME) {
            // Too long for every largest class: said now, with the rule. A shorter name that is
            // too long for this pool's suffixes is build()'s to report, with its limit.
            throw new IllegalArgumentException("name is " + chars + " characters long; a "
                    + "buffer pool's name takes at most " + MAX_POOL_NAME + " less the suffix its "
                    + "classes' pools add (" + longestName(DEFAULT_MAX_CLASS) + " with the default "
                    + "classes; build() gives the limit for the largest class): pass a shorter name");
        }
        // The engine's rules on characters, now.
        io.github.stripedpool.Pool.builder(() -> name).name(name);
        this.name = name;
        return this;
    }

    /**
     * The length of {@code name} as {@link io.github.stripedpool.PoolBuilder#name(String)} counts
     * it: in characters (code points), so that a letter outside the Basic Multilingual Plane,
     * two UTF-16 units, counts once.
     */
    private static int characters(String name) {
        return name.codePointCount(0, name.length());
    }

    /** {@link io.github.stripedpool.PoolBuilder#name(String)}'s limit on a pool's name. */
    static final int MAX_POOL_NAME = 200;

    /** The longest name a pool whose largest class is {@code maxClass} takes. */
    static int longestName(int maxClass) {
        int suffix = Math.max(1 + Integer.toString(maxClass).length(), BufferPool.OVERSIZED_SUFFIX.length());
        return MAX_POOL_NAME - suffix;
    }

    /**
     * Sets leak detection for every size class, as
     * {@link io.github.stripedpool.PoolBuilder#leakDetection(LeakDetection)} does for a pool.
     * {@link LeakDetection#PARANOID} also rejects a buffer that the pool did not hand out.
     *
     * @param level the level; default: the system property {@code stripedpool.leakDetection},
     *        else {@link LeakDetection#DISABLED}
     * @return this builder
     * @throws NullPointerException if {@code level} is null
     */
    public BufferPoolBuilder<B> leakDetection(LeakDetection level) {
        this.leakDetection = Objects.requireNonNull(level,
                "leakDetection is null: pass LeakDetection.DISABLED, SAMPLED or PARANOID");
        return this;
    }

    /**
     * Sets a listener for the leak reports of every size class, as
     * {@link io.github.stripedpool.PoolBuilder#onLeak(Consumer)} does for a pool. Each class (and
     * the pool of oversized buffers) delivers its reports apart from the others', so the
     * listener may be called from two threads at once: one that keeps state must be thread-safe.
     *
     * @param listener receives each report; default: none (reports are logged)
     * @return this builder
     * @throws NullPointerException if {@code listener} is null
     */
    public BufferPoolBuilder<B> onLeak(Consumer<? super LeakReport> listener) {
        this.onLeak = Objects.requireNonNull(listener,
                "onLeak listener is null: pass a Consumer of LeakReport, or do not call onLeak()");
        return this;
    }

    /**
     * Builds the pool.
     *
     * @return a new, open buffer pool
     * @throws IllegalStateException if the smallest class is larger than the largest, or
     *         smaller than {@link #classesPerDoubling(int)}
     * @throws IllegalArgumentException if the name is longer than 200 characters less its
     *         longest suffix (see {@link #name(String)})
     */
    public BufferPool<B> build() {
        if (minClass > maxClass) {
            throw new IllegalStateException("minClassSize (" + minClass + ") is above maxClassSize ("
                    + maxClass + "): set the smallest class at most as large as the largest");
        }
        if (steps > minClass) {
            throw new IllegalStateException("classesPerDoubling (" + steps + ") is above minClassSize ("
                    + minClass + "): a class cannot be a fraction of a byte; raise minClassSize");
        }
        String n = name != null ? name : "buffers-" + UNNAMED.incrementAndGet();
        int longest = longestName(maxClass);
        int chars = characters(n);
        if (chars > longest) {
            throw new IllegalArgumentException("name is " + chars + " characters long; a buffer "
                    + "pool whose largest class is " + maxClass + " takes at most " + longest + ", because "
                    + "each of its pools is named after it with a suffix (up to " + (MAX_POOL_NAME - longest)
                    + " characters, such as \"-" + maxClass + "\" or \"" + BufferPool.OVERSIZED_SUFFIX
                    + "\") and a pool's name is at most " + MAX_POOL_NAME + ": pass a shorter name");
        }
        return new BufferPool<>(kind, n, new SizeClasses(minClass, maxClass, steps, budget),
                zeroOnRelease, freeOnDrop, trimAboveHeap, leakDetection, onLeak);
    }

    private static int powerOfTwo(int size, String what) {
        if (size < 1 || size > MAX_CLASS_LIMIT || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException(what + " must be a power of two from 1 to "
                    + MAX_CLASS_LIMIT + ", got " + size + ": size classes double from the "
                    + "smallest to the largest");
        }
        return size;
    }
}
