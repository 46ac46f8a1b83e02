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
 * One kind of pool the contract suite runs over, and the kind of thread that calls it: the engine
 * (unbounded or bounded), the level of leak detection, which of the standard hooks the pool has
 * (none, a reset hook only as the README recommends, a destroy hook only, or both), and whether
 * the test's calls come from platform threads or from virtual threads. {@link #all()} lists every
 * combination; {@link #builder(Supplier)} configures a builder accordingly, and {@link #run} and
 * {@link #thread} put a test's calls on the mode's kind of thread.
 *
 * <p>Why virtual threads make modes of their own: both engines keep per-thread state for
 * platform threads only. A virtual thread has no private slot in an unbounded pool, so every
 * acquire and release goes to the stripes, counts in the stripes' atomic counters and, under
 * sampled leak detection, draws its sample at random; a bounded pool counts a virtual thread's
 * operations in striped counters and starts its search for an idle entry at a home drawn for
 * it. Each virtual-thread mode is a platform mode whose calls come from virtual threads: 24
 * platform modes and, on JDK 21+, 24 virtual ones. All 24, not a subset (say the leak levels
 * DISABLED and PARANOID only), because they add about 7 s to the contract tests on 2 cores,
 * most of it in {@link PoolConcurrencyContractTest}. On JDK 17 the virtual modes are not listed
 * (the tests compile for Java 17 and reach virtual threads through {@link VirtualThreads}); one
 * test, {@code PoolContractTest.virtualThreadModes_areListedWhereTheJdkHasThem}, is skipped
 * there and says why, so that a report on JDK 17 shows that they did not run, and fails on JDK
 * 21+ if they are missing.
 */
final class PoolMode {
    /** The cap of the bounded modes: above every test's peak use, so none of them waits. */
    static final int MAX_TOTAL = 64;

    /**
     * How long {@link #run} waits for a body on a virtual thread: below the contract classes'
     * {@code @Timeout}, so that a body that hangs fails with its own stack, not with that of the
     * thread that waits for it.
     */
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(45);

    /** Runs a contract test once for every mode. */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.stripedpool.PoolMode#all")
    @interface EveryMode {
    }

    /**
     * Runs a contract test once for every engine, leak level and kind of thread; the test sets
     * its own hooks.
     */
    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.stripedpool.PoolMode#everyEngineAndLeakLevel")
    @interface EveryEngineAndLeakLevel {
    }

    final boolean bounded;
    final LeakDetection leaks;
    /** Whether the pool has the standard reset hook. */
    final boolean reset;
    /** Whether the pool has the standard destroy hook. */
    final boolean destroy;
    /** Whether the test's calls on the pool come from virtual threads rather than platform ones. */
    final boolean virtual;
    /** Counts of the standard hooks (each stays 0 when its hook is not set). */
    final AtomicLong resets = new AtomicLong();
    final AtomicLong destroys = new AtomicLong();

    private PoolMode(boolean bounded, LeakDetection leaks, boolean reset, boolean destroy, boolean virtual) {
        this.bounded = bounded;
        this.leaks = leaks;
        this.reset = reset;
        this.destroy = destroy;
        this.virtual = virtual;
    }

    /** Every mode: the platform ones, then, where the JDK has virtual threads, the virtual ones. */
    static List<PoolMode> all() {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean virtual : threadKinds()) {
            for (boolean reset : new boolean[] {false, true}) {
                for (boolean destroy : new boolean[] {false, true}) {
                    modes.addAll(modes(reset, destroy, virtual));
                }
            }
        }
        return modes;
    }

    /** Every engine and leak level without the standard hooks, on both kinds of thread. */
    static List<PoolMode> everyEngineAndLeakLevel() {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean virtual : threadKinds()) {
            modes.addAll(modes(false, false, virtual));
        }
        return modes;
    }

    /**
     * Every engine and leak level without the standard hooks, on platform threads only: for
     * tests that start threads of their own rather than through {@link #run} and
     * {@link #thread}, to which a virtual mode would be a platform mode under another name.
     */
    static List<PoolMode> withoutStandardHooks() {
        return modes(false, false, false);
    }

    private static boolean[] threadKinds() {
        return VirtualThreads.AVAILABLE ? new boolean[] {false, true} : new boolean[] {false};
    }

    private static List<PoolMode> modes(boolean reset, boolean destroy, boolean virtual) {
        List<PoolMode> modes = new ArrayList<>();
        for (boolean bounded : new boolean[] {false, true}) {
            for (LeakDetection leaks : LeakDetection.values()) {
                modes.add(new PoolMode(bounded, leaks, reset, destroy, virtual));
            }
        }
        return modes;
    }

    /**
     * Runs a test's body on this mode's kind of thread: inline on the test's own (platform)
     * thread, or on a new virtual thread that the caller waits for, at most {@link #RUN_TIMEOUT}.
     * What the body throws reaches the caller as it is, with its own stack, so a test is written
     * once for both kinds and fails in either the same way.
     */
    void run(VirtualThreads.Body body) throws Exception {
        run(RUN_TIMEOUT, body);
    }

    /** {@link #run(VirtualThreads.Body)} for a test whose class allows it more time. */
    void run(Duration timeout, VirtualThreads.Body body) throws Exception {
        if (virtual) {
            VirtualThreads.runOnOne("test body in " + this, timeout, body);
        } else {
            body.run();
        }
    }

    /**
     * A thread of this mode's kind, not started: the other threads of a test call the pool from
     * the same kind of thread as its body.
     */
    Thread thread(String name, Runnable body) {
        return virtual ? VirtualThreads.unstarted(name, body) : new Thread(body, name);
    }

    /** Starts a thread of this mode's kind; an {@code Executor} for the tests' futures. */
    Thread start(Runnable body) {
        Thread t = thread("contract " + this, body);
        t.start();
        return t;
    }

    /**
     * Whether the pool promises to catch the same thread's second release of an object in a
     * row. {@link Pool#release} leaves one case out: an unbounded pool below
     * {@link LeakDetection#PARANOID} keeps no record of a virtual thread's last release (it has
     * no private slot to keep it in).
     */
    boolean catchesADoubleReleaseInARow() {
        return bounded || leaks == LeakDetection.PARANOID || !virtual;
    }

    /** Why a test of that promise is skipped in the modes that do not make it. */
    static final String DOUBLE_RELEASE_UNSEEN = "Pool.release documents that an unbounded pool below "
            + "PARANOID leak detection does not catch a double release on a virtual thread (under "
            + "SAMPLED, only one whose acquisition happened to be tracked)";

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
        return (virtual ? "virtual-" : "") + (bounded ? "bounded" : "unbounded") + "-"
                + leaks.name().toLowerCase() + (reset ? "-reset" : "") + (destroy ? "-destroy" : "");
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
