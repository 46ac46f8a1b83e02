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
 * leak detection, and whether the pool has reset and destroy hooks. {@link #all()} lists every
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
    final boolean hooks;
    /** Counts of the standard hooks (only when {@link #hooks}). */
    final AtomicLong resets = new AtomicLong();
    final AtomicLong destroys = new AtomicLong();

    private PoolMode(boolean bounded, LeakDetection leaks, boolean hooks) {
        this.bounded = bounded;
        this.leaks = leaks;
        this.hooks = hooks;
    }

    static List<PoolMode> all() {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean hooks : new boolean[] {false, true}) {
            modes.addAll(modes(hooks));
        }
        return modes;
    }

    static List<PoolMode> withoutStandardHooks() {
        return modes(false);
    }

    private static List<PoolMode> modes(boolean hooks) {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean bounded : new boolean[] {false, true}) {
            for (LeakDetection leaks : LeakDetection.values()) {
                modes.add(new PoolMode(bounded, leaks, hooks));
            }
        }
        return modes;
    }

    /**
     * A builder of this mode's kind of pool. With hooks, the reset clears {@link Item#data} and
     * counts, the destroy marks the item destroyed and counts. Sampled leak detection tracks one
     * acquisition in two, so both its tracked and its untracked paths run.
     */
    PoolBuilder<Item> builder(Supplier<Item> factory) {
        PoolBuilder<Item> b = configure(Pool.builder(factory).name("contract-" + this));
        if (hooks) {
            b.reset(x -> {
                x.data = 0;
                resets.incrementAndGet();
            }).destroy(x -> {
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
                + (hooks ? "-hooks" : "");
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
