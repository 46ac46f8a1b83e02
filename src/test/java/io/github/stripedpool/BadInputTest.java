package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every public entry point given something wrong: the exception type, a message that names
 * what is wrong, and a pool whose accounting still balances afterwards.
 */
class BadInputTest {
    private final Tracked.Factory objects = new Tracked.Factory();

    private static void assertMessageNames(Throwable e, String... words) {
        String m = e.getMessage();
        assertTrue(m != null, () -> e + " has no message");
        for (String w : words) {
            assertTrue(m.contains(w), () -> "message should name '" + w + "': " + m);
        }
    }

    /** A failed builder call leaves the builder as it was: it still builds a working pool. */
    private static void assertStillBuilds(PoolBuilder<Tracked> b, int maxIdle, String name) {
        try (Pool<Tracked> pool = b.build()) {
            assertEquals(maxIdle, pool.stats().idleCapacity());
            assertEquals(name, pool.name());
            pool.release(pool.acquire());
            assertEquals(1, pool.stats().privateHits() + pool.stats().misses());
            assertBalanced(pool);
        }
    }

    // ------------------------------------------------------------------ builder

    @Test
    void nullFactoryIsRejectedNamingTheFactory() {
        NullPointerException e = assertThrows(NullPointerException.class, () -> Pool.builder(null));
        assertMessageNames(e, "factory is null");
    }

    static Stream<Arguments> nullBuilderArguments() {
        return Stream.of(
                Arguments.of("reset", (Consumer<PoolBuilder<Tracked>>) b -> b.reset(null), "reset hook is null"),
                Arguments.of("destroy", (Consumer<PoolBuilder<Tracked>>) b -> b.destroy(null), "destroy hook is null"),
                Arguments.of("name", (Consumer<PoolBuilder<Tracked>>) b -> b.name(null), "name is null"),
                Arguments.of("agingInterval", (Consumer<PoolBuilder<Tracked>>) b -> b.agingInterval(null),
                        "agingInterval is null"));
    }

    @ParameterizedTest(name = "{0}(null)")
    @MethodSource("nullBuilderArguments")
    void nullBuilderArgumentIsRejectedNamingTheSetting(String setting, Consumer<PoolBuilder<Tracked>> call,
            String expected) {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        NullPointerException e = assertThrows(NullPointerException.class, () -> call.accept(b));
        assertMessageNames(e, expected);
        assertStillBuilds(b, 9, "kept");
    }

