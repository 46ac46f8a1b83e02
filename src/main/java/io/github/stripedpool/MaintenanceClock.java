package io.github.stripedpool;

import java.lang.ref.WeakReference;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The one thread ({@value #THREAD_NAME}) that runs the eviction, lifetime and refill work of
 * every bounded pool in the JVM, so that a pool costs no thread of its own.
 *
 * <p>The executor is made at the first use and lives as long as the JVM; its thread is a daemon
 * and is blocked when no pool needs work. Tasks hold their pool through a weak reference: a pool
 * that became unreachable without {@code close()} cancels its own task at its next run. A
 * task's failure is logged and does not stop later runs.
 */
final class MaintenanceClock {
    static final String THREAD_NAME = "striped-pool-maintenance";

    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    private MaintenanceClock() {
    }

    private static final class Holder {
        static final ScheduledThreadPoolExecutor EXECUTOR = newExecutor();
    }

    private static ScheduledThreadPoolExecutor newExecutor() {
        ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, THREAD_NAME);
            t.setDaemon(true);
            return t;
        });
        e.setRemoveOnCancelPolicy(true);
        e.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        return e;
    }

    /** Runs {@link BoundedPool#maintain()} every {@code periodNanos} until cancelled. */
    static ScheduledFuture<?> schedule(BoundedPool<?> pool, long periodNanos) {
        Periodic task = new Periodic(pool);
        ScheduledFuture<?> f = Holder.EXECUTOR.scheduleWithFixedDelay(task, periodNanos,
                periodNanos, TimeUnit.NANOSECONDS);
        task.future = f;
        return f;
    }

    /** Runs {@link BoundedPool#refill()} once, soon. */
    static void refillSoon(BoundedPool<?> pool) {
        WeakReference<BoundedPool<?>> ref = new WeakReference<>(pool);
        Holder.EXECUTOR.execute(() -> {
            BoundedPool<?> p = ref.get();
            if (p != null) {
                run(p, true);
            }
        });
    }

    private static void run(BoundedPool<?> p, boolean refillOnly) {
        try {
            if (refillOnly) {
                p.refillRequested();
            } else {
                p.maintain();
            }
        } catch (Throwable e) {
            LOG.log(System.Logger.Level.ERROR, "maintenance of pool '" + p.name() + "' failed; "
                    + "the pool keeps working and is maintained again at its next run", e);
        }
    }

    private static final class Periodic implements Runnable {
        private final WeakReference<BoundedPool<?>> pool;
        /** Set right after scheduling; a run that sees null cannot have a collected pool yet. */
        volatile ScheduledFuture<?> future;

        Periodic(BoundedPool<?> pool) {
            this.pool = new WeakReference<>(pool);
        }

        @Override
        public void run() {
            BoundedPool<?> p = pool.get();
            if (p == null) {
                ScheduledFuture<?> f = future;
                if (f != null) {
                    f.cancel(false);
                }
                return;
            }
            MaintenanceClock.run(p, false);
        }
    }
}
