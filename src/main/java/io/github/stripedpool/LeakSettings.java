package io.github.stripedpool;

import java.util.Locale;
import java.util.function.Consumer;

/**
 * Turns the builder's leak-detection settings and the system properties into structure, once, in
 * {@link PoolBuilder#build()}: the engine itself when detection is disabled, a
 * {@link LeakDetectingPool} around it otherwise. Precedence: a setting made on the builder, else
 * the system property, else the default.
 */
final class LeakSettings {
    /** Selects the level for every pool whose builder does not: disabled, sampled or paranoid. */
    static final String LEVEL_PROPERTY = "stripedpool.leakDetection";

    /** Selects the sampling interval for every pool whose builder does not. */
    static final String INTERVAL_PROPERTY = "stripedpool.leakDetection.samplingInterval";

    /**
     * Default sampling interval: one acquisition in 1024. A tracked acquisition records a stack
     * trace, about 3 microseconds at the shallow stack of a benchmark and more in a deep one,
     * while an untracked cycle of the unbounded engine costs what it costs without detection,
     * about 10 ns: at 1 in 128 (Netty's figure) the samples alone cost more than the cycle
     * itself, at 1 in 1024 about a third of it. A leak that happens often is still seen soon: a
     * pool cycled a million times a second records about a thousand stacks a second, and one
     * leaking path taken once in a hundred acquisitions is reported within about 10^5 of them.
     */
    static final int DEFAULT_INTERVAL = 1024;

    static final LeakSettings DISABLED = new LeakSettings(LeakDetection.DISABLED, 1, null);

    final LeakDetection level;
    final int interval;
    private final Consumer<? super LeakReport> listener;

    private LeakSettings(LeakDetection level, int interval, Consumer<? super LeakReport> listener) {
        this.level = level;
        this.interval = interval;
        this.listener = listener;
    }

    /**
     * Resolves the builder's settings against the system properties. Called before the engine is
     * made, so that a bad property fails the build without leaving a pool behind.
     *
     * @param level the builder's level, or null if not set
     * @param interval the builder's interval, or 0 if not set
     * @throws IllegalArgumentException if a property that is needed has a bad value
     */
    static LeakSettings resolve(LeakDetection level, int interval,
            Consumer<? super LeakReport> listener) {
        LeakDetection l = level != null ? level : levelFromProperty();
        switch (l) {
            case DISABLED:
                return DISABLED;
            case PARANOID:
                return new LeakSettings(l, 1, listener);
            default:
                return new LeakSettings(l, interval != 0 ? interval : intervalFromProperty(), listener);
        }
    }

    /**
     * The engine itself when disabled, or when it is an unbounded pool sampling on its own (it
     * decides which acquisitions to track on its acquire path, see
     * {@link UnboundedPool#sampler}); else the engine wrapped in a leak-detecting pool.
     */
    <T> Pool<T> wrap(Pool<T> engine) {
        if (level == LeakDetection.DISABLED
                || level == LeakDetection.SAMPLED && engine instanceof UnboundedPool) {
            return engine;
        }
        return new LeakDetectingPool<>(engine, level, interval, listener);
    }

    /** For an unbounded engine under SAMPLED: the table and reporter it samples into, else null. */
    <T> LeakDetectingPool<T> samplerFor(Pool<T> engine) {
        return level == LeakDetection.SAMPLED
                ? new LeakDetectingPool<>(engine, level, interval, listener)
                : null;
    }

    static LeakDetection levelFromProperty() {
        String v = System.getProperty(LEVEL_PROPERTY);
        if (v == null) {
            return LeakDetection.DISABLED;
        }
        try {
            return LeakDetection.valueOf(v.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("system property " + LEVEL_PROPERTY + "='" + v
                    + "' is not a leak detection level: use disabled, sampled or paranoid "
                    + "(case does not matter)", null);
        }
    }

    static int intervalFromProperty() {
        String v = System.getProperty(INTERVAL_PROPERTY);
        if (v == null) {
            return DEFAULT_INTERVAL;
        }
        long n;
        try {
            n = Long.parseLong(v.trim());
        } catch (NumberFormatException e) {
            n = 0;
        }
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("system property " + INTERVAL_PROPERTY + "='" + v
                    + "' is not a sampling interval: use a whole number from 1 to " + Integer.MAX_VALUE
                    + " (track one acquisition in that many; default " + DEFAULT_INTERVAL + ")");
        }
        return (int) n;
    }

    static int checkInterval(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("leakSamplingInterval must be at least 1, got " + n
                    + ": the pool tracks one acquisition in that many (1 tracks them all)");
        }
        return n;
    }
}
