package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * The timer of every bounded pool's eviction, lifetime and refill work: one thread
 * ({@value #THREAD_NAME}) for the whole JVM, so that a pool costs no thread of its own.
 *
 * <p>The timer thread runs no user code: when a pool's run is due it submits the run to the
 * pool's {@link Lane}, where it may call the factory, validate and destroy hooks. A pool whose
 * hook blocks therefore delays only its own maintenance. A run that is still queued or running
 * when the next one is due is not queued twice ({@link Periodic#pending}). A run is due a period
 * after the clock fired the last one; a run that starts its pool's new idle-time epoch then
 * moves its successor to a period after that start ({@link Periodic#ranAt}). So a run that
 * waited on its lane (behind a slow refill, say) pushes the next one back rather than be
 * followed by it a moment later, which would count two epochs in little more than one period
 * (see {@link BoundedMaintenance}).
 *
 * <p>Why a loop of the library's own rather than a {@code ScheduledThreadPoolExecutor}: the
 * executor's worker allocates between tasks (a node of its queue's condition on every wait),
 * outside any code of ours. An {@link OutOfMemoryError} there once killed its only thread, the
 * error's own report failed in the thread's uncaught-exception handler, and the executor could
 * not start another thread while the heap was full: no bounded pool of the JVM evicted,
 * refilled or reclaimed anything again until a new pool was built. Here every turn of the loop,
 * its allocations included, sits in a {@code try} whose {@code catch} reports (itself in a
 * {@code try} with an empty {@code catch}) and then pauses {@link ClockThread#FAILURE_PAUSE_NANOS}, an
 * allocation-free park, so that a heap that stays full costs a report every pause rather than a
 * spinning thread. An interrupt from outside is cleared at every turn: the thread belongs to no
 * caller that could mean to stop it, and a pending interrupt would cut every park short.
 *
 * <p>Concurrency. {@link #TASKS} is a lock-free queue; {@link #schedule} adds, the clock thread
 * alone reads it, fires what is due and removes what was cancelled or whose pool was collected.
 * {@link Periodic#due} is volatile and has two writers: the clock thread, which moves it a period
 * past now by a CAS from the value it found due, and the pool's run, which moves it a period past
 * its epoch's start ({@link Periodic#ranAt}). A run that moved it between the clock's read and
 * its CAS fails the CAS, and the clock does not fire then but parks until the new due time; so
 * the clock never puts back an earlier due time over a run's, and it re-reads {@code due} at
 * every turn. A run's own write may be earlier than the clock's (when the clock fired while
 * that run was already under way); it is still a period after that run's epoch. What races
 * remain (a firing just as a run ends) can only queue a run early, and such a run starts no
 * epoch ({@link BoundedMaintenance#run}), so due times bound how late runs are, never how early
 * an object is evicted. A new task may be due before the clock's
 * current park ends, so {@code schedule} wakes it ({@link ClockThread#wake}). The thread is
 * started by the first task and ends once it has had none for {@link #IDLE_SECONDS}; the
 * decision to end and a registration are ordered by {@link ClockThread}'s monitor, so no task
 * is scheduled on a thread that has just decided to end. If the thread ever ended otherwise,
 * {@link ClockThread} forgets it, and the next schedule, or the aging clock after the next
 * collection ({@link #watch}), starts another.
 *
 * <p>Lifetime. Tasks hold their pool's {@link BoundedMaintenance} through a weak reference, and
 * only the pool holds it strongly: a pool that became unreachable without {@code close()} is
 * forgotten at its next due time.
 */
final class MaintenanceClock {
    static final String THREAD_NAME = Background.THREAD_PREFIX + "maintenance";

    /** How long the timer thread waits with no task scheduled before it ends. */
    static final long IDLE_SECONDS = 5;

    /** The longest park of the loop: it looks at its tasks at least this often. */
    private static final long MAX_PARK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final ConcurrentLinkedQueue<Periodic> TASKS = new ConcurrentLinkedQueue<>();
    private static final ClockThread THREAD = new ClockThread(THREAD_NAME, new Runnable() {
        @Override
        public void run() {
            MaintenanceClock.run(); // no method reference: see ClockThread
        }
    });

    private MaintenanceClock() {
    }

    /**
     * Runs {@link BoundedMaintenance#run()} on the pool's lane every {@code periodNanos} until
     * {@link Periodic#cancel cancelled}; starts the timer thread if none runs.
     *
     * @throws OutOfMemoryError if no thread could be started; the task is then not scheduled
     */
    static Periodic schedule(BoundedMaintenance maintenance, long periodNanos) {
        Periodic task = new Periodic(maintenance, periodNanos, System.nanoTime() + periodNanos);
        TASKS.add(task);
        AgingClock.watchMaintenance = true;
        try {
            THREAD.ensureRunning();
        } catch (Throwable e) {
            TASKS.remove(task);
            throw e;
        }
        THREAD.wake();
        return task;
    }

    /**
     * Starts the timer thread again if tasks are scheduled and none runs. Called by the aging
     * clock after each collection, so that even a thread lost where no catch of ours reaches is
     * replaced without waiting for a new pool.
     */
    static void watch() {
        if (!TASKS.isEmpty()) {
            THREAD.ensureRunning();
        }
    }

    /** Runs {@link BoundedMaintenance#refillRequested()} once, soon, on the pool's lane. */
    static void refillSoon(BoundedMaintenance maintenance) {
        try {
            Background.lane(maintenance).submit(new Runnable() { // no method reference: see ClockThread
                @Override
                public void run() {
                    maintenance.refillRequested();
                }
            }, "refill of pool '" + maintenance.name() + "'");
        } catch (Throwable e) {
            try {
                Background.logFailure("refill of pool '" + maintenance.name() + "' could not be queued; "
                        + "it is retried at the pool's next maintenance run", e);
            } catch (Throwable reportFailed) {
                // The caller is an acquire or release: never fail it for a background refill.
            }
        }
    }

    private static void run() {
        long idleSince = System.nanoTime();
        for (;;) {
            try {
                Thread.interrupted(); // see the class comment
                long now = System.nanoTime();
                long park = MAX_PARK_NANOS;
                for (Periodic t : TASKS) {
                    if (t.cancelled || t.pool.get() == null) {
                        TASKS.remove(t);
                        continue;
                    }
                    long due = t.due;
                    long left = due - now;
                    if (left <= 0) {
                        // First: a failing fire waits a period. A failed CAS: a run has just set
                        // a later due time (class comment).
                        if (t.moveDue(due, now + t.periodNanos)) {
                            left = t.periodNanos;
                            t.fire();
                        } else {
                            left = Math.max(0L, t.due - now);
                        }
                    }
                    park = Math.min(park, left);
                }
                if (!TASKS.isEmpty()) {
                    idleSince = now;
                } else if (now - idleSince >= TimeUnit.SECONDS.toNanos(IDLE_SECONDS)
                        && THREAD.endIfEmpty(TASKS)) {
                    return;
                }
                LockSupport.parkNanos(THREAD, park);
            } catch (Throwable e) {
                ClockThread.failed("the maintenance clock failed; it keeps running", e);
            }
        }
    }

    /** One pool's periodic maintenance: the handle its pool cancels at close. */
    static final class Periodic {
        private static final VarHandle DUE;

        static {
            try {
                DUE = MethodHandles.lookup().findVarHandle(Periodic.class, "due", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** The pool's maintenance, whose lane the runs go to; held weakly (class comment). */
        final WeakReference<BoundedMaintenance> pool;
        final long periodNanos;
        /**
         * When the next run is due ({@code System.nanoTime()}): written by the clock thread
         * ({@link #moveDue}) and by the pool's runs ({@link #ranAt}), see the class comment.
         */
        volatile long due;
        /** Set while a run of this task is queued on, or running in, the pool's lane. */
        final AtomicBoolean pending = new AtomicBoolean();
        volatile boolean cancelled;

        Periodic(BoundedMaintenance pool, long periodNanos, long due) {
            this.pool = new WeakReference<>(pool);
            this.periodNanos = periodNanos;
            this.due = due;
        }

        /** The clock thread's move of {@link #due} from {@code from}, the value it found due. */
        boolean moveDue(long from, long to) {
            return DUE.compareAndSet(this, from, to);
        }

        /**
         * Called by a run of the pool, on its lane, as it starts a new idle-time epoch at
         * {@code nanos}: the next run is due a period later, however late this one started.
         */
        void ranAt(long nanos) {
            due = nanos + periodNanos;
        }

        /** No run after this one: the clock forgets the task at its next turn. */
        void cancel() {
            cancelled = true;
        }

        /** Queues a run on the pool's lane, unless one is still queued or running. */
        void fire() {
            BoundedMaintenance p = pool.get();
            if (p == null) {
                return;
            }
            if (!pending.compareAndSet(false, true)) {
                Lane lane = Background.lane(p);
                if (!lane.idle() || !pending.get()) {
                    lane.retry(); // still queued: a worker may have failed to start
                    return;
                }
                // Flagged but neither queued nor running: lost before it was queued (see
                // AgingClock.ageAll); queue it again below.
            }
            try {
                Background.lane(p).submit(new Runnable() { // no lambda: see ClockThread
                    @Override
                    public void run() {
                        try {
                            p.run();
                        } finally {
                            pending.set(false);
                        }
                    }
                }, "maintenance of pool '" + p.name() + "'");
            } catch (Throwable e) {
                pending.set(false); // not queued: due again at the next period
                throw e;
            }
        }
    }
}
