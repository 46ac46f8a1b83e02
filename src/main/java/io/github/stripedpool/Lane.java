package io.github.stripedpool;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One pool's background jobs, run one at a time in submission order on the library's shared
 * workers (see {@link Background}).
 *
 * <p>Concurrency. {@link #draining} is true while a worker owns the lane: set by the
 * compare-and-set in {@link #schedule}, cleared by that worker when it finds the queue empty.
 * After clearing it the worker looks at the queue again, so a job submitted between its last
 * poll and the clear is not stranded: either the submitter's compare-and-set sees false and
 * starts a worker, or the old worker sees the job and takes the lane back. Hence every submitted
 * job runs, and no two jobs of a lane run at once.
 *
 * <p>Failure. A job that throws anything is logged and the lane goes on with the next one; a
 * catch block that does any work (a report) sits in a try of its own whose catch is empty,
 * because even a call can fail when the heap is exhausted, and nothing may escape. If no
 * worker thread can be started (an {@link OutOfMemoryError} while creating one), the lane is
 * released and the jobs stay queued; the next submission, or {@link #retry()}, tries again.
 */
final class Lane {
    private final ConcurrentLinkedQueue<Job> jobs = new ConcurrentLinkedQueue<>();
    private final AtomicBoolean draining = new AtomicBoolean();

    /** A job with the words that name it in a failure report. */
    private static final class Job {
        final Runnable body;
        final String what;

        Job(Runnable body, String what) {
            this.body = body;
            this.what = what;
        }
    }

    /**
     * Queues {@code job}; it runs on a worker after the lane's earlier jobs.
     *
     * @param what names the job in the report if it fails, e.g. {@code "aging of pool 'x'"}
     * @throws OutOfMemoryError if the job cannot even be queued; the caller decides
     */
    void submit(Runnable job, String what) {
        jobs.add(new Job(job, what));
        schedule();
    }

    /**
     * Starts a worker if jobs are queued and none runs: after a failure to start one, the jobs
     * wait for this (or for the next submission). Clocks call it when a job they queued is
     * still pending at its next due time.
     */
    void retry() {
        if (!jobs.isEmpty()) {
            schedule();
        }
    }

    private void schedule() {
        if (!draining.compareAndSet(false, true)) {
            return;
        }
        try {
            Background.startWorker(this::drain);
        } catch (Throwable e) {
            draining.set(false);
            try {
                Background.logFailure("no thread could be started for background work of the "
                        + "pool; it is retried at the next job", e);
            } catch (Throwable reportFailed) {
                // Nothing left to report with; the jobs stay queued.
            }
        }
    }

    private void drain() {
        for (;;) {
            Job job;
            while ((job = jobs.poll()) != null) {
                run(job);
            }
            draining.set(false);
            if (jobs.isEmpty() || !draining.compareAndSet(false, true)) {
                return;
            }
        }
    }

    private static void run(Job job) {
        try {
            Thread.interrupted(); // one job's interrupt (or an outsider's) is not the next job's
            job.body.run();
        } catch (Throwable e) {
            try {
                Background.logFailure(job.what + " failed; the pool keeps working and the job "
                        + "runs again when it is next due", e);
            } catch (Throwable reportFailed) {
                // Not even the report could be made (no memory to link or build it): go on.
            }
        }
    }
}
