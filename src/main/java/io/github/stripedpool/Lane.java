package io.github.stripedpool;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One pool's background jobs, run one at a time in submission order on the library's shared
 * workers (see {@link Background}).
 *
 * <p>Concurrency. {@link #owner} says who holds the lane: null while nobody does; a
 * {@link Scheduled} token from the moment {@link #schedule} wins it by compare-and-set until the
 * worker it started takes it over in {@link #drain}; then that worker's thread (or a submitter's
 * that took the lane from null itself, {@link #runHere}), until it finds the queue empty and
 * sets null. After setting null the worker looks at the queue again, so a
 * job submitted between its last poll and the release is not stranded: either the submitter's
 * compare-and-set sees null and starts a worker, or the old worker sees the job and takes the
 * lane back. Every change of owner is a compare-and-set from the value the changer holds, so no
 * two threads hold the lane at once, and no two jobs of a lane run at once.
 *
 * <p>Failure. A job that throws anything is logged and the lane goes on with the next one; a
 * catch block that does any work (a report) sits in a try of its own whose catch is empty,
 * because even a call can fail when the heap is exhausted, and nothing may escape. If no worker
 * thread can be started (an {@link OutOfMemoryError} while creating one), the lane is released
 * and the jobs stay queued; the next submission, or {@link #retry()}, tries again, and a
 * submitter told so may run them itself ({@link #runHere()}, which holds the lane as a worker). A throwable
 * can also leave {@link #drain} past the catch of {@link #run(Job)} (HotSpot throws an
 * {@link OutOfMemoryError} out of a compiled frame without running its handlers when it cannot
 * allocate the frame's objects back; see {@link ClockThread}), and a worker can die before it
 * takes the lane over. So {@link #retry()}, which the clocks call when a job of theirs is still
 * pending at its next due time, releases a lane whose owner is a thread that is no longer alive,
 * or a token that no worker took over within {@link #TAKE_OVER_NANOS}; a worker that shows up
 * after its token was given up finds the lane no longer its own and leaves. The jobs stay
 * queued for the next worker: a lane is never held by nobody for good. The jcstress race
 * {@code LaneTakeOverVsRetryRace} runs a late worker against {@code retry()} giving its token up
 * (two drainers at once, or a job run twice or never, are forbidden).
 */
final class Lane {
    /** How long a started worker may take to take its lane over before it is given up for lost. */
    static final long TAKE_OVER_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final ConcurrentLinkedQueue<Job> jobs = new ConcurrentLinkedQueue<>();
    /** Starts a worker with a drain of this lane: the shared workers, or a race test's hand. */
    private final Executor workers;
    /** {@link #TAKE_OVER_NANOS}, or 0 in a race test, which cannot wait a second per sample. */
    private final long takeOverNanos;
    /** Null, a {@link Scheduled} token, or the thread draining: see the class comment. */
    private final AtomicReference<Object> owner = new AtomicReference<>();

    /** A lane of the library's shared workers. */
    Lane() {
        this(null, TAKE_OVER_NANOS);
    }

    /**
     * A lane whose workers {@code workers} starts (null: the library's shared workers), and
     * whose token is given up for lost after {@code takeOverNanos}: for race tests.
     */
    Lane(Executor workers, long takeOverNanos) {
        this.workers = workers;
        this.takeOverNanos = takeOverNanos;
    }

    /** A job with the words that name it in a failure report. */
    private static final class Job {
        final Runnable body;
        final String what;

        Job(Runnable body, String what) {
            this.body = body;
            this.what = what;
        }
    }

    /** The lane's owner between {@link #schedule} and the worker's take-over. */
    private static final class Scheduled {
        final long since = System.nanoTime();
    }

    /**
     * Queues {@code job}; it runs on a worker after the lane's earlier jobs.
     *
     * @param what names the job in the report if it fails, e.g. {@code "aging of pool 'x'"}
     * @return true if a worker holds the lane or was started for it; false if none could be
     *         started: the job waits queued for the next submission or {@link #retry()}, unless
     *         the caller runs the lane itself ({@link #runHere()})
     * @throws OutOfMemoryError if the job cannot even be queued; the caller decides
     */
    boolean submit(Runnable job, String what) {
        jobs.add(new Job(job, what));
        return schedule();
    }

    /**
     * Runs the lane's queued jobs on the calling thread, if no thread holds the lane: for a
     * caller whose {@link #submit} could start no worker and that must not leave its job
     * waiting. Holds the lane as a worker does, so no two jobs of the lane run at once.
     */
    void runHere() {
        Thread me = Thread.currentThread();
        if (owner.compareAndSet(null, me)) {
            drainAs(me);
        }
    }

    /**
     * Starts a worker if jobs are queued and none runs: after a failure to start one, the jobs
     * wait for this (or for the next submission). Clocks call it when a job they queued is
     * still pending at its next due time; it also releases a lane whose owner was lost (see the
     * class comment).
     */
    void retry() {
        if (jobs.isEmpty()) {
            return;
        }
        Object o = owner.get();
        if (o instanceof Thread ? !((Thread) o).isAlive()
                : o instanceof Scheduled && System.nanoTime() - ((Scheduled) o).since >= takeOverNanos) {
            owner.compareAndSet(o, null);
        }
        schedule();
    }

    /**
     * No job queued and none running: a clock whose job flag says "queued" while this holds has
     * lost its job (it failed between setting the flag and queueing) and submits again.
     */
    boolean idle() {
        return owner.get() == null && jobs.isEmpty();
    }

    /** The lane's state, for a test's failure report. */
    String describe() {
        Object o = owner.get();
        String who = o == null ? "none" : o instanceof Thread ? ((Thread) o).getName()
                + (((Thread) o).isAlive() ? "" : " (dead)") : "scheduled "
                + (System.nanoTime() - ((Scheduled) o).since) / 1_000_000 + " ms ago";
        return "owner " + who + ", " + jobs.size() + " queued";
    }

    /** Starts a worker unless the lane is held; false if one was needed and none could be started. */
    private boolean schedule() {
        if (owner.get() != null) {
            return true;
        }
        Scheduled token;
        try {
            token = new Scheduled();
        } catch (Throwable e) {
            return false; // no memory for the token: the jobs wait for the next submission or retry
        }
        if (!owner.compareAndSet(null, token)) {
            return true;
        }
        try {
            Runnable drain = new Runnable() { // no lambda: see ClockThread
                @Override
                public void run() {
                    drain(token);
                }
            };
            if (workers == null) {
                Background.startWorker(drain);
            } else {
                workers.execute(drain);
            }
            return true;
        } catch (Throwable e) {
            owner.compareAndSet(token, null);
            try {
                Background.logFailure("no thread could be started for background work of the "
                        + "pool; it is retried at the next job", e);
            } catch (Throwable reportFailed) {
                // Nothing left to report with; the jobs stay queued.
            }
            return false;
        }
    }

    private void drain(Scheduled token) {
        Thread me = Thread.currentThread();
        if (!owner.compareAndSet(token, me)) {
            return; // given up for lost meanwhile: another worker has the lane, or will
        }
        drainAs(me);
    }

    /** Runs the queued jobs as the lane's owner {@code me}, until the queue is empty. */
    private void drainAs(Thread me) {
        try {
            for (;;) {
                Job job;
                while ((job = jobs.poll()) != null) {
                    run(job);
                }
                owner.set(null);
                if (jobs.isEmpty() || !owner.compareAndSet(null, me)) {
                    return;
                }
            }
        } catch (Throwable e) {
            owner.compareAndSet(me, null); // the jobs left wait for the next submission or retry
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