    @ParameterizedTest(name = "maxIdle({0})")
    @ValueSource(ints = {0, -1, Integer.MIN_VALUE})
    void maxIdleBelowOneIsRejectedNamingTheValue(int maxIdle) {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.maxIdle(maxIdle));
        assertMessageNames(e, "maxIdle", "at least 1", "got " + maxIdle);
        assertStillBuilds(b, 9, "kept");
    }

    @Test
    void maxIdleOfOneIsAccepted() {
        try (Pool<Tracked> pool = objects.builder().maxIdle(1).build()) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            pool.release(a);
            pool.release(b);
            PoolStats s = assertBalanced(pool);
            assertEquals(1, s.idle(), s::toString);
            assertEquals(1, s.dropped(), s::toString);
        }
    }

    /**
     * Regression: {@code maxIdle(Integer.MAX_VALUE)}, a natural way to ask for "no cap", was
     * accepted and then made {@code build()} fail with a {@code NegativeArraySizeException}
     * (the private-slot half overflowed), and any cap in the hundreds of millions preallocated
     * gigabytes of stripe slots. The cap is bounded where it is set, with a message.
     */
    @ParameterizedTest(name = "maxIdle({0})")
    @ValueSource(ints = {Integer.MAX_VALUE, Integer.MAX_VALUE - 1, PoolBuilder.MAX_MAX_IDLE + 1})
    void maxIdleAboveTheLimitIsRejectedNamingTheLimit(int maxIdle) {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.maxIdle(maxIdle));
        assertMessageNames(e, "maxIdle", "at most " + PoolBuilder.MAX_MAX_IDLE, "got " + maxIdle);
        assertStillBuilds(b, 9, "kept");
    }

    @Test
    void largeMaxIdleBuildsAPoolThatKeepsThatManyIdleObjects() {
        int maxIdle = 1 << 16;
        try (Pool<Tracked> pool = objects.builder().maxIdle(maxIdle).build()) {
            java.util.List<Tracked> held = new java.util.ArrayList<>();
            for (int i = 0; i < maxIdle / 2 + 1; i++) {
                held.add(pool.acquire());
            }
            held.forEach(pool::release);
            PoolStats s = assertBalanced(pool);
            assertEquals(maxIdle / 2 + 1, s.idle(), "the private slot and the stripes' half: " + s);
            assertEquals(0, s.dropped(), s::toString);
        }
    }

    /**
     * Regression: an interval too long for a {@code long} of nanoseconds, such as
     * {@code ChronoUnit.FOREVER.getDuration()} (a natural way to say "never age"), was accepted
     * and then made {@code build()} throw an {@code ArithmeticException}.
     */
    @Test
    void agingIntervalTooLongForNanosecondsMeansNeverAge() {
        PoolBuilder<Tracked> b = objects.builder().agingInterval(java.time.temporal.ChronoUnit.FOREVER.getDuration());
        try (Pool<Tracked> pool = assertDoesNotThrow(b::build)) {
            Tracked x = pool.acquire();
            pool.release(x);
            assertSame(x, pool.acquire());
            pool.release(x);
            assertBalanced(pool);
        }
        try (UnboundedPool<Tracked> pool = PoolAssertions.engine(
                objects.builder().agingInterval(Duration.ofSeconds(Long.MAX_VALUE)), "never-ages")) {
            pool.release(pool.acquire());
            pool.onGarbageCollection(System.nanoTime() + Long.MAX_VALUE / 2);
            assertEquals(0, pool.stats().agingCycles(), "a pool that never ages must not age");
        }
    }

    @ParameterizedTest(name = "name(\"{0}\")")
    @ValueSource(strings = {"", " ", "\t\n", "\u2003"})
    void blankNameIsRejected(String name) {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.name(name));
        assertMessageNames(e, "name is blank");
        assertStillBuilds(b, 9, "kept");
    }

    /**
     * Pool names appear in every log line: a name with a line break once forged log lines, and
     * invisible or direction-changing characters made a name look like another.
     */
    @ParameterizedTest(name = "name with U+{1}")
    @MethodSource("unprintableNames")
    void nameWithACharacterThatDoesNotPrintAsItselfIsRejectedNamingItsPosition(String name, String codePoint,
            int index) {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.name(name));
        assertMessageNames(e, "U+" + codePoint, "index " + index);
        assertStillBuilds(b, 9, "kept");
    }

    static Stream<Arguments> unprintableNames() {
        return Stream.of(
                Arguments.of("db\nWARNING: forged", "000A", 2),
                Arguments.of("db\r", "000D", 2),
                Arguments.of("a\u0000b", "0000", 1),
                Arguments.of("pool\u0007", "0007", 4),
                Arguments.of("zero\u200Bwidth", "200B", 4),
                Arguments.of("\u202Eloop", "202E", 0),
                Arguments.of("no\u00A0break", "00A0", 2),
                Arguments.of("line\u2028sep", "2028", 4),
                Arguments.of("half\uD800", "D800", 4),
                Arguments.of("private\uE000", "E000", 7),
                Arguments.of("tab\tname", "0009", 3));
    }

    @Test
    void nameOfPrintableCharactersInAnyScriptIsAccepted() {
        String name = "café-池-\uD83D\uDE80 (orders, eu-west)";
        try (Pool<Tracked> pool = objects.builder().name(name).build()) {
            assertEquals(name, pool.name());
        }
    }

    @Test
    void nameLongerThanTheLimitIsRejected() {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        String longName = "x".repeat(PoolBuilder.MAX_NAME_LENGTH + 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.name(longName));
        assertMessageNames(e, String.valueOf(PoolBuilder.MAX_NAME_LENGTH + 1), "at most");
        assertStillBuilds(b, 9, "kept");
        assertDoesNotThrow(() -> b.name("x".repeat(PoolBuilder.MAX_NAME_LENGTH)));
    }

    /** {@code ChronoUnit.FOREVER.getDuration()} once meant "after about a second" for maxIdleTime. */
    @Test
    void durationsTooLongToCountAreKeptAsTheLongestOneOnEverySetting() {
        Duration forever = java.time.temporal.ChronoUnit.FOREVER.getDuration();
        Duration huge = Duration.ofSeconds(Long.MAX_VALUE);
        for (Duration d : new Duration[] {forever, huge, PoolBuilder.LONGEST}) {
            PoolBuilder<Tracked> b = objects.builder().agingInterval(d).maxTotal(2)
                    .acquireTimeout(d).maxIdleTime(d).maxLifetime(d);
            assertEquals(PoolBuilder.LONGEST, b.agingInterval, "agingInterval(" + d + ")");
            assertEquals(PoolBuilder.LONGEST, b.acquireTimeout, "acquireTimeout(" + d + ")");
            assertEquals(PoolBuilder.LONGEST, b.maxIdleTime, "maxIdleTime(" + d + ")");
            assertEquals(PoolBuilder.LONGEST, b.maxLifetime, "maxLifetime(" + d + ")");
        }
    }

    @Test
    void negativeAgingIntervalIsRejectedNamingTheValue() {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.agingInterval(Duration.ofNanos(-1)));
        assertMessageNames(e, "agingInterval", "negative", "PT-0.000000001S");
        assertStillBuilds(b, 9, "kept");
    }

    @Test
    void zeroAgingIntervalIsAccepted() {
        assertDoesNotThrow(() -> objects.builder().agingInterval(Duration.ZERO).build().close());
    }

    @ParameterizedTest(name = "stripes({0})")
    @ValueSource(ints = {0, -1, 3, 6, 128, Integer.MIN_VALUE})
    void stripeCountThatIsNotAPowerOfTwoUpToTheLimitIsRejected(int stripes) {
        PoolBuilder<Tracked> b = objects.builder().maxIdle(9).name("kept");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.stripes(stripes));
        assertMessageNames(e, "stripes", "power of two", "got " + stripes);
        assertStillBuilds(b, 9, "kept");
    }

    // ------------------------------------------------------------------ factory

    @Test
    void factoryThatThrowsBecomesObjectCreationExceptionWithTheCauseAndNothingIsCounted() {
        IllegalStateException failure = new IllegalStateException("no connection for the test");
        AtomicInteger calls = new AtomicInteger();
        Supplier<Tracked> flaky = () -> {
            if (calls.incrementAndGet() == 1) {
                throw failure;
            }
            return objects.create();
        };
        try (Pool<Tracked> pool = Pool.builder(flaky).name("flaky").build()) {
            ObjectCreationException e = assertThrows(ObjectCreationException.class, pool::acquire);
            assertSame(failure, e.getCause());
            assertMessageNames(e, "'flaky'", "factory threw", "no connection for the test");
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.created(), s::toString);
            assertEquals(0, s.acquired(), s::toString);

            Tracked x = assertDoesNotThrow(() -> pool.acquire(), "the next acquire calls the factory again");
            pool.release(x);
            assertSame(x, pool.acquire());
            pool.release(x);
            s = assertBalanced(pool);
            assertEquals(1, s.created(), s::toString);
        }
    }

    @Test
    void factoryThatThrowsFromLeaseBecomesObjectCreationException() {
        RuntimeException failure = new RuntimeException("factory failure for the test");
        try (Pool<Object> pool = Pool.builder(() -> {
            throw failure;
        }).name("failing").build()) {
            ObjectCreationException e = assertThrows(ObjectCreationException.class, pool::lease);
            assertSame(failure, e.getCause());
            assertMessageNames(e, "'failing'", "factory threw");
            assertBalanced(pool);
        }
    }

    @Test
    void factoryThatReturnsNullBecomesObjectCreationException() {
        try (Pool<Object> pool = Pool.builder(() -> null).name("null-factory").build()) {
            ObjectCreationException e = assertThrows(ObjectCreationException.class, pool::acquire);
            assertNull(e.getCause());
            assertMessageNames(e, "'null-factory'", "factory returned null");
            PoolStats s = assertBalanced(pool);
            assertEquals(0, s.created(), s::toString);
        }
    }

    // ------------------------------------------------------------------ release, lease

    @Test
    void releaseOfNullIsRejectedAndCountsNothing() {
        try (Pool<Tracked> pool = objects.builder().name("nulls").build()) {
            pool.release(pool.acquire());
            NullPointerException e = assertThrows(NullPointerException.class, () -> pool.release(null));
            assertMessageNames(e, "release(null)", "'nulls'");
            PoolStats s = assertBalanced(pool);
            assertEquals(1, s.released(), s::toString);
        }
    }

    @Test
    void leaseClosedTwiceThrowsAndDoesNotReleaseAgain() {
        try (Pool<Tracked> pool = objects.builder().name("leases").build()) {
            Lease<Tracked> lease = pool.lease();
            lease.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, lease::close);
            assertMessageNames(e, "'leases'", "closed twice");
            PoolStats s = assertBalanced(pool);
            assertEquals(1, s.released(), s::toString);
            assertEquals(1, s.idle(), s::toString);
        }
    }

    @Test
    void leaseGetAfterCloseThrows() {
        try (Pool<Tracked> pool = objects.builder().name("leases").build()) {
            Lease<Tracked> lease = pool.lease();
            lease.close();
            IllegalStateException e = assertThrows(IllegalStateException.class, lease::get);
            assertMessageNames(e, "'leases'", "after close()");
            assertTrue(lease.toString().contains("closed"), lease::toString);
            assertBalanced(pool);
        }
    }

    // ------------------------------------------------------------------ after close

    @Test
    void acquireAfterCloseThrowsPoolClosedException() {
        Pool<Tracked> pool = objects.builder().name("closed-acquire").build();
        pool.release(pool.acquire());
        pool.close();
        PoolClosedException e = assertThrows(PoolClosedException.class, pool::acquire);
        assertMessageNames(e, "'closed-acquire'", "is closed");
        PoolStats s = assertBalanced(pool);
        assertTrue(s.isClosed());
        assertEquals(1, s.acquired(), s::toString);
    }

    @Test
    void leaseAfterCloseThrowsPoolClosedException() {
        Pool<Tracked> pool = objects.builder().name("closed-lease").build();
        pool.close();
        PoolClosedException e = assertThrows(PoolClosedException.class, pool::lease);
        assertMessageNames(e, "'closed-lease'", "is closed");
        assertInstanceOf(IllegalStateException.class, e);
        assertBalanced(pool);
    }

    @Test
    void releaseAfterCloseResetsAndDestroysTheObjectAndCountsIt() {
        Pool<Tracked> pool = objects.builder().name("closed-release").build();
        Tracked a = pool.acquire();
        Tracked b = pool.acquire(); // after close, one goes by the private slot, one by the stripes
        a.payload = "left over";
        pool.close();
        assertDoesNotThrow(() -> pool.release(a));
        assertDoesNotThrow(() -> pool.release(b));
        assertEquals(1, a.resets.get());
        assertNull(a.payload);
        assertEquals(1, a.destroys.get());
        assertEquals(1, b.destroys.get());
        PoolStats s = assertBalanced(pool);
        assertEquals(2, s.dropped(), s::toString);
        assertEquals(2, s.released(), s::toString);
        assertEquals(0, s.idle(), s::toString);
    }

    @Test
    void leaseClosedAfterPoolCloseDestroysItsObject() {
        Pool<Tracked> pool = objects.builder().name("closed-lease-release").build();
        Lease<Tracked> lease = pool.lease();
        Tracked x = lease.get();
        pool.close();
        assertSame(x, lease.get(), "the lease still holds its object until it is closed");
        lease.close();
        assertEquals(1, x.destroys.get());
        assertBalanced(pool);
    }

    @Test
    void closeTwiceIsANoOp() {
        Pool<Tracked> pool = objects.builder().name("twice").build();
        Tracked a = pool.acquire();
        Tracked b = pool.acquire();
        pool.release(a);
        pool.release(b);
        pool.close();
        String first = pool.stats().toString();
        assertDoesNotThrow(pool::close);
        assertEquals(first, pool.stats().toString());
        assertEquals(1, a.destroys.get());
        assertEquals(1, b.destroys.get());
        assertTrue(pool.isClosed());
        assertEquals("twice", pool.name());
        PoolStats s = assertBalanced(pool);
        assertEquals(2, s.dropped(), s::toString);
    }
}
