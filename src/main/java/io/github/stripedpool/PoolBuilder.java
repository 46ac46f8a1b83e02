package io.github.stripedpool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Configures and builds a {@link Pool}. Obtained from {@link Pool#builder(Supplier)}.
 *
 * <p>{@link #build()} copies the settings: changing the builder afterwards does not change a
 * built pool, and one builder can build several pools. A builder is not thread-safe.
 *
 * @param <T> the type of the pooled objects
 */
public final class PoolBuilder<T> {
    /**
     * Default {@link #maxIdle(int)}: 64 per processor. Enough for a thread per core to keep a few
     * dozen objects in flight; small enough that 1 KiB buffers cost well under a megabyte.
     */
    static final int DEFAULT_MAX_IDLE_PER_PROCESSOR = 64;

    /**
     * Default {@link #agingInterval(Duration)}: one second. Young collections can run every few
     * milliseconds under allocation load; aging at each would drop objects a bursty but steady
     * load still needs. One second bounds the retention of an abandoned burst to a few seconds
     * of collections.
     */
    static final Duration DEFAULT_AGING_INTERVAL = Duration.ofSeconds(1);

    /**
     * Upper bound on {@link #maxIdle(int)}: 2^24. The stripes preallocate a slot (a reference and
     * an {@code int} stamp) for each object of their half of the cap, so this bound commits at
     * most 64 MiB with compressed references; without it, {@code Integer.MAX_VALUE} overflowed
     * the private-slot half and large caps ran out of heap in {@link #build()}.
     */
    static final int MAX_MAX_IDLE = 1 << 24;

    /** Upper bound on stripes: past this, more stripes only spread the same objects thinner. */
    static final int MAX_STRIPES = 64;

    private static final AtomicInteger UNNAMED = new AtomicInteger();

    final Supplier<? extends T> factory;
    Consumer<? super T> reset;
    Consumer<? super T> destroy;
    int maxIdle = DEFAULT_MAX_IDLE_PER_PROCESSOR * Runtime.getRuntime().availableProcessors();
    String name;
    Duration agingInterval = DEFAULT_AGING_INTERVAL;
    int stripes = defaultStripes();

    PoolBuilder(Supplier<? extends T> factory) {
        this.factory = Objects.requireNonNull(factory,
                "factory is null: pass a Supplier that makes a new pooled object on every call");
    }

    /**
     * Sets the hook that clears an object when it is released, before any other thread can
     * acquire it. Leaving state in a released object leaks it to the next borrower; a reset that
     * wipes secrets makes that impossible. If the hook throws, the object is destroyed instead
     * of pooled, and the failure is logged and counted in {@link PoolStats#hookFailures()}.
     *
     * @param reset runs on the releasing thread; default: none
     * @return this builder
     * @throws NullPointerException if {@code reset} is null
     */
    public PoolBuilder<T> reset(Consumer<? super T> reset) {
        this.reset = Objects.requireNonNull(reset,
                "reset hook is null: pass a Consumer that clears the object, or do not call reset()");
        return this;
    }

    /**
     * Sets the hook that runs when the pool lets go of an object: over {@code maxIdle}, aged
     * out, after a failed reset, or at close. It may run on any thread, including the pool's
     * aging thread ({@code striped-pool-aging}). If it throws, the failure is logged and
     * counted; the object is dropped all the same.
     *
     * @param destroy frees what the object holds; default: none (the garbage collector frees it)
     * @return this builder
     * @throws NullPointerException if {@code destroy} is null
     */
    public PoolBuilder<T> destroy(Consumer<? super T> destroy) {
        this.destroy = Objects.requireNonNull(destroy,
                "destroy hook is null: pass a Consumer that frees the object, or do not call destroy()");
        return this;
    }

    /**
     * Caps the idle objects the pool holds; a release beyond it destroys the object. Half of the
     * cap (rounded up) is reserved for the private slots of platform threads, one object each,
     * the other half is spread over the shared stripes. Default: 64 per processor.
     *
     * @param maxIdle at least 1, at most 16,777,216 (2<sup>24</sup>): the pool preallocates a
     *        slot for each
     * @return this builder
     * @throws IllegalArgumentException if {@code maxIdle} is below 1 or above 2<sup>24</sup>
     */
    public PoolBuilder<T> maxIdle(int maxIdle) {
        if (maxIdle < 1 || maxIdle > MAX_MAX_IDLE) {
            throw new IllegalArgumentException("maxIdle must be at least 1 and at most "
                    + MAX_MAX_IDLE + ", got " + maxIdle
                    + ": it is the number of idle objects the pool may keep for reuse, and the pool "
                    + "preallocates a slot for each");
        }
        this.maxIdle = maxIdle;
        return this;
    }

    /**
     * Names the pool in messages, reports and {@link PoolStats}.
     *
     * @param name not blank; default: {@code pool-N}
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank
     */
    public PoolBuilder<T> name(String name) {
        Objects.requireNonNull(name, "name is null: pass a short name that identifies the pool in logs");
        if (name.isBlank()) {
            throw new IllegalArgumentException(
                    "name is blank: pass a short name that identifies the pool in logs");
        }
        this.name = name;
        return this;
    }

    /**
     * Sets the shortest time between two aging cycles. A cycle runs at the first garbage
     * collection after this interval; it turns idle objects into victims, and drops victims that
     * stayed idle through the whole cycle. An object released and then not reused is therefore
     * dropped at the second cycle after its release; objects in steady use are never dropped.
     * With no garbage collection there is no aging: memory is not under pressure then.
     *
     * @param interval zero or more; zero ages at every collection; one too long to count in
     *        nanoseconds (about 292 years, such as {@code ChronoUnit.FOREVER.getDuration()})
     *        never ages. Default: one second
     * @return this builder
     * @throws NullPointerException if {@code interval} is null
     * @throws IllegalArgumentException if {@code interval} is negative
     */
    public PoolBuilder<T> agingInterval(Duration interval) {
        Objects.requireNonNull(interval, "agingInterval is null: pass a Duration such as Duration.ofSeconds(1)");
        if (interval.isNegative()) {
            throw new IllegalArgumentException("agingInterval must not be negative, got " + interval);
        }
        // Capped so that the pool's conversion to nanoseconds cannot overflow.
        Duration longest = Duration.ofNanos(Long.MAX_VALUE);
        this.agingInterval = interval.compareTo(longest) > 0 ? longest : interval;
        return this;
    }

    /** Number of stripes, a power of two; package-private, for tests and benchmarks. */
    PoolBuilder<T> stripes(int stripes) {
        if (stripes < 1 || stripes > MAX_STRIPES || Integer.bitCount(stripes) != 1) {
            throw new IllegalArgumentException("stripes must be a power of two in [1, "
                    + MAX_STRIPES + "], got " + stripes);
        }
        this.stripes = stripes;
        return this;
    }

    /**
     * Builds the pool.
     *
     * @return a new, open pool
     */
    public Pool<T> build() {
        String n = name != null ? name : "pool-" + UNNAMED.incrementAndGet();
        return new StripedPool<>(this, n);
    }

    /** The smallest power of two at least the number of processors, at most {@link #MAX_STRIPES}. */
    static int defaultStripes() {
        int cpus = Runtime.getRuntime().availableProcessors();
        int p = cpus <= 1 ? 1 : Integer.highestOneBit(cpus - 1) << 1;
        return Math.min(p, MAX_STRIPES);
    }
}
