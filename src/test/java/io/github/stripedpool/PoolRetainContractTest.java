package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolHookFailureContractTest.Failure;
import io.github.stripedpool.PoolMode.EveryMode;
import io.github.stripedpool.PoolMode.Item;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link PoolBuilder#retainIf}: on every kind of pool, a released object the predicate refuses is
 * destroyed and counted, one it keeps is pooled, and a predicate that throws costs only its
 * object.
 */
@Timeout(60)
class PoolRetainContractTest {

    @EveryMode
    void retainIf_refused_destroysTheObjectAndCountsIt(PoolMode mode) throws Exception {
        mode.run(() -> {
            Set<Item> grown = PoolContractTest.identitySet();
            try (Pool<Item> pool = mode.builder().retainIf(x -> !grown.contains(x)).build()) {
                Item big = pool.acquire();
                Item small = pool.acquire();
                grown.add(big);
                pool.release(big);
                pool.release(small);
                if (mode.destroy) {
                    assertTrue(big.destroyed, "the refused object must be destroyed");
                    assertEquals(1, mode.destroys.get());
                }
                if (mode.reset) {
                    assertEquals(2, mode.resets.get(), "the reset runs before the predicate, on both");
                }
                List<Item> next = new ArrayList<>();
                for (int i = 0; i < 4; i++) {
                    Item x = pool.acquire();
                    assertNotSame(big, x, "a refused object was pooled");
                    next.add(x);
                }
                assertTrue(next.stream().anyMatch(x -> x == small), "the kept object was not reused");
                next.forEach(pool::release);
                PoolStats s = pool.stats();
                assertEquals(1, s.notRetained(), s.toString());
                assertEquals(0, s.invalidated(), s.toString());
                assertEquals(0, s.hookFailures(), s.toString());
                PoolContractTest.assertBalanced(s);
            }
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.github.stripedpool.PoolHookFailureContractTest#cases")
    void retainIf_thatThrows_destroysTheObjectAndPassesOnOnlyAVmError(PoolMode mode, Failure f)
            throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            AtomicInteger destroyed = new AtomicInteger();
            try (QuietPoolLog quiet = new QuietPoolLog();
                 Pool<Item> pool = mode.builder().destroy(x -> destroyed.incrementAndGet()).retainIf(x -> {
                     if (calls.incrementAndGet() <= 3) {
                         f.raise();
                     }
                     return true;
                 }).build()) {
                for (int i = 0; i < 3; i++) {
                    Item x = pool.acquire();
                    Throwable thrown = PoolHookFailureContractTest.catchThrowable(() -> pool.release(x));
                    if (f == Failure.RUNTIME_EXCEPTION) {
                        assertNull(thrown, "a failing retain predicate reached the caller");
                    } else {
                        assertInstanceOf(VirtualMachineError.class, thrown,
                                "a VM error must reach the caller");
                    }
                }
                assertEquals(3, destroyed.get(), "an object whose predicate threw must be destroyed");
                PoolStats s = pool.stats();
                assertEquals(3, s.hookFailures(), s.toString());
                assertEquals(3, s.notRetained(), s.toString());
                PoolContractTest.assertBalanced(s);
                PoolHookFailureContractTest.assertWholeCapacity(mode, pool);
            }
        });
    }

    /** The reset hook's failure is not the predicate's: the predicate is not asked, not counted. */
    @EveryMode
    void retainIf_isNotAskedWhenTheResetFailed(PoolMode mode) throws Exception {
        mode.run(() -> {
            AtomicInteger asked = new AtomicInteger();
            try (QuietPoolLog quiet = new QuietPoolLog();
                 Pool<Item> pool = mode.builder().reset(x -> {
                     throw new IllegalStateException("thrown on purpose by a reset hook");
                 }).retainIf(x -> asked.incrementAndGet() > 0).build()) {
                pool.release(pool.acquire());
                PoolStats s = pool.stats();
                assertEquals(0, asked.get());
                assertEquals(0, s.notRetained(), s.toString());
                assertEquals(1, s.hookFailures(), s.toString());
            }
        });
    }

    /** The example of the builder's Javadoc: a builder that grew for one large job is let go. */
    @ParameterizedTest(name = "bounded={0}")
    @MethodSource("bothModes")
    void retainIf_dropsABuilderThatGrewAndKeepsOneThatDidNot(boolean bounded) {
        PoolBuilder<StringBuilder> b = Pool.builder(() -> new StringBuilder(1024))
                .reset(sb -> sb.setLength(0))
                .retainIf(sb -> sb.capacity() <= 64 * 1024);
        if (bounded) {
            b.maxTotal(1);
        }
        try (Pool<StringBuilder> builders = b.build()) {
            StringBuilder sb = builders.acquire();
            sb.append("x".repeat(100_000));
            builders.release(sb);
            StringBuilder next = builders.acquire();
            assertNotSame(sb, next, "the grown builder was pooled");
            assertTrue(next.capacity() <= 64 * 1024);
            next.append("small");
            builders.release(next);
            assertSame(next, builders.acquire(), "a builder within the bound must be pooled");
            assertEquals(1, builders.stats().notRetained());
        }
    }

    static List<Boolean> bothModes() {
        return List.of(false, true);
    }

    @Test
    void retainIf_null_isRejectedWithAMessage() {
        NullPointerException e = assertThrows(NullPointerException.class,
                () -> Pool.builder(Item::new).retainIf(null));
        assertTrue(e.getMessage().contains("retainIf"), e.getMessage());
    }
}
