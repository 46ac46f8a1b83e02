package io.github.stripedpool;

import java.util.function.BooleanSupplier;

/**
 * The one thread of a clock ({@link AgingClock}, {@link LeakReaper}): started on demand by the
 * first registration, ended by the clock itself when it finds nothing left to watch.
 *
 * <p>Concurrency. Both decisions are made under this object's monitor: a registration adds its
 * pool to the clock's queue and then calls {@link #ensureRunning}; the clock thread calls
 * {@link #endIf} with a check that reads the queue. So a pool registered while the thread is
 * ending is either seen by the check (the thread goes on) or finds no thread and starts one.
 * No user code runs under the monitor.
 */
final class ClockThread {
    private final String name;
    private final Runnable body;
    /** Guarded by this; null while no thread runs. */
    private Thread thread;

    ClockThread(String name, Runnable body) {
        this.name = name;
        this.body = body;
    }

    /**
     * Starts the thread if none runs.
     *
     * @throws OutOfMemoryError if no thread could be started; the caller undoes its registration
     */
    synchronized void ensureRunning() {
        if (thread == null) {
            Thread t = Background.newThread(body, name);
            t.start();
            thread = t;
        }
    }

    /** Called by the clock thread: returns true, and forgets the thread, if {@code idle} holds. */
    synchronized boolean endIf(BooleanSupplier idle) {
        if (idle.getAsBoolean()) {
            thread = null;
            return true;
        }
        return false;
    }
}
