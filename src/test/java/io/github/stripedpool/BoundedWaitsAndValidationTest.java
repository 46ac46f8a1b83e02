package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.pauseForPolling;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The bounded mode's promises about waits and validation: the oldest waiter keeps its turn when
 * the object it is served fails validation, no validation starts past the deadline, a wait that
 * times out during the yields counts as a wait, and the timeout's message names it as given.
 */
@Timeout(60)
class BoundedWaitsAndValidationTest {

    static final class Conn {
        final int id;

        Conn(int id) {
            this.id = id;
        }

        @Override
        public String toString() {
            return "Conn#" + id;
        }
    }

    private static void await(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("gave up waiting for " + what);
            }
            pauseForPolling();
        }
    }

    private static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * docs/bounded.md, Timeout: the message names the timeout. One below a millisecond was
     * reported as "within 0 ms", 1.9 ms as "within 1 ms".
     */
    @Test
    void timeoutMessageOfSubMillisecondTimeoutSaysZeroMs() throws Exception {
        try (Pool<Conn> pool = Pool.builder(() -> new Conn(1)).maxTotal(1).name("sub-ms").build()) {
            Conn held = pool.acquire();
            PoolTimeoutException e = assertThrows(PoolTimeoutException.class,
                    () -> pool.acquire(Duration.ofNanos(500_000)));
            PoolTimeoutException e2 = assertThrows(PoolTimeoutException.class,
                    () -> pool.acquire(Duration.ofNanos(1_900_000)));
            pool.release(held);
            assertTrue(e.getMessage().contains("within 500 µs;"),
                    "a 500 µs timeout is described as: " + e.getMessage());
            assertTrue(e2.getMessage().contains("within 1.9 ms;"),
                    "a 1.9 ms timeout is described as: " + e2.getMessage());
            assertEquals("2000 ms", BoundedWaiting.describe(2_000_000_000L));
            assertEquals("1 ns", BoundedWaiting.describe(1));
            assertEquals("15 µs", BoundedWaiting.describe(15_000));
            assertEquals("1.235 ms", BoundedWaiting.describe(1_234_567));
        }
    }

    /**
     * Pool Javadoc and docs/bounded.md: waiters queue oldest first. The oldest waiter W1 is
     * served the released object, which fails validation: W1 makes a new object with the
     * refused one's capacity and is served first. The capacity used to go back to the pool, to
     * the younger W2 as a permit to create, and W1 queued again behind W2's whole hold, its wait
     * counted twice.
     */
    @Test
    void oldestWaiterWhoseHandedObjectFailsValidationIsOvertakenByYoungerWaiter() throws Exception {
        AtomicInteger ids = new AtomicInteger();
        List<String> order = new CopyOnWriteArrayList<>();
        CountDownLatch w2MayRelease = new CountDownLatch(1);
        try (QuietPoolLog quiet = new QuietPoolLog();
             Pool<Conn> pool = Pool.builder(() -> new Conn(ids.incrementAndGet()))
                     .maxTotal(1)
                     .validate(c -> c.id != 1) // the first connection went stale while in the pool
                     .name("fifo-validate").build()) {
            Conn first = pool.acquire(); // new: not validated
            Thread w1 = new Thread(() -> {
                Conn c = pool.acquire(Duration.ofSeconds(20));
                order.add("W1");
                pool.release(c);
            }, "W1");
            w1.start();
            await("W1 queued", () -> pool.stats().waitingNow() == 1);
            Thread w2 = new Thread(() -> {
                Conn c = pool.acquire(Duration.ofSeconds(20));
                order.add("W2");
                try {
                    w2MayRelease.await(20, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                pool.release(c);
            }, "W2");
            w2.start();
            await("W2 queued", () -> pool.stats().waitingNow() == 2);
            pool.release(first);
            await("someone served", () -> !order.isEmpty());
            String firstServed = order.get(0);
            int waitingNow = pool.stats().waitingNow();
            w2MayRelease.countDown();
            w1.join(20_000);
            w2.join(20_000);
            PoolStats s = pool.stats();
            assertEquals("W1", firstServed, "the younger waiter W2 was served first; W1 still "
                    + "waiting: " + waitingNow + "; order " + order + "; " + s);
            assertEquals(2, s.waits(), "two acquisitions waited, counted: " + s.waits());
        } finally {
            w2MayRelease.countDown();
        }
    }

    /**
     * docs/bounded.md, Timeout and Validation: an acquisition validates at most one object and
     * replaces a refused one with one factory call, so no validation starts past the deadline.
     * A second validation used to start after it (the hint's refusal was followed by an idle
     * stack's object, with no deadline check), then a factory call: the call overran by two
     * validations and a factory call.
     */
    @Test
    void validationStartsAfterTheDeadlineAndOverrunIsMoreThanOneHookCall() throws Exception {
        AtomicInteger ids = new AtomicInteger();
        List<Long> validationStarts = new CopyOnWriteArrayList<>();
        AtomicReference<Long> deadline = new AtomicReference<>(Long.MAX_VALUE);
        try (Pool<Conn> pool = Pool.builder(() -> {
                    int id = ids.incrementAndGet();
                    if (id > 2) {
                        sleep(300); // a connect
                    }
                    return new Conn(id);
                })
                .maxTotal(4)
                .validate(c -> {
                    validationStarts.add(System.nanoTime());
                    sleep(300); // isValid(timeout) against a dead server
                    return false;
                })
                .name("overrun").build()) {
            Conn a = pool.acquire();
            Conn b = pool.acquire();
            pool.release(a);
            pool.release(b);
            long start = System.nanoTime();
            deadline.set(start + TimeUnit.MILLISECONDS.toNanos(100));
            Conn c = pool.acquire(Duration.ofMillis(100));
            long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            pool.release(c);
            long late = validationStarts.stream().filter(t -> t - deadline.get() > 0).count();
            assertEquals(1, validationStarts.size(), "validations: " + validationStarts.size());
            assertEquals(0, late, validationStarts.size() + " validations, " + late
                    + " of them started after the deadline; acquire(100 ms) took " + tookMs
                    + " ms with 300 ms hooks");
        }
    }

    /**
     * PoolStats.waits(): acquisitions that waited, the yields before queueing included. Short
     * timeouts on a platform thread that time out during the yields were counted as timeouts
     * but neither as waits nor in the wait time. A zero timeout never waits and counts no wait.
     */
    @Test
    void shortTimeoutsThatExpireDuringTheYieldsAreNotCountedAsWaits() throws Exception {
        try (Pool<Conn> pool = Pool.builder(() -> new Conn(1)).maxTotal(1).name("short").build()) {
            Conn held = pool.acquire();
            for (int i = 0; i < 100; i++) {
                assertThrows(PoolTimeoutException.class, () -> pool.acquire(Duration.ofNanos(15_000)));
            }
            pool.release(held);
            PoolStats s = pool.stats();
            assertEquals(100, s.timeouts());
            assertTrue(s.waits() >= s.timeouts() && s.waitNanosTotal() > 0,
                    "100 acquisitions waited ~15 µs each and timed out, stats: " + s
                            + ", waitNanosTotal " + s.waitNanosTotal());
            Conn again = pool.acquire();
            long waits = pool.stats().waits();
            assertThrows(PoolTimeoutException.class, () -> pool.acquire(Duration.ZERO));
            assertEquals(waits, pool.stats().waits(), "a zero timeout does not wait");
            assertEquals(101, pool.stats().timeouts());
            pool.release(again);
        }
    }
}
