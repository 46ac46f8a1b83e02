package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolMode.EveryEngineAndLeakLevel;
import io.github.stripedpool.PoolMode.Item;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Hooks that throw, with every kind of throwable, on every engine and leak level, called from
 * platform threads and from virtual threads ({@link PoolMode}): the pool stays consistent
 * (nothing lost, no capacity leaked, stats balanced), keeps working, and never hands out an
 * object whose reset failed. A {@link VirtualMachineError} may reach the caller after
 * the pool has put itself in order; anything else thrown by reset or destroy does not.
 */
@Timeout(60)
class PoolHookFailureContractTest {

    /** What a hook throws. */
    enum Failure {
        RUNTIME_EXCEPTION(() -> new IllegalStateException("thrown on purpose by a hook")),
        STACK_OVERFLOW(() -> new StackOverflowError("thrown on purpose by a hook")),
        OUT_OF_MEMORY(() -> new OutOfMemoryError("thrown on purpose by a hook"));

        final Supplier<Throwable> make;

        Failure(Supplier<Throwable> make) {
            this.make = make;
        }

        void raise() {
            Throwable t = make.get();
            if (t instanceof Error) {
                throw (Error) t;
            }
            throw (RuntimeException) t;
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (PoolMode mode : PoolMode.everyEngineAndLeakLevel()) {
            for (Failure f : Failure.values()) {
                all.add(Arguments.of(mode, f));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void reset_thatThrows_destroysTheObjectAndLeavesThePoolWhole(PoolMode mode, Failure f) throws Exception {
        mode.run(() -> {
            AtomicInteger destroyed = new AtomicInteger();
            AtomicInteger failures = new AtomicInteger();
            try (QuietPoolLog quiet = new QuietPoolLog();
                 Pool<Item> pool = mode.builder().reset(x -> {
                     if (failures.getAndIncrement() < 3) {
                         f.raise();
                     }
                 }).destroy(x -> destroyed.incrementAndGet()).build()) {
                for (int i = 0; i < 3; i++) {
                    Item x = pool.acquire();
                    Throwable thrown = catchThrowable(() -> pool.release(x));
                    if (thrown != null) {
                        assertInstanceOf(VirtualMachineError.class, thrown, "release may pass on only a "
                                + "VM error of the reset hook, got " + thrown);
                    }
                }
                assertEquals(3, destroyed.get(), "an object whose reset failed must be destroyed");
                PoolStats s = pool.stats();
                assertEquals(3, s.hookFailures(), s.toString());
                PoolContractTest.assertBalanced(s);
                assertWholeCapacity(mode, pool);
            }
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void destroy_thatThrows_inClose_stillDestroysEveryOtherObjectAndASecondCloseIsQuiet(
            PoolMode mode, Failure f) throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            List<Item> items = new ArrayList<>();
            Pool<Item> pool;
            try (QuietPoolLog quiet = new QuietPoolLog()) {
                pool = mode.builder().destroy(x -> {
                    x.destroyed = true;
                    if (calls.getAndIncrement() == 0) {
                        f.raise();
                    }
                }).build();
                for (int i = 0; i < 10; i++) {
                    items.add(pool.acquire());
                }
                Thread t = mode.thread("other", () -> items.forEach(pool::release));
                t.start();
                t.join();
                Throwable thrown = catchThrowable(pool::close);
                if (thrown != null) {
                    assertInstanceOf(VirtualMachineError.class, thrown,
                            "close may pass on only a VM error of the destroy hook, got " + thrown);
                }
                assertTrue(pool.isClosed());
                long notDestroyed = items.stream().filter(x -> !x.destroyed).count();
                assertEquals(0, notDestroyed, "close stopped after the first destroy failed");
                int after = calls.get();
                pool.close();
                assertEquals(after, calls.get(), "a second close destroyed again");
            }
            PoolStats s = pool.stats();
            assertEquals(s.created(), s.dropped(), s.toString());
            assertEquals(1, s.hookFailures(), s.toString());
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void destroy_thatThrows_onRelease_losesNoCapacity(PoolMode mode, Failure f) throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            try (QuietPoolLog quiet = new QuietPoolLog();
                 Pool<Item> pool = mode.builder().maxIdle(1).reset(x -> {
                     throw new IllegalArgumentException("reset fails so that the object is destroyed");
                 }).destroy(x -> {
                     if (calls.incrementAndGet() <= 4) {
                         f.raise();
                     }
                 }).build()) {
                for (int i = 0; i < 4; i++) {
                    Item x = pool.acquire();
                    Throwable thrown = catchThrowable(() -> pool.release(x));
                    if (thrown != null) {
                        assertInstanceOf(VirtualMachineError.class, thrown, "got " + thrown);
                    }
                }
                assertEquals(4, calls.get());
                PoolContractTest.assertBalanced(pool.stats());
                // From here on destroy succeeds: the objects below are destroyed by their failed reset.
                assertWholeCapacity(mode, pool);
            }
        });
    }

    @EveryEngineAndLeakLevel
    void factory_thatThrows_isWrappedWithItsCauseAndLosesNoCapacity(PoolMode mode) throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            IllegalStateException cause = new IllegalStateException("no connection");
            try (Pool<Item> pool = mode.builder(() -> {
                if (calls.getAndIncrement() < 5) {
                    throw cause;
                }
                return new Item();
            }).build()) {
                for (int i = 0; i < 5; i++) {
                    ObjectCreationException e = assertThrows(ObjectCreationException.class, pool::acquire);
                    assertSame(cause, e.getCause());
                }
                PoolContractTest.assertBalanced(pool.stats());
                assertWholeCapacity(mode, pool);
            }
        });
    }

