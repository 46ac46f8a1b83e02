package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A lane with two jobs queued and its worker started but not yet running; the worker shows up
 * late, while a clock's {@link Lane#retry()} finds the token too old (the take-over time is 0
 * here), gives it up and starts another worker, which runs on the clock's thread. Workers are
 * started by the test's hand, so every worker the lane starts runs (the arbiter runs those still
 * waiting). Result: r1 = job runs in all; r2 = 1 if two workers ran jobs of the lane at once.
 */
@JCStressTest
@Description("Lane: a late worker's take-over races retry() giving its token up")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "each job ran once, one worker at a time")
@Outcome(expect = Expect.FORBIDDEN, desc = "a job ran twice or never, or two workers drained the lane at once")
@State
public class LaneTakeOverVsRetryRace {
    private final LaneRaceJobs jobs = new LaneRaceJobs();
    private final Lane lane = new Lane(jobs.started::add, 0);
    private final Runnable lateWorker;

    public LaneTakeOverVsRetryRace() {
        lane.submit(jobs.job, "first job");
        lane.submit(jobs.job, "second job");
        lateWorker = jobs.started.poll();
    }

    @Actor
    public void lateWorker() {
        lateWorker.run();
    }

    @Actor
    public void clock() {
        lane.retry();
        jobs.runStarted();
    }

    @Arbiter
    public void check(II_Result r) {
        jobs.runStarted();
        r.r1 = jobs.runs.get();
        r.r2 = jobs.overlap;
    }
}
