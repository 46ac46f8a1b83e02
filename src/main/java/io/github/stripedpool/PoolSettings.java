package io.github.stripedpool;

/**
 * A pool's settings, resolved once by {@link PoolBuilder#build()} and never changed: the
 * builder's values with their defaults applied, durations in nanoseconds, the leak-detection
 * system properties read (once: a property changed meanwhile cannot give the engine and its
 * leak detector two different levels), and the user's code wrapped in the one hook layer both
 * engines call ({@link UserHooks}). The engines take this, never the builder, which its user may
 * change, or use for another pool, while this pool runs.
 *
 * @param <T> the type of the pooled objects
 */
final class PoolSettings<T> {
    final String name;
    /** The factory and every hook. */
    final UserHooks<T> hooks;
    /** The leak-detection level, interval and listener, properties applied. */
    final LeakSettings leaks;
    /** Called with each report of an object held too long; null if not set. */
    final java.util.function.Consumer<? super LeakReport> onLeak;
    /** Heap fraction above which a collection trims the pool ({@link HeapTrim}); 1: never. */
    final double trimAboveHeap;
    /** Number of stripes, a power of two. */
    final int stripes;

    // ---------------------------------------------------------------- unbounded pools

    final int maxIdle;
    final long agingIntervalNanos;

    // ---------------------------------------------------------------- bounded pools

    /** The cap; 0 for an unbounded pool. */
    final int maxTotal;
    /** 0 when not set. */
    final int minIdle;
    final long acquireTimeoutNanos;
    /** 0 when not set. */
    final long maxIdleTimeNanos;
    /** 0 when not set. */
    final long maxLifetimeNanos;
    /** 0 unless the pool reports objects held too long. */
    final long heldTooLongNanos;

    /**
     * @throws IllegalArgumentException if leak detection is left to a system property whose
     *         value is not valid
     */
    PoolSettings(PoolBuilder<T> b, String name) {
        this.name = name;
        this.leaks = LeakSettings.resolve(b.leakDetection, b.leakSamplingInterval, b.onLeak);
        this.onLeak = b.onLeak;
        this.maxTotal = Math.max(0, b.maxTotal);
        this.hooks = new UserHooks<>(name, b.factory, b.reset, b.retain, b.validate, b.destroy,
                maxTotal > 0 ? "the capacity it was to use went back to the pool, acquire() again to retry"
                        : "nothing was taken from the pool, acquire() again to retry");
        this.trimAboveHeap = b.trimThreshold();
        this.stripes = Math.max(1, b.stripes);
        this.maxIdle = b.maxIdle;
        this.agingIntervalNanos = SettingChecks.nanos(b.agingInterval);
        this.minIdle = Math.max(0, b.minIdle);
        this.acquireTimeoutNanos = SettingChecks.nanos(b.acquireTimeout != null
                ? b.acquireTimeout : PoolBuilder.DEFAULT_ACQUIRE_TIMEOUT);
        this.maxIdleTimeNanos = b.maxIdleTime != null ? SettingChecks.nanos(b.maxIdleTime) : 0L;
        this.maxLifetimeNanos = b.maxLifetime != null ? SettingChecks.nanos(b.maxLifetime) : 0L;
        this.heldTooLongNanos = b.heldTooLong != null ? SettingChecks.nanos(b.heldTooLong) : 0L;
    }
}
