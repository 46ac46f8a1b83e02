package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A lane whose first job could start no worker (its executor failed, as a thread start does
 * when the JVM has no thread to give): the job waits queued and nobody holds the lane. The leak
 * thread, told so by {@link Lane#submit}, runs the lane itself ({@link Lane#runHere}), while
 * another submission, whose worker starts this time, races it. Workers are started by the test's
 * hand (the arbiter runs those still waiting). Result: r1 = job runs in all (-1 if the first
 * start did not fail); r2 = 1 if two threads ran jobs of the lane at once.
 */
@JCStressTest
@Description("Lane: runHere() by a submitter that could start no worker races a submission that starts one")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "each job ran once, one thread at a time")
@Outcome(expect = Expect.FORBIDDEN, desc = "a job ran twice or never, or two threads drained the lane at once")
@State
public class LaneRunHereVsSubmitRace {
    /**
     * The lane logs each failed start; silenced, or every sample would print. Through reflection,
     * as the tests' QuietPoolLog does: the library's module does not read java.logging. Held
     * strongly: java.util.logging keeps configured loggers weakly.
     */
    private static final Object QUIET = quietPoolLog();

    private static Object quietPoolLog() {
        try {
            Class<?> loggerClass = Class.forName("java.util.logging.Logger");
            Class<?> levelClass = Class.forName("java.util.logging.Level");
            Object logger = loggerClass.getMethod("getLogger", String.class).invoke(null, "io.github.stripedpool");
            loggerClass.getMethod("setLevel", levelClass).invoke(logger, levelClass.getField("OFF").get(null));
            return logger;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot configure java.util.logging", e);
        }
    }

    private static final OutOfMemoryError NO_THREAD = new OutOfMemoryError("no thread (the test's)");

    private final LaneRaceJobs jobs = new LaneRaceJobs();
    private final AtomicBoolean failNextStart = new AtomicBoolean(true);
    private final Lane lane = new Lane(drain -> {
        if (failNextStart.getAndSet(false)) {
            throw NO_THREAD;
        }
        jobs.started.add(drain);
    }, 0);
    private final boolean firstStarted;

    public LaneRunHereVsSubmitRace() {
        firstStarted = lane.submit(jobs.job, "first job");
    }

    @Actor
    public void leakThread() {
        if (!firstStarted) {
            lane.runHere();
        }
    }

    @Actor
    public void submitter() {
        lane.submit(jobs.job, "second job");
        jobs.runStarted();
    }

    @Arbiter
    public void check(II_Result r) {
        jobs.runStarted();
        r.r1 = firstStarted ? -1 : jobs.runs.get();
        r.r2 = jobs.overlap;
    }
}
