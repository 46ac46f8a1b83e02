package io.github.stripedpool;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One kind of pool the contract suite runs over: the engine (unbounded or bounded), the level of
 * leak detection, and which of the standard hooks the pool has: none, a reset hook only (the
 * build the README recommends), a destroy hook only, or both. {@link #all()} lists every
 * combination; {@link #builder(Supplier)} configures a builder accordingly.
 */
final class PoolMode {
    /** The cap of the bounded modes: above every test's peak use, so none of them waits. */
    static final int MAX_TOTAL = 64;

    /** Runs a contract test once for every mode. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.stripedpool.PoolMode#all")
    @interface EveryMode {
    }

    /** Runs a contract test once for every engine and leak level; the test sets its own hooks. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.stripedpool.PoolMode#withoutStandardHooks")
    @interface EveryEngineAndLeakLevel {
    }

    final boolean bounded;
    final LeakDetection leaks;
    /** Whether the pool has the standard reset hook. */
    final boolean reset;
    /** Whether the pool has the standard destroy hook. */
    final boolean destroy;
    /** Counts of the standard hooks (each stays 0 when its hook is not set). */
    final AtomicLong resets = new AtomicLong();
    final AtomicLong destroys = new AtomicLong();

    private PoolMode(boolean bounded, LeakDetection leaks, boolean reset, boolean destroy) {
        this.bounded = bounded;
        this.leaks = leaks;
        this.reset = reset;
        this.destroy = destroy;
    }

    static List<PoolMode> all() {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean reset : new boolean[] {false, true}) {
            for (boolean destroy : new boolean[] {false, true}) {
                modes.addAll(modes(reset, destroy));
            }
        }
        return modes;
    }

    static List<PoolMode> withoutStandardHooks() {
        return modes(false, false);
    }

    private static List<PoolMode> modes(boolean reset, boolean destroy) {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean bounded : new boolean[] {false, true}) {
            for (LeakDetection leaks : LeakDetection.values()) {
                modes.add(new PoolMode(bounded, leaks, reset, destroy));
            }
        }
        return modes;
    }

    /**
     * A builder of this mode's kind of pool. The reset hook, if the mode has it, clears
     * {@link Item#data} and counts; the destroy hook marks the item destroyed and counts. Sampled leak detection tracks one
     * acquisition in two, so both its tracked and its untracked paths run.
     */
    PoolBuilder<Item> builder(Supplier<Item> factory) {
        PoolBuilder<Item> b = configure(Pool.builder(factory).name("contract-" + this));
        if (reset) {
            b.reset(x -> {
                x.data = 0;
                resets.incrementAndGet();
            });
        }
        if (destroy) {
            b.destroy(x -> {
                x.destroyed = true;
                destroys.incrementAndGet();
            });
        }
        return b;
    }

    /**
     * Sets this mode's engine and leak level on any builder (not its hooks): bounded modes get
     * {@link #MAX_TOTAL} and a 10 s acquire timeout (a bounded pool ignores {@code maxIdle} and
     * {@code agingInterval}).
     */
    <T> PoolBuilder<T> configure(PoolBuilder<T> b) {
        b.leakDetection(leaks).leakSamplingInterval(2);
        if (bounded) {
            b.maxTotal(MAX_TOTAL).acquireTimeout(Duration.ofSeconds(10));
        }
        return b;
    }

    PoolBuilder<Item> builder() {
        return builder(Item::new);
    }

    @Override
    public String toString() {
        return (bounded ? "bounded" : "unbounded") + "-" + leaks.name().toLowerCase()
                + (reset ? "-reset" : "") + (destroy ? "-destroy" : "");
    }

    /** A pooled object that tells who holds it and whether it was reset or destroyed. */
    static final class Item {
        private static final AtomicLong IDS = new AtomicLong();
        final long id = IDS.incrementAndGet();
        volatile long data;
        volatile boolean destroyed;

        @Override
        public String toString() {
            return "Item#" + id;
        }
    }
}
