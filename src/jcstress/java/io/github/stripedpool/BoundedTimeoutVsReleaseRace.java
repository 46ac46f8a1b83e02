package io.github.stripedpool;

import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A waiter's timeout races the release that would serve it. Result: r1 = 1 if the acquire got
 * the object, 0 if it timed out; r2 = idle objects afterwards. The object ends up with the waiter
 * or idle in the pool: never lost with a waiter that gave up, never in both places.
 */
@JCStressTest
@Description("BoundedPool: timeout vs release; the object goes to the waiter or back to the pool")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "served before the timeout (or at it: a served waiter keeps the object)")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "timed out; the release found no waiter and kept the object idle")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "the object was handed to a waiter that had given up: lost")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "the object is both borrowed and idle")
@Outcome(expect = Expect.FORBIDDEN, desc = "something else")
@State
public class BoundedTimeoutVsReleaseRace {
    private final BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new)
            .maxTotal(1).name("race").build();
    private final Object held = pool.acquire();

    @Actor
    public void release() {
        pool.release(held);
    }

    @Actor
    public void acquire(II_Result r) {
        try {
            r.r1 = pool.acquire(Duration.ofNanos(20_000)) == held ? 1 : 2;
        } catch (PoolTimeoutException e) {
            r.r1 = 0;
        }
    }

    @Arbiter
    public void check(II_Result r) {
        r.r2 = pool.stats().idle();
    }
}
