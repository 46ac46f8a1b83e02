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
 * The lost wake-up of a bounded pool: its one object is in use; its release races an acquire that
 * finds nothing idle and queues. Result: r1 = 1 if the acquire got the object, 0 if it timed out
 * after a second (a waiter asleep next to an idle object); r2 = live objects afterwards.
 */
@JCStressTest
@Description("BoundedPool: a release racing a queueing acquire always reaches it")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "the acquire got the released object, directly or by hand-off")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "lost wake-up: the waiter slept while the object was idle")
@Outcome(expect = Expect.FORBIDDEN, desc = "an object was created beyond the cap, or lost")
@State
public class BoundedReleaseVsWaiterRace {
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
            r.r1 = pool.acquire(Duration.ofSeconds(1)) == held ? 1 : 2;
        } catch (PoolTimeoutException e) {
            r.r1 = 0;
        }
    }

    @Arbiter
    public void check(II_Result r) {
        r.r2 = pool.live();
    }
}
