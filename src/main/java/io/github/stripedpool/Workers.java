package io.github.stripedpool;

import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * The shared, cached worker threads that run the pools' background jobs (see {@link Background}
 * and {@link Lane}): a job goes to an idle worker if there is one, else to a new thread; a
 * worker that stays idle for {@link Background#WORKER_KEEP_ALIVE_SECONDS} ends.
 *
 * <p>Why not a {@code ThreadPoolExecutor}: its worker loop allocates between tasks, and a worker
 * that dies there of an {@link OutOfMemoryError} before it ran the task it was started for loses
 * that task, which would leave a {@link Lane} waiting for a drain that never comes. Here the
 * whole body of a worker is one loop whose every turn sits in a {@code try} with an empty
 * {@code catch}: once a worker thread has started, it runs the job it was given.
 *
 * <p>Concurrency. Each worker has a {@link Worker#state}: {@code IDLE} while it waits in
 * {@link #idle}, {@code ASSIGNED} once a giver has handed it a job, {@code RETIRED} once it gave
 * up waiting. A giver takes a worker out of {@link #idle} (each one by exactly one giver, the
 * deque's poll decides), writes the job, then moves it from {@code IDLE} to {@code ASSIGNED} by
 * compare-and-set, which publishes the job, and unparks it. A worker that times out moves itself
 * from {@code IDLE} to {@code RETIRED} by compare-and-set and ends. One of the two
 * compare-and-sets wins: a job is never given to a worker that has ended (the giver then takes
 * another worker, or starts one), and a worker never ends with a job.
 *
 * <p>Interrupts. The workers belong to no caller: an interrupt sent to one from outside is
 * cleared before each job and each park, so that it neither fails the next job's blocking calls
 * nor turns the idle wait into a spin.
 */
final class Workers {
    private static final int IDLE = 0;
    private static final int ASSIGNED = 1;
    private static final int RETIRED = 2;

    private final ConcurrentLinkedDeque<Worker> idle = new ConcurrentLinkedDeque<>();
    private final AtomicInteger numbers = new AtomicInteger();
    private final String name;
    private final long keepAliveNanos;

    Workers(String name, long keepAliveSeconds) {
        this.name = name;
        this.keepAliveNanos = TimeUnit.SECONDS.toNanos(keepAliveSeconds);
    }

    /**
     * Runs {@code job} on an idle worker, or on a new one.
     *
     * @throws OutOfMemoryError (or another throwable) if a new thread was needed and could not be
     *         made or started; the job did not run and will not
     */
    void execute(Runnable job) {
        for (Worker w; (w = idle.pollFirst()) != null; ) {
            w.job = job;
            if (w.state.compareAndSet(IDLE, ASSIGNED)) {
                LockSupport.unpark(w.thread);
                return;
            }
            w.job = null; // it retired meanwhile: try the next one
        }
        Worker w = new Worker(job);
        w.thread = Background.newThread(w, name + "-" + numbers.incrementAndGet());
        w.thread.start();
    }

    /** The idle workers, for a test's failure report. */
    String describe() {
        StringBuilder b = new StringBuilder(numbers.get() + " started; idle:");
        for (Worker w : idle) {
            b.append(' ').append(w.thread.getName()).append('/').append(w.state.get())
                    .append(w.thread.isAlive() ? "" : " (dead)");
        }
        return b.toString();
    }

    private final class Worker implements Runnable {
        final AtomicInteger state = new AtomicInteger(ASSIGNED);
        /** Written by the giver before the compare-and-set that assigns it, read by this worker. */
        Runnable job;
        Thread thread;

        Worker(Runnable first) {
            this.job = first;
        }

        @Override
        public void run() {
            for (;;) {
                try {
                    if (!turn()) {
                        return;
                    }
                } catch (Throwable e) {
                    // The job's own failures are its business (a Lane reports them); this only
                    // keeps the loop alive, whatever an allocation of the loop itself throws.
                }
            }
        }

        /**
         * Undoes what a job may have left on the thread that the next job, perhaps another
         * application's pool's, would inherit: a context class loader a hook set (which would
         * also keep that application's classes in memory after it is undeployed) and an
         * uncaught-exception handler. The thread was made with neither (see
         * {@link Background#newThread}). What a hook leaves in a {@code ThreadLocal} stays.
         */
        private static void clean(Thread t) {
            try {
                if (t.getContextClassLoader() != null) {
                    t.setContextClassLoader(null);
                }
                if (t.getUncaughtExceptionHandler() != t.getThreadGroup()) {
                    t.setUncaughtExceptionHandler(null);
                }
            } catch (RuntimeException e) {
                // a security manager that forbids it: the thread keeps what the job left
            }
        }

        /** Runs the assigned job, then waits for the next. Returns false once retired. */
        private boolean turn() {
            if (state.get() == ASSIGNED) {
                Runnable j = job;
                job = null;
                try {
                    Thread.interrupted(); // an interrupt from outside is no job's business
                    if (j != null) {
                        j.run();
                    }
                } finally {
                    clean(Thread.currentThread());
                    state.set(IDLE);
                    idle.addFirst(this); // most recently used first: the others can retire
                }
            }
            long deadline = System.nanoTime() + keepAliveNanos;
            while (state.get() == IDLE) {
                Thread.interrupted(); // else a pending interrupt makes every park below return at once
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    if (state.compareAndSet(IDLE, RETIRED)) {
                        idle.remove(this);
                        return false;
                    }
                    break; // assigned at the last moment
                }
                LockSupport.parkNanos(this, left);
            }
            return true;
        }
    }
}
