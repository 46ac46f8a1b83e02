package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Waits of the bounded pool's wait tests that end on an event, never on a sleep. */
final class Spin {
    private Spin() {
    }

    /**
     * Spins until {@code condition} holds, failing with {@code what} once {@code limit} has passed:
     * the tests that stall and release threads at chosen points look at states that change within
     * microseconds, where a park of the test thread would miss them or slow them down.
     */
    static void until(BooleanSupplier condition, Duration limit, Supplier<String> what) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() - deadline < 0, what);
            Thread.onSpinWait();
        }
    }

    /** Whether {@code t} is parked (or waiting on anything else), as a stalled waiter is. */
    static boolean parked(Thread t) {
        Thread.State s = t.getState();
        return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING;
    }
}
