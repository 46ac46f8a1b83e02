package io.github.stripedpool;

import java.lang.ref.WeakReference;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The timer of every bounded pool's eviction, lifetime and refill work: one thread
 * ({@value #THREAD_NAME}) for the whole JVM, so that a pool costs no thread of its own.
 *
 * <p>The timer thread runs no user code: when a pool's run is due it submits the run to the
 * pool's {@link Lane}, where it may call the factory, validate and destroy hooks. A pool whose
 * hook blocks therefore delays only its own maintenance. A run that is still queued or running
 * when the next one is due is not queued twice ({@link Periodic#pending}).
 *
 * <p>Lifetime. The executor is made at the first use; its one thread is started when a task is
 * scheduled and ends {@link #IDLE_SECONDS} after the last task was cancelled (every pool closed
 * or collected). Tasks hold their pool through a weak reference: a pool that became unreachable
 * without {@code close()} cancels its own task at its next run. The timer's task body catches
 * every throwable, because a periodic task that throws is never run again.
 */
final class MaintenanceClock {
    static final String THREAD_NAME = Background.THREAD_PREFIX + "maintenance";

    /** How long the timer thread waits with no task scheduled before it ends. */
    static final long IDLE_SECONDS = 5;

    private MaintenanceClock() {
    }

    private static final class Holder {
        static final ScheduledThreadPoolExecutor TIMER = newTimer();
    }

    private static ScheduledThreadPoolExecutor newTimer() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1,
                r -> Background.newThread(r, THREAD_NAME));
        e.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
        e.allowCoreThreadTimeOut(true);
        e.setRemoveOnCancelPolicy(true);
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return e;
    }

    /** Runs {@link BoundedPool#maintain()} on the pool's lane every {@code periodNanos} until cancelled. */
    static ScheduledFuture<?> schedule(BoundedPool<?> pool, long periodNanos) {
        Periodic task = new Periodic(pool);
        ScheduledFuture<?> f = Holder.TIMER.scheduleWithFixedDelay(task, periodNanos,
                periodNanos, TimeUnit.NANOSECONDS);
        task.future = f;
        return f;
    }

    /** Runs {@link BoundedPool#refillRequested()} once, soon, on the pool's lane. */
    static void refillSoon(BoundedPool<?> pool) {
        try {
            Background.lane(pool).submit(pool::refillRequested, "refill of pool '" + pool.name() + "'");
        } catch (Throwable e) {
            try {
                Background.logFailure("refill of pool '" + pool.name() + "' could not be queued; "
                        + "it is retried at the pool's next maintenance run", e);
            } catch (Throwable reportFailed) {
                // The caller is an acquire or release: never fail it for a background refill.
            }
        }
    }

    private static final class Periodic implements Runnable {
        private final WeakReference<BoundedPool<?>> pool;
        /** Set while a run of this task is queued on, or running in, the pool's lane. */
        final AtomicBoolean pending = new AtomicBoolean();
        /** Set right after scheduling; a run that sees null cannot have a collected pool yet. */
        volatile ScheduledFuture<?> future;

        Periodic(BoundedPool<?> pool) {
            this.pool = new WeakReference<>(pool);
        }

        @Override
        public void run() {
            try {
                BoundedPool<?> p = pool.get();
                if (p == null) {
                    ScheduledFuture<?> f = future;
                    if (f != null) {
                        f.cancel(false);
                    }
                } else if (pending.compareAndSet(false, true)) {
                    submit(p);
                } else {
                    Background.lane(p).retry(); // still queued: a worker may have failed to start
                }
            } catch (Throwable e) {
                try {
                    Background.logFailure("the maintenance timer failed; it keeps running", e);
                } catch (Throwable reportFailed) {
                    // Not even the report could be made; a periodic task must never throw.
                }
            }
        }

        private void submit(BoundedPool<?> p) {
            try {
                Background.lane(p).submit(() -> {
                    try {
                        p.maintain();
                    } finally {
                        pending.set(false);
                    }
                }, "maintenance of pool '" + p.name() + "'");
            } catch (Throwable e) {
                pending.set(false); // not queued: due again at the next period
                throw e;
            }
        }
    }
}
