package io.github.stripedpool;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Configures and builds a {@link Pool}. Obtained from {@link Pool#builder(Supplier)}.
 *
 * <p>{@link #build()} copies the settings: changing the builder afterwards does not change a
 * built pool, and one builder can build several pools. A builder is not thread-safe.
 *
 * <h2>Leak detection</h2>
 * {@link #leakDetection(LeakDetection)} and {@link #leakSamplingInterval(int)} can also be set
 * for every pool of the JVM, without a code change, by system properties:
 * <pre>
 * -Dstripedpool.leakDetection=disabled|sampled|paranoid     (case does not matter)
 * -Dstripedpool.leakDetection.samplingInterval=N            (N at least 1; default 1024)
 * </pre>
 * For each of the two settings, a value set on the builder wins; otherwise the system property
 * is used; otherwise the default ({@link LeakDetection#DISABLED}, and 1024). The properties are
 * read at each {@link #build()} (a pool's setting is fixed when it is built), which throws {@link IllegalArgumentException} naming the
 * property if its value is not valid.
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
     * Upper bound on {@link #maxIdle(int)}: 2^24. The stripes preallocate a slot (a reference and
     * an {@code int} stamp) for each object of their half of the cap, so this bound commits at
     * most 64 MiB with compressed references; without it, {@code Integer.MAX_VALUE} overflowed
     * the private-slot half and large caps ran out of heap in {@link #build()}.
     */
    static final int MAX_MAX_IDLE = 1 << 24;

    /**
     * Default {@link #agingInterval(Duration)}: one second. Young collections can run every few
     * milliseconds under allocation load; aging at each would drop objects a bursty but steady
     * load still needs. One second bounds the retention of an abandoned burst to a few seconds
     * of collections.
     */
    static final Duration DEFAULT_AGING_INTERVAL = Duration.ofSeconds(1);

    /** Longest {@link #name(String)}: enough for any descriptive name, short enough for a log line. */
    static final int MAX_NAME_LENGTH = 200;

    /**
     * Longest duration any setting keeps: {@code Long.MAX_VALUE} nanoseconds, about 292 years.
     * Longer ones (such as {@code ChronoUnit.FOREVER.getDuration()}) mean "never" and are
     * saturated to it, so that no conversion to nanoseconds can overflow.
     */
    static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE);

    /** Upper bound on stripes: past this, more stripes only spread the same objects thinner. */
    static final int MAX_STRIPES = 64;

    /**
     * Default {@link #acquireTimeout(Duration)} of a bounded pool: 30 seconds, HikariCP's
     * connection timeout. Long enough for any healthy pool; short enough that a pool starved by
     * leaked objects fails with a message rather than hanging its callers.
     */
    static final Duration DEFAULT_ACQUIRE_TIMEOUT = Duration.ofSeconds(30);

    private static final AtomicInteger UNNAMED = new AtomicInteger();

    final Supplier<? extends T> factory;
    Consumer<? super T> reset;
    Consumer<? super T> destroy;
    Predicate<? super T> retain;
    int maxIdle = DEFAULT_MAX_IDLE_PER_PROCESSOR * Runtime.getRuntime().availableProcessors();
    String name;
    Duration agingInterval = DEFAULT_AGING_INTERVAL;
    int stripes = SettingChecks.defaultStripes(MAX_STRIPES);
    /** Null until set: then the system property decides. */
    LeakDetection leakDetection;
    /** 0 until set: then the system property decides. */
    int leakSamplingInterval;
    Consumer<? super LeakReport> onLeak;
    /** 0 until set: the pool is unbounded. */
    int maxTotal;
    /** -1 until set. The remaining bounded-only options are null until set. */
    int minIdle = -1;
    Duration acquireTimeout;
    Predicate<? super T> validate;
    Duration maxIdleTime;
    Duration maxLifetime;
    Duration heldTooLong;
    /** NaN until set: then {@link HeapTrim#DEFAULT_UNBOUNDED}, or never for a bounded pool. */
    double trimAboveHeap = Double.NaN;

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
     * out, after a failed reset, or at close. It may run on any thread: the releasing or closing
     * thread, or one of the library's background workers ({@code striped-pool-worker-N}), which
     * run each pool's aging and maintenance one job at a time, so a slow destroy delays only its
     * own pool's background work. It never runs while the library holds a lock. If it throws,
     * the failure is logged and counted; the object is dropped all the same.
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
     * Sets a test that a released object must pass, after the reset hook, to be pooled; one that
     * fails it is destroyed instead and counted in {@link PoolStats#notRetained()}. Its use is
     * to let go of objects that grew for one large job and would otherwise pin that memory for
     * as long as they are idle, such as a builder or buffer that kept its largest capacity:
     *
     * <pre>{@code
     * Pool<StringBuilder> builders = Pool.builder(() -> new StringBuilder(1024))
     *         .reset(sb -> sb.setLength(0))
     *         .retainIf(sb -> sb.capacity() <= 64 * 1024)
     *         .build();
     * }</pre>
     *
     * It runs on the releasing thread, like the reset hook, and must be cheap. If it throws, the
     * object is destroyed, and the failure logged and counted in {@link PoolStats#hookFailures()}
     * as well. Both modes apply it; in a bounded pool the destroyed object's capacity comes back.
     *
     * @param retain true if the released object may be pooled; default: every object is
     * @return this builder
     * @throws NullPointerException if {@code retain} is null
     */
    public PoolBuilder<T> retainIf(Predicate<? super T> retain) {
        this.retain = Objects.requireNonNull(retain, "retainIf predicate is null: pass a Predicate "
                + "that tells which released objects to keep, or do not call retainIf()");
        return this;
    }

    /**
     * Caps the idle objects the pool holds; a release beyond it destroys the object. The cap is
     * spread over the shared stripes, and up to half of it (rounded up) is lent, one unit at a
     * time, to the private slots of platform threads as they release: one object per thread, and
     * up to seven more for a thread that holds several at once.
     * Default: 64 per processor.
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
     * Names the pool in messages, reports, {@link PoolStats} and monitoring. The name appears in
     * log lines, so it must be printable: no line breaks or other control characters, no
     * invisible or direction-changing characters, no spaces other than the plain space.
     *
     * @param name not blank, printable as said above, at most {@value #MAX_NAME_LENGTH}
     *        characters; default: {@code pool-N}
     * @return this builder
     * @throws NullPointerException if {@code name} is null
     * @throws IllegalArgumentException if {@code name} is blank, too long or holds a character
     *         that is not printable (the message gives its position and code point)
     */
    public PoolBuilder<T> name(String name) {
        this.name = SettingChecks.name(name);
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
            throw new IllegalArgumentException("agingInterval must not be negative, got " + interval
                    + ": pass the period between aging cycles, such as Duration.ofSeconds(1), or "
                    + "Duration.ZERO to age at every collection");
        }
        this.agingInterval = SettingChecks.saturated(interval);
        return this;
    }

    /**
     * Sets how full the heap may stay after a garbage collection before the pool gives its idle
     * objects back at once, instead of at its next aging cycles. Idle objects are memory kept
     * live for later; when the heap is short, the collector needs that memory now, and a pool
     * that keeps it makes every collection come sooner.
     *
     * <p>After each collection the pool compares the heap in use with its maximum, on one of the
     * library's background workers, never on acquire or release: the heap as a stop-the-world
     * collector's latest pause left it ({@code com.sun.management.GcInfo}; without module
     * {@code jdk.management}, the memory pools, and without {@code java.management},
     * {@code Runtime.totalMemory() - freeMemory()}, which also count some of what was allocated
     * since) against {@code maxMemory()}; on a concurrent
     * collector (ZGC, Shenandoah), which frees its garbage after the library sees the collection,
     * what the collector reports in use after its last cycles ({@code java.management}'s
     * collection usage of the heap pools), the lowest of the last four such readings. Above {@code fraction}, an
     * unbounded pool runs an aging cycle at once: the objects idle through its last cycle are
     * dropped, the others are dropped at the next collection if nobody reuses them. Above halfway
     * from {@code fraction} to a full heap it drops every idle object at once, those in threads'
     * private slots included. A bounded pool destroys its idle objects beyond {@link #minIdle(int)}
     * at once. Each such collection counts in {@link PoolStats#trims()}. A JVM without a heap
     * limit never trims.
     *
     * <p>After a trim that dropped objects the pool trims no more for one second, but for the
     * trim that finishes a soft trim's work (below). The objects it
     * dropped were old: a generational collector (G1, Parallel, generational ZGC) reclaims them
     * only at its next old or mixed collection, and until then every young collection finds the
     * heap as full; a pool that trimmed after each would throw away, over and over, the objects
     * it had just made again. A first trim that only marks the idle objects holds nothing back,
     * and one that also dropped objects already idle for a cycle lets the next collection's trim
     * drop the objects it marked, once, and nothing made since: a pool whose heap becomes short
     * gives back every object idle at that moment within two collections. 0 trims after every
     * collection, with no hold.
     *
     * @param fraction of the maximum heap, from 0 to 1; 1 never trims. Default: 0.85 for an
     *        unbounded pool; 1 (never) for a bounded pool, whose objects (connections, native
     *        handles) are costly to make again and hold little heap
     * @return this builder
     * @throws IllegalArgumentException if {@code fraction} is not from 0 to 1 (NaN included)
     */
    public PoolBuilder<T> trimAboveHeap(double fraction) {
        this.trimAboveHeap = HeapTrim.check(fraction);
        return this;
    }

    /** The threshold the pool uses: the one set, or the engine's default. */
    double trimThreshold() {
        return !Double.isNaN(trimAboveHeap) ? trimAboveHeap : maxTotal > 0 ? HeapTrim.NEVER : HeapTrim.DEFAULT_UNBOUNDED;
    }

    /**
     * Sets how closely the pool watches for objects acquired and never released; see
     * {@link LeakDetection} for the levels and what each costs, and the class comment for the
     * system property that sets it when this method is not called. With
     * {@link LeakDetection#DISABLED} the pool is built without any tracking code.
     *
     * @param level the level; default: the system property {@code stripedpool.leakDetection},
     *        else {@link LeakDetection#DISABLED}
     * @return this builder
     * @throws NullPointerException if {@code level} is null
     */
    public PoolBuilder<T> leakDetection(LeakDetection level) {
        this.leakDetection = Objects.requireNonNull(level,
                "leakDetection is null: pass LeakDetection.DISABLED, SAMPLED or PARANOID");
        return this;
    }

    /**
     * Sets how many acquisitions share one tracked acquisition under
     * {@link LeakDetection#SAMPLED}: each acquisition is tracked with probability 1/N. Ignored
     * by the other levels. The default, 1024, is chosen so that the samples cost a fraction of
     * a bare acquire and release: a tracked acquisition records a stack trace (microseconds),
     * an untracked one of an unbounded pool costs what it costs without leak detection. A
     * smaller N finds a rare leak sooner and costs proportionally more; see
     * {@code docs/finding-leaks.md}.
     *
     * @param n at least 1 (1 tracks every acquisition); default: the system property
     *        {@code stripedpool.leakDetection.samplingInterval}, else 1024
     * @return this builder
     * @throws IllegalArgumentException if {@code n} is below 1
     */
    public PoolBuilder<T> leakSamplingInterval(int n) {
        this.leakSamplingInterval = LeakSettings.checkInterval(n);
        return this;
    }

    /**
     * Sets a listener for leak reports, called in addition to the log message and the Flight
     * Recorder event. It runs on one of the library's background workers
     * ({@code striped-pool-worker-N}), one leak report of this pool at a time; a slow listener
     * delays only this pool's reports. If it throws, the failure is logged and the next report is
     * delivered all the same. Never called while leak detection is disabled, except for the
     * reports of {@link #reportHeldLongerThan(Duration)}, which come from a maintenance run, on a
     * worker too (held too long), and from the releasing thread (returned); see {@link LeakReport#kind()}.
     * Those are delivered apart from the leak reports, so with both a listener can be called
     * from two threads at once: one that keeps state must be thread-safe.
     *
     * @param listener receives each {@link LeakReport}; default: none
     * @return this builder
     * @throws NullPointerException if {@code listener} is null
     */
    public PoolBuilder<T> onLeak(Consumer<? super LeakReport> listener) {
        this.onLeak = Objects.requireNonNull(listener,
                "onLeak listener is null: pass a Consumer of LeakReport, or do not call onLeak()");
        return this;
    }

    /**
     * Caps the number of live objects (idle and in use) and makes the pool <em>bounded</em>:
     * when all {@code maxTotal} objects are in use, {@link Pool#acquire()} waits, up to
     * {@link #acquireTimeout(Duration)}, and then throws {@link PoolTimeoutException}. Waiting
     * threads are woken oldest first: a release wakes the thread that has waited longest, which
     * competes for the object with threads acquiring at that moment, until it has waited 1 ms;
     * from then on every release is handed straight to the oldest waiter until the queue drains.
     * So no thread waits much longer than 1 ms plus the time objects are held; when eight or
     * more platform threads queue, more than the pool serves in 1 ms, eight turns of the queue,
     * at most 12 ms. Meant for expensive resources (connections, native handles); see
     * {@code docs/bounded.md}.
     *
     * <p>A bounded pool keeps up to {@code maxTotal} objects idle, shrinks by
     * {@link #maxIdleTime(Duration)} and {@link #maxLifetime(Duration)} instead of by garbage
     * collections, and ignores {@link #maxIdle(int)} and {@link #agingInterval(Duration)}.
     *
     * @param maxTotal at least 1
     * @return this builder
     * @throws IllegalArgumentException if {@code maxTotal} is below 1
     */
    public PoolBuilder<T> maxTotal(int maxTotal) {
        if (maxTotal < 1) {
            throw new IllegalArgumentException("maxTotal must be at least 1, got " + maxTotal
                    + ": it is the most objects the pool lets exist at once");
        }
        this.maxTotal = maxTotal;
        return this;
    }

    /**
     * Bounded pools only: keeps at least this many objects idle and ready, as long as fewer than
     * {@link #maxTotal(int)} are in use. They are created in the background, on one of the
     * library's shared workers ({@code striped-pool-worker-N}), one job of this pool at a time:
     * right after {@link #build()}, after objects are destroyed, and at each maintenance run. Idle eviction by
     * {@link #maxIdleTime(Duration)} never goes below it: it decides from a count of the idle
     * objects taken after it has set aside the ones it may destroy, and before any destroy hook
     * runs. Acquisitions may take the pool below it, and so may {@link #maxLifetime(Duration)},
     * which applies to every object; the refills above bring it back.
     *
     * @param minIdle from 0 to {@code maxTotal}, at most 16,777,216 (2<sup>24</sup>); default 0
     * @return this builder
     * @throws IllegalArgumentException if {@code minIdle} is negative or above 2<sup>24</sup>
     */
    public PoolBuilder<T> minIdle(int minIdle) {
        if (minIdle < 0 || minIdle > MAX_MAX_IDLE) {
            throw new IllegalArgumentException("minIdle must be at least 0 and at most "
                    + MAX_MAX_IDLE + ", got " + minIdle + ": it is the number of objects the pool "
                    + "creates ahead of need and keeps idle, and each one is a live object");
        }
        this.minIdle = minIdle;
        return this;
    }

    /**
     * Bounded pools only: how long {@link Pool#acquire()} and {@link Pool#lease()} wait for an
     * object when all {@link #maxTotal(int) maxTotal} are in use, before they throw
     * {@link PoolTimeoutException}. {@link Pool#acquire(Duration)} takes its own timeout.
     *
     * @param timeout zero or more; zero never waits; one too long to count in nanoseconds
     *        (about 292 years) waits without end. Default: 30 seconds
     * @return this builder
     * @throws NullPointerException if {@code timeout} is null
     * @throws IllegalArgumentException if {@code timeout} is negative
     */
    public PoolBuilder<T> acquireTimeout(Duration timeout) {
        Objects.requireNonNull(timeout, "acquireTimeout is null: pass a Duration such as Duration.ofSeconds(2)");
        if (timeout.isNegative()) {
            throw new IllegalArgumentException("acquireTimeout must not be negative, got " + timeout
                    + ": pass how long an acquire may wait, such as Duration.ofSeconds(2), or "
                    + "Duration.ZERO not to wait at all");
        }
        this.acquireTimeout = SettingChecks.saturated(timeout);
        return this;
    }

    /**
     * Bounded pools only: a check run on the acquiring thread before an existing object is handed
     * out (not on an object the factory has just made). An object that fails it, or makes it
     * throw, is destroyed, and the acquiring thread makes a new one in its place (one factory
     * call, no further validation, whatever the timeout), so that it keeps its turn among the
     * waiters. A throw is also logged and counted in
     * {@link PoolStats#hookFailures()}. While it runs, the object is the pool's: a release or
     * invalidation of it from the hook throws {@link IllegalStateException}, a failure of the hook.
     *
     * @param validate true if the object is still usable; default: none
     * @return this builder
     * @throws NullPointerException if {@code validate} is null
     */
    public PoolBuilder<T> validate(Predicate<? super T> validate) {
        this.validate = Objects.requireNonNull(validate,
                "validate is null: pass a Predicate that tells a usable object, or do not call validate()");
        return this;
    }

    /**
     * Bounded pools only: destroys objects that stayed idle longer than this, down to
     * {@link #minIdle(int)}. Checked in the background every quarter of the
     * smaller of this and {@link #maxLifetime(Duration)} (between 10 ms and 30 s), so an object
     * is destroyed at most about a quarter of the time late, never early, however many checks
     * the pool has had and however late one of them ran. A release reads no clock for this.
     *
     * @param maxIdleTime positive; one too long to count in nanoseconds (about 292 years)
     *        means never. Default: none, idle objects are kept
     * @return this builder
     * @throws NullPointerException if {@code maxIdleTime} is null
     * @throws IllegalArgumentException if {@code maxIdleTime} is zero or negative
     */
    public PoolBuilder<T> maxIdleTime(Duration maxIdleTime) {
        this.maxIdleTime = SettingChecks.positive(maxIdleTime, "maxIdleTime");
        return this;
    }

    /**
     * Bounded pools only: destroys objects older than this (counted from their creation): idle
     * ones at the next maintenance run (checked every quarter of the smaller of this and
     * {@link #maxIdleTime(Duration)}, so at most about a quarter late: an acquire reads no clock
     * for this), borrowed ones when they are released (a release reads the clock, in pools
     * with a maxLifetime only). Useful for resources that the other side drops after a while,
     * such as connections behind a firewall.
     *
     * @param maxLifetime positive; one too long to count in nanoseconds (about 292 years)
     *        means never. Default: none, objects live until evicted or closed
     * @return this builder
     * @throws NullPointerException if {@code maxLifetime} is null
     * @throws IllegalArgumentException if {@code maxLifetime} is zero or negative
     */
    public PoolBuilder<T> maxLifetime(Duration maxLifetime) {
        this.maxLifetime = SettingChecks.positive(maxLifetime, "maxLifetime");
        return this;
    }

    /**
     * Bounded pools only: reports an object borrowed longer than {@code threshold}, once per
     * borrowing, with the stack of its acquisition, and again when it is given back, with how
     * long it was held: {@link LeakReport}s of kind {@link LeakReport.Kind#HELD_TOO_LONG} and
     * {@link LeakReport.Kind#RETURNED}, sent where leak reports go (the {@link #onLeak onLeak}
     * listener, the logger {@code io.github.stripedpool}, the JDK Flight Recorder) whatever the
     * leak detection level, and counted in {@link PoolStats#heldTooLong()}. Each acquisition
     * then records its stack (microseconds); the check runs in the background every quarter of
     * the threshold or sooner (but at most every 10 ms), so a report comes at most about a
     * quarter late (10 ms for a threshold under 40 ms), never early. The return of a borrowing
     * is reported after its held-too-long report, never before.
     *
     * @param threshold positive, for instance a few times the longest expected hold
     * @return this builder
     * @throws NullPointerException if {@code threshold} is null
     * @throws IllegalArgumentException if {@code threshold} is zero or negative
     */
    public PoolBuilder<T> reportHeldLongerThan(Duration threshold) {
        this.heldTooLong = SettingChecks.positive(threshold, "reportHeldLongerThan");
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
     * @return a new, open pool: bounded if {@link #maxTotal(int)} was set
     * @throws IllegalStateException if the settings contradict each other: an option for
     *         bounded pools without {@code maxTotal}, or {@code minIdle > maxTotal}
     * @throws IllegalArgumentException if leak detection is left to a system property and that
     *         property's value is not valid (see the class comment)
     */
    public Pool<T> build() {
        // Every check first: a build refused for its settings starts no thread, registers
        // nothing and takes no generated name.
        if (maxTotal > 0) {
            checkBounded();
        } else {
            checkUnbounded();
        }
        LeakSettings.resolve(leakDetection, leakSamplingInterval, onLeak); // a bad property, before a name is taken
        PoolSettings<T> s = settings(name != null ? name : "pool-" + UNNAMED.incrementAndGet());
        Background.prepare();
        Rehearsal.ensure(s.leaks); // the first pool of the JVM: see there
        FlightRecorderEvents.beforeBuild(); // before a worker of the pool can record an event
        Pool<T> engine = maxTotal > 0 ? BoundedPool.start(s) : new UnboundedPool<>(s);
        Pool<T> pool = s.leaks.wrap(engine);
        FlightRecorderEvents.register(pool, maxTotal > 0);
        return pool;
    }

    /**
     * This builder's settings, resolved now (system properties read) for a pool named
     * {@code name}; package-private, for {@link #build()} and tests that make an engine directly.
     */
    PoolSettings<T> settings(String name) {
        return new PoolSettings<>(this, name);
    }

    /** Rejects contradictions among a bounded pool's settings. */
    private void checkBounded() {
        if (minIdle > maxTotal) {
            throw new IllegalStateException("minIdle (" + minIdle + ") is above maxTotal ("
                    + maxTotal + "): the pool can never keep more idle objects than it may hold; "
                    + "lower minIdle to at most " + maxTotal + ", or raise maxTotal");
        }
    }

    /** Rejects options that only bounded pools have. */
    private void checkUnbounded() {
        String option = minIdle >= 0 ? "minIdle" : acquireTimeout != null ? "acquireTimeout"
                : validate != null ? "validate" : maxIdleTime != null ? "maxIdleTime"
                : maxLifetime != null ? "maxLifetime"
                : heldTooLong != null ? "reportHeldLongerThan" : null;
        if (option != null) {
            throw new IllegalStateException(option + " applies to bounded pools only: call "
                    + "maxTotal(n) to cap the pool at n objects, or remove " + option + "()");
        }
    }
}
