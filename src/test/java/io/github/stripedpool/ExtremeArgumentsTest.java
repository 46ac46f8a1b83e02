package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every numeric and {@link Duration} argument of the public API at its extremes: 0, 1, -1, the
 * smallest and the largest value, and for durations also ±292 years (about where nanoseconds
 * overflow a {@code long}) and the largest and smallest {@code Duration}. Each is either rejected
 * at once with an {@link IllegalArgumentException} whose message names the option, or accepted,
 * and then the pool works and behaves as documented. Never a hang, an overflow or an
 * {@link OutOfMemoryError}.
 */
class ExtremeArgumentsTest {

    private static final Duration YEARS_292 = Duration.ofDays(292L * 365 + 71);

    /** The extreme durations, named for the test's display. */
    static List<Duration> durations() {
        return List.of(Duration.ZERO, Duration.ofNanos(1), Duration.ofNanos(-1),
                Duration.ofNanos(Long.MAX_VALUE), Duration.ofNanos(Long.MIN_VALUE),
                YEARS_292, YEARS_292.negated(),
                Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), Duration.ofSeconds(Long.MIN_VALUE),
                ChronoUnit.FOREVER.getDuration(), ChronoUnit.FOREVER.getDuration().negated());
    }

    static List<Integer> ints() {
        return List.of(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE);
    }

    /** A setter of a duration: its name, whether it is for bounded pools, and whether 0 is valid. */
    enum DurationOption {
        AGING_INTERVAL("agingInterval", false, true, PoolBuilder::agingInterval),
        ACQUIRE_TIMEOUT("acquireTimeout", true, true, PoolBuilder::acquireTimeout),
        MAX_IDLE_TIME("maxIdleTime", true, false, PoolBuilder::maxIdleTime),
        MAX_LIFETIME("maxLifetime", true, false, PoolBuilder::maxLifetime),
        REPORT_HELD_LONGER_THAN("reportHeldLongerThan", true, false, PoolBuilder::reportHeldLongerThan);

        final String option;
        final boolean bounded;
        final boolean zeroAllowed;
        final BiConsumer<PoolBuilder<Object>, Duration> set;

        DurationOption(String option, boolean bounded, boolean zeroAllowed,
                BiConsumer<PoolBuilder<Object>, Duration> set) {
            this.option = option;
            this.bounded = bounded;
            this.zeroAllowed = zeroAllowed;
            this.set = set;
        }

        boolean valid(Duration d) {
            return d.isZero() ? zeroAllowed : !d.isNegative();
        }
    }

    /** A setter of an int, with the range its Javadoc documents. */
    enum IntOption {
        MAX_IDLE("maxIdle", false, 1, PoolBuilder.MAX_MAX_IDLE, PoolBuilder::maxIdle),
        MAX_TOTAL("maxTotal", true, 1, Integer.MAX_VALUE, PoolBuilder::maxTotal),
        MIN_IDLE("minIdle", true, 0, PoolBuilder.MAX_MAX_IDLE, PoolBuilder::minIdle),
        LEAK_SAMPLING_INTERVAL("leakSamplingInterval", false, 1, Integer.MAX_VALUE,
                PoolBuilder::leakSamplingInterval);

        final String option;
        final boolean bounded;
        final int min;
        final int max;
        final BiConsumer<PoolBuilder<Object>, Integer> set;

        IntOption(String option, boolean bounded, int min, int max, BiConsumer<PoolBuilder<Object>, Integer> set) {
            this.option = option;
            this.bounded = bounded;
            this.min = min;
            this.max = max;
            this.set = set;
        }
    }

    static Stream<Arguments> durationCases() {
        List<Arguments> all = new ArrayList<>();
        for (DurationOption o : DurationOption.values()) {
            for (Duration d : durations()) {
                all.add(Arguments.of(o, d));
            }
        }
        return all.stream();
    }

    static Stream<Arguments> intCases() {
        List<Arguments> all = new ArrayList<>();
        for (IntOption o : IntOption.values()) {
            for (int v : ints()) {
                all.add(Arguments.of(o, v));
            }
        }
        return all.stream();
    }

    static Stream<Arguments> acquireTimeouts() {
        return durations().stream().map(Arguments::of);
    }

    @ParameterizedTest(name = "{0}({1})")
    @MethodSource("durationCases")
    void aDurationSettingIsRejectedWithItsNameOrWorks(DurationOption o, Duration d) {
        PoolBuilder<Object> b = Pool.builder(Object::new).leakDetection(LeakDetection.DISABLED);
        if (o.bounded) {
            b.maxTotal(2);
        }
        if (!o.valid(d)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.set.accept(b, d),
                    () -> o.option + "(" + d + ") must be rejected");
            assertTrue(e.getMessage().contains(o.option), () -> "the message must name the option: " + e.getMessage());
            return;
        }
        o.set.accept(b, d);
        b.onLeak(r -> { }); // reportHeldLongerThan(1 ns) reports every acquisition: not to the log
        assertWorks(b, o + "(" + d + ")");
    }

    @ParameterizedTest(name = "{0}({1})")
    @MethodSource("intCases")
    void anIntSettingIsRejectedWithItsNameOrWorks(IntOption o, int v) {
        PoolBuilder<Object> b = Pool.builder(Object::new).leakDetection(LeakDetection.SAMPLED);
        if (o.bounded && o != IntOption.MAX_TOTAL) {
            b.maxTotal(Integer.MAX_VALUE);
        }
        if (v < o.min || v > o.max) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> o.set.accept(b, v),
                    () -> o.option + "(" + v + ") must be rejected");
            assertTrue(e.getMessage().contains(o.option), () -> "the message must name the option: " + e.getMessage());
            assertTrue(e.getMessage().contains(String.valueOf(v)), () -> "the message must give the value: " + e.getMessage());
            return;
        }
        o.set.accept(b, v);
        assertWorks(b, o + "(" + v + ")");
    }

    /** Builds the pool, cycles objects, holds a few at once, closes: in bounded time. */
    private static void assertWorks(PoolBuilder<Object> b, String what) {
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            try (Pool<Object> pool = b.build()) {
                boolean two = pool.stats().maxTotal() != 1; // maxTotal(1) holds one at a time
                for (int i = 0; i < 100; i++) {
                    Object x = pool.acquire();
                    if (two) {
                        pool.release(pool.acquire(Duration.ofSeconds(5)));
                    }
                    pool.release(x);
                    pool.release(pool.acquire(Duration.ofSeconds(5)));
                }
                assertNotNull(pool.stats().toString());
                assertEquals(0, pool.stats().inUse(), what);
            }
        }, () -> what + " hung");
    }

    /**
     * {@code acquire(d)} on a bounded pool at its cap: a non-positive timeout fails at once, a
     * positive one waits that long at most, one too long to count waits until a release. The
     * most negative durations once overflowed the deadline and parked forever.
     */
    @ParameterizedTest(name = "acquire({0})")
    @MethodSource("acquireTimeouts")
    void acquireWithATimeoutAtTheCapWaitsAsDocumented(Duration d) {
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(1)
                .leakDetection(LeakDetection.DISABLED).name("at-cap").build()) {
            Object held = pool.acquire();
            boolean shortWait = d.compareTo(Duration.ofSeconds(1)) <= 0;
            if (shortWait) {
                PoolTimeoutException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                        () -> assertThrows(PoolTimeoutException.class, () -> pool.acquire(d)),
                        () -> "acquire(" + d + ") at the cap must fail within its timeout, not park");
                assertTrue(e.getMessage().contains("at-cap"), e.getMessage());
                pool.release(held);
                return;
            }
            // A long wait: it ends when another thread releases the object.
            CompletableFuture<Object> waiter = CompletableFuture.supplyAsync(() -> pool.acquire(d));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (pool.stats().waitingNow() == 0 && !waiter.isDone()) {
                if (System.nanoTime() - deadline > 0) {
                    fail("acquire(" + d + ") never started to wait: " + pool.stats());
                }
                Thread.onSpinWait();
            }
            assertTrue(!waiter.isDone(), () -> "acquire(" + d + ") returned without waiting: " + waiter);
            pool.release(held);
            assertSame(held, assertTimeoutPreemptively(Duration.ofSeconds(10), () -> waiter.get()),
                    "the waiter must get the released object");
            pool.release(held);
        }
    }

    /** An unbounded pool never waits, whatever the timeout. */
    @ParameterizedTest(name = "acquire({0})")
    @MethodSource("acquireTimeouts")
    void acquireWithATimeoutOnAnUnboundedPoolNeverWaits(Duration d) {
        try (Pool<Object> pool = Pool.builder(Object::new).leakDetection(LeakDetection.DISABLED).build()) {
            Object x = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> pool.acquire(d));
            pool.release(x);
        }
    }
}
