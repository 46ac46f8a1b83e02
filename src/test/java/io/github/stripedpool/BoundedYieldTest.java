package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The yields of a platform thread before it queues in a bounded pool ({@link BoundedWaiting#yieldFor}),
 * each a pause the test controls in place of {@link Thread#yield}: an object released during a
 * pause is taken without queueing; the yields stop at the timeout, at close and after their time
 * budget; a virtual thread never yields. Every wait is on an event, never a sleep; the limits only
 * fail.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedYieldTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    /** The default threshold: the tests never wait that long. */
    private static final long STARVATION = BoundedWaitQueue.STARVATION_NANOS;

    private static BoundedPool<Object> pool(String name, BoundedWaiting.Pause pause) {
        return BoundedPool.start(Pool.builder(Object::new).maxTotal(1).acquireTimeout(LIMIT).settings(name),
                STARVATION, pause);
    }

    /** A pause that counts, and on its first call runs {@code first} on the pausing thread. */
    private static final class Pauses implements BoundedWaiting.Pause {
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch pausing = new CountDownLatch(1);
        final CountDownLatch resume = new CountDownLatch(1);
        volatile boolean holdFirst;
        volatile long busyNanos;

        @Override
        public void pause() {
            if (calls.incrementAndGet() != 1) {
                return;
            }
            pausing.countDown();
            if (holdFirst) {
                await(resume);
            }
            long until = System.nanoTime() + busyNanos;
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait(); // outlasts the yields' time budget, measured, not slept
            }
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no event within " + LIMIT);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static CompletableFuture<Object> acquireOn(Pool<Object> pool, String name) {
        CompletableFuture<Object> got = new CompletableFuture<>();
        startAcquiring(pool, got, name);
        return got;
    }

    /** Starts a platform thread named {@code name} that acquires from {@code pool} into {@code got}. */
    static Thread startAcquiring(Pool<Object> pool, CompletableFuture<Object> got, String name) {
        Thread t = new Thread(() -> {
            try {
                got.complete(pool.acquire());
            } catch (Throwable e) {
                got.completeExceptionally(e);
            }
        }, name);
        t.start();
        return t;
    }

    private static void awaitQueued(Pool<Object> pool, int waiting) {
        long deadline = System.nanoTime() + LIMIT.toNanos();
        while (pool.stats().waitingNow() != waiting) {
            if (System.nanoTime() - deadline > 0) {
                fail("not " + waiting + " thread(s) queued within " + LIMIT + ": " + pool.stats());
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void anObjectReleasedWhileTheAcquirerYieldsIsTakenWithoutQueueing() throws Exception {
        Pauses pauses = new Pauses();
        pauses.holdFirst = true;
        try (BoundedPool<Object> pool = pool("yield-take", pauses)) {
            Object x = pool.acquire();
            CompletableFuture<Object> got = acquireOn(pool, "acquirer");
            await(pauses.pausing);
            pool.release(x);
            pauses.resume.countDown();
            assertSame(x, got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            PoolStats s = pool.stats();
            assertEquals(0, s.waits(), "found in its yields, it never queued: " + s);
            assertEquals(1, pauses.calls.get(), "one pause, then the look that found it");
            pool.release(x);
        }
    }

    @Test
    void aZeroOrNegativeTimeoutNeverYields() {
        Pauses pauses = new Pauses();
        try (BoundedPool<Object> pool = pool("yield-zero", pauses)) {
            Object x = pool.acquire();
            for (Duration timeout : new Duration[] {Duration.ZERO, Duration.ofNanos(-5), Duration.ofSeconds(-1)}) {
                assertThrows(PoolTimeoutException.class, () -> pool.acquire(timeout));
            }
            assertEquals(0, pauses.calls.get(), "a call that may not wait never yields");
            pool.release(x);
        }
    }

    @Test
    void theYieldsEndAfterTheirTimeBudgetAndTheThreadQueuesTheirTimeCountedAsWaiting() throws Exception {
        Pauses pauses = new Pauses();
        long paused = TimeUnit.MILLISECONDS.toNanos(100); // far beyond the 20 µs budget
        pauses.busyNanos = paused;
        try (BoundedPool<Object> pool = pool("yield-budget", pauses)) {
            Object x = pool.acquire();
            CompletableFuture<Object> got = acquireOn(pool, "acquirer");
            awaitQueued(pool, 1);
            assertEquals(1, pauses.calls.get(), "the first pause outlasted the budget: no second one");
            pool.release(x);
            assertSame(x, got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            PoolStats s = pool.stats();
            assertEquals(1, s.waits(), s::toString);
            assertTrue(s.waitNanosMax() >= paused, "the wait counts from before the yields: " + s);
            pool.release(x);
        }
    }

    /**
     * The Flight Recorder wait event lasts from before a platform thread's yields, as its wait in
     * the statistics does: a yield that gave the processor away for a time slice is time the
     * caller waited. A 100 ms pause in the first yield, then, with a 150 ms timeout, the queue
     * until the timeout (an event begun at the queueing lasted about 50 ms); with a 30 ms
     * timeout, a timeout without queueing, counted as one by the statistics (it had no event).
     */
    @ParameterizedTest
    @ValueSource(ints = {150, 30})
    void theWaitEventCountsTheYields(int timeoutMillis) throws Exception {
        long paused = TimeUnit.MILLISECONDS.toNanos(100);
        RecordedEvent wait = onlyWaitEvent("yield-jfr-" + timeoutMillis, paused, Duration.ofMillis(timeoutMillis));
        assertTrue(wait.getBoolean("timedOut"), wait::toString);
        // At least the pause: the event also misses what making it took (its class's first use).
        assertTrue(wait.getDuration().toNanos() >= paused, "the event counts the yields: " + wait);
    }

    /**
     * Under a recording of every wait event: one thread holds the pool's only object, another
     * asks with {@code timeout} and pauses {@code pausedNanos} in its first yield; returns the
     * one wait event of {@code name}.
     */
    private static RecordedEvent onlyWaitEvent(String name, long pausedNanos, Duration timeout) throws Exception {
        Pauses pauses = new Pauses();
        pauses.busyNanos = pausedNanos;
        Path file = Files.createTempFile(name, ".jfr");
        try (Recording recording = new Recording(); BoundedPool<Object> pool = pool(name, pauses)) {
            recording.enable(AcquireWaitEvent.NAME).withThreshold(Duration.ZERO);
            recording.start();
            Object x = pool.acquire();
            assertThrows(PoolTimeoutException.class, () -> pool.acquire(timeout));
            assertEquals(1, pauses.calls.get(), "one pause, past the yields' budget");
            pool.release(x);
            recording.stop();
            recording.dump(file);
            List<RecordedEvent> waits = RecordingFile.readAllEvents(file).stream()
                    .filter(e -> e.getEventType().getName().equals(AcquireWaitEvent.NAME))
                    .filter(e -> name.equals(e.getString("pool"))).collect(Collectors.toList());
            assertEquals(1, waits.size(), waits::toString);
            return waits.get(0);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    @Test
    void anObjectReleasedAfterACloseIsNotFoundByAThreadThatYields() throws Exception {
        Pauses pauses = new Pauses();
        pauses.holdFirst = true;
        AtomicInteger destroyed = new AtomicInteger();
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1).acquireTimeout(LIMIT)
                .destroy(o -> destroyed.incrementAndGet()).settings("yield-close"), STARVATION, pauses);
        Object x = pool.acquire();
        CompletableFuture<Object> got = acquireOn(pool, "acquirer");
        await(pauses.pausing);
        pool.close();
        pool.release(x); // to a closed pool: destroyed, never made idle for the yielding thread
        pauses.resume.countDown();
        ExecutionException e = assertThrows(ExecutionException.class, () -> got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
        assertTrue(e.getCause() instanceof PoolClosedException, "closed, not " + e.getCause());
        assertEquals(1, destroyed.get(), "the object released after close is destroyed, once");
    }

    /**
     * In starving mode every release hands its object to the oldest waiter, so a yield can find
     * nothing: a platform thread that arrives then queues at once. The first waiter starves the
     * queue (a threshold of 1 ms), the second must not pause at all.
     */
    @Test
    void aThreadThatFindsTheQueueStarvingQueuesWithoutYielding() throws Exception {
        Pauses pauses = new Pauses();
        try (BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(1).acquireTimeout(LIMIT)
                .settings("yield-starving"), TimeUnit.MILLISECONDS.toNanos(1), pauses)) {
            Object x = pool.acquire();
            CompletableFuture<Object> first = acquireOn(pool, "first");
            awaitQueued(pool, 1);
            BoundedPoolTest.awaitTrue(pool::starving, "the first waiter to starve the queue");
            int before = pauses.calls.get();
            CompletableFuture<Object> second = acquireOn(pool, "second");
            awaitQueued(pool, 2);
            assertEquals(before, pauses.calls.get(), "a thread yielded for an object that a starving queue never leaves idle");
            pool.release(x);
            assertSame(x, first.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS), "handed to the oldest waiter");
            pool.release(x);
            assertSame(x, second.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            pool.release(x);
            PoolAssertions.assertBalanced(pool);
        }
    }

    @Test
    void aVirtualThreadQueuesWithoutYielding() throws Exception {
        assumeTrue(VirtualThreads.AVAILABLE, VirtualThreads.NEED_JDK_21);
        Pauses pauses = new Pauses();
        try (BoundedPool<Object> pool = pool("yield-virtual", pauses)) {
            Object x = pool.acquire();
            CompletableFuture<Object> got = new CompletableFuture<>();
            VirtualThreads.start(() -> {
                try {
                    got.complete(pool.acquire());
                } catch (Throwable t) {
                    got.completeExceptionally(t);
                }
            });
            awaitQueued(pool, 1);
            pool.release(x);
            assertSame(x, got.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            assertEquals(0, pauses.calls.get(), "a virtual thread parks at once");
            pool.release(x);
        }
    }
}
