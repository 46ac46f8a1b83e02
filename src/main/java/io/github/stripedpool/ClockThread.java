package io.github.stripedpool;

import java.util.concurrent.locks.LockSupport;
import java.util.Collection;

/**
 * The one thread of a clock ({@link AgingClock}, {@link LeakReaper}, {@link MaintenanceClock}):
 * started on demand by the first registration, ended by the clock itself when it finds nothing
 * left to watch.
 *
 * <p>Concurrency. Both decisions are made under this object's monitor: a registration adds its
 * pool to the clock's queue and then calls {@link #ensureRunning}; the clock thread calls
 * {@link #endIfEmpty} with that queue. So a pool registered while the thread is
 * ending is either seen by the check (the thread goes on) or finds no thread and starts one.
 * No user code runs under the monitor.
 *
 * <p>Failure. The clocks' loops catch everything, yet a throwable can still leave them: when
 * the JIT has compiled a loop with objects it keeps in registers (escape analysis) and a rare
 * path must fall back to the interpreter, those objects are allocated then; with the heap full
 * that allocation fails, and HotSpot throws the {@link OutOfMemoryError} out of the compiled
 * frame without running its handlers. So the thread's own outermost frame, which runs once and
 * stays interpreted, catches what leaves the loop, reports it, pauses and enters the loop again
 * ({@link #runUntilEnded}): the loops keep no state on their stack, and the thread ends only
 * through {@link #endIfEmpty}. Should it end otherwise all the same, the thread forgets itself on the
 * way out, and {@link #ensureRunning} also treats a thread that is no longer alive as none: the
 * next registration, or whoever watches the clock, starts another instead of trusting a dead
 * one.
 *
 * <p>No invokedynamic. The JVM links an invokedynamic call site (a lambda, a method reference,
 * and, unless compiled otherwise, a string concatenation) the first time it runs, and if that
 * linkage fails, as it does when the heap is exhausted at that moment, the site throws the same
 * {@link BootstrapMethodError} at every later run: the path through it is broken for good. A
 * clock that first saw a collection while the heap was full then never aged a pool again. So
 * this package has no invokedynamic at all (its classes use named and anonymous classes, and
 * the build compiles string concatenation to {@code StringBuilder} calls); a class whose
 * loading fails for lack of memory is loaded again at its next use. {@code NoInvokeDynamicTest}
 * checks the compiled classes.
 */
final class ClockThread {
    /**
     * How long a clock's loop pauses after a failure of its own, so that a heap that stays full
     * does not spin it. A compile-time constant: reading it loads no class, which a catch block
     * running out of memory could not afford.
     */
    static final long FAILURE_PAUSE_NANOS = 50_000_000L;

    private final String name;
    private final Runnable body;
    private final String failureMessage;
    /** Guarded by this; null while no thread runs. */
    private Thread thread;

    ClockThread(String name, Runnable body) {
        this.name = name;
        this.body = body;
        this.failureMessage = "the loop of " + name + " failed; it starts again";
    }

    /**
     * Starts the thread if none runs.
     *
     * @throws OutOfMemoryError if no thread could be started; the caller undoes its registration
     */
    synchronized void ensureRunning() {
        if (thread == null || !thread.isAlive()) {
            Body body = new Body();
            Thread t = Background.newThread(body, name);
            body.self = t;
            t.start();
            thread = t;
        }
    }

    /** What the clock's thread runs: the loop, then forgetting itself. */
    private final class Body implements Runnable {
        /** Written before the thread starts. */
        Thread self;

        @Override
        public void run() {
            try {
                runUntilEnded();
            } finally {
                forget(self);
            }
        }
    }

    /**
     * The clock's loop, entered again whenever a throwable leaves it (see the class comment); a
     * loop returns only after {@link #endIfEmpty} said so. The message is made before any failure, so
     * the catch allocates nothing of its own.
     */
    private void runUntilEnded() {
        for (;;) {
            try {
                body.run();
                return;
            } catch (Throwable e) {
                failed(failureMessage, e);
            }
        }
    }

    /** The thread {@code t} is ending: forgotten if it is still the clock's. */
    private synchronized void forget(Thread t) {
        if (thread == t) {
            thread = null;
        }
    }

    /**
     * What a clock's loop does with a failure of its own: reports it, then pauses
     * {@link #FAILURE_PAUSE_NANOS}. Never throws, the report's and the pause's own failures
     * included: it is called from the catch block of a loop that must not end.
     */
    /** The last failure of any clock's loop, for a test's failure report. */
    static volatile Throwable lastFailure;

    static void failed(String what, Throwable failure) {
        lastFailure = failure;
        try {
            Background.logFailure(what, failure);
        } catch (Throwable reportFailed) {
            // Not even the report could be made; the loop goes on.
        }
        try {
            LockSupport.parkNanos(FAILURE_PAUSE_NANOS);
        } catch (Throwable pauseFailed) {
            // Nothing to do but go on.
        }
    }

    /** Unparks the clock's thread, if one runs, so that it looks at its work again now. */
    void wake() {
        Thread t;
        synchronized (this) {
            t = thread;
        }
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * Called by the clock thread: returns true, and forgets the thread, if the clock's
     * {@code registrations} are empty (the caller has removed those of collected pools).
     */
    synchronized boolean endIfEmpty(Collection<?> registrations) {
        if (registrations.isEmpty()) {
            thread = null;
            return true;
        }
        return false;
    }
}
