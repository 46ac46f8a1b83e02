package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Which misuse each kind of pool catches, as {@link Pool#release(Object)}'s Javadoc states it:
 * both halves, the misuse caught and the misuse let through, so that the documentation cannot
 * promise more than the code does, nor less.
 *
 * <table>
 *   <caption>expected outcome per misuse</caption>
 *   <tr><th>misuse</th><th>unbounded, disabled</th><th>unbounded, sampled 1/1</th><th>paranoid</th><th>bounded</th></tr>
 *   <tr><td>released twice in a row, one thread</td><td>ISE</td><td>ISE</td><td>ISE</td><td>ISE</td></tr>
 *   <tr><td>released on A, then again on B</td><td>not caught</td><td>ISE</td><td>ISE</td><td>ISE</td></tr>
 *   <tr><td>an object from {@code new}</td><td>not caught</td><td>not caught</td><td>IAE</td><td>IAE</td></tr>
 *   <tr><td>an object of another pool</td><td>not caught</td><td>not caught</td><td>IAE</td><td>IAE</td></tr>
 * </table>
 */
@Timeout(60)
class MisuseByModeTest {

    enum Misuse { TWICE_ON_ONE_THREAD, TWICE_ON_TWO_THREADS, FROM_NEW, FROM_ANOTHER_POOL }

    enum Kind {
        UNBOUNDED_DISABLED(false, LeakDetection.DISABLED),
        UNBOUNDED_SAMPLED_EVERY(false, LeakDetection.SAMPLED),
        UNBOUNDED_PARANOID(false, LeakDetection.PARANOID),
        BOUNDED_DISABLED(true, LeakDetection.DISABLED),
        BOUNDED_PARANOID(true, LeakDetection.PARANOID);

        final boolean bounded;
        final LeakDetection leaks;

        Kind(boolean bounded, LeakDetection leaks) {
            this.bounded = bounded;
            this.leaks = leaks;
        }

        Pool<Object> build(String name) {
            PoolBuilder<Object> b = Pool.builder(Object::new).name(name).leakDetection(leaks)
                    .leakSamplingInterval(1);
            if (bounded) {
                b.maxTotal(8);
            }
            return b.build();
        }

        /** What this kind throws on that misuse, or null if it lets it through. */
        Class<? extends RuntimeException> expected(Misuse m) {
            switch (m) {
                case TWICE_ON_ONE_THREAD:
                    return IllegalStateException.class;
                case TWICE_ON_TWO_THREADS:
                    return this == UNBOUNDED_DISABLED ? null : IllegalStateException.class;
                default:
                    return bounded || leaks == LeakDetection.PARANOID ? IllegalArgumentException.class : null;
            }
        }
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (Kind k : Kind.values()) {
            for (Misuse m : Misuse.values()) {
                all.add(Arguments.of(k, m));
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}: {1}")
    @MethodSource("cases")
    void eachKindCatchesWhatTheJavadocSaysAndNoMore(Kind kind, Misuse misuse) {
        try (Pool<Object> pool = kind.build("misuse-" + kind); Pool<Object> another = kind.build("another")) {
            Object x = pool.acquire();
            pool.release(x);
            Runnable second;
            switch (misuse) {
                case TWICE_ON_ONE_THREAD:
                    second = () -> pool.release(x);
                    break;
                case TWICE_ON_TWO_THREADS:
                    second = () -> {
                        try {
                            CompletableFuture.runAsync(() -> pool.release(x)).join();
                        } catch (CompletionException e) {
                            throw (RuntimeException) e.getCause();
                        }
                    };
                    break;
                case FROM_NEW:
                    second = () -> pool.release(new Object());
                    break;
                case FROM_ANOTHER_POOL:
                    second = () -> pool.release(another.acquire());
                    break;
                default:
                    throw new AssertionError(misuse);
            }
            Class<? extends RuntimeException> expected = kind.expected(misuse);
            if (expected != null) {
                assertThrows(expected, second::run, kind + " must catch " + misuse);
            } else {
                assertDoesNotThrow(second::run, kind + " lets " + misuse + " through, as documented");
            }
        }
    }
}