    /** A factory that opens a connection throws a checked exception; the cause must survive. */
    @EveryEngineAndLeakLevel
    void factory_thatThrowsACheckedException_isWrappedWithItsCause(PoolMode mode) throws Exception {
        mode.run(() -> {
            java.io.IOException cause = new java.io.IOException("connection refused");
            AtomicInteger calls = new AtomicInteger();
            ObjectFactory<Item> opens = () -> {
                if (calls.getAndIncrement() == 0) {
                    throw cause;
                }
                return new Item();
            };
            try (Pool<Item> pool = mode.builder(opens).build()) {
                ObjectCreationException e = assertThrows(ObjectCreationException.class, pool::acquire);
                assertSame(cause, e.getCause());
                assertWholeCapacity(mode, pool);
            }
        });
    }

    /** An Error from the factory is not wrapped, and costs the pool nothing. */
    @EveryEngineAndLeakLevel
    void factory_thatThrowsAnError_passesItOnAsItIsAndLosesNoCapacity(PoolMode mode) throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            try (Pool<Item> pool = mode.builder(() -> {
                if (calls.getAndIncrement() < 3) {
                    throw new StackOverflowError("thrown on purpose by a factory");
                }
                return new Item();
            }).build()) {
                for (int i = 0; i < 3; i++) {
                    assertThrows(StackOverflowError.class, pool::acquire);
                }
                PoolContractTest.assertBalanced(pool.stats());
                assertWholeCapacity(mode, pool);
            }
        });
    }

    @EveryEngineAndLeakLevel
    void factory_thatReturnsNull_isRejectedAndLosesNoCapacity(PoolMode mode) throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            try (Pool<Item> pool = mode.builder(() -> calls.getAndIncrement() < 3 ? null : new Item())
                    .build()) {
                for (int i = 0; i < 3; i++) {
                    assertThrows(ObjectCreationException.class, pool::acquire);
                }
                assertWholeCapacity(mode, pool);
            }
        });
    }

    /** A bounded pool can still hand out its whole cap at once; any pool hands out and takes back. */
    static void assertWholeCapacity(PoolMode mode, Pool<Item> pool) {
        int n = mode.bounded ? PoolMode.MAX_TOTAL : 8;
        List<Item> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            held.add(pool.acquire(Duration.ofSeconds(2)));
        }
        held.forEach(pool::release);
    }

    static Throwable catchThrowable(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
