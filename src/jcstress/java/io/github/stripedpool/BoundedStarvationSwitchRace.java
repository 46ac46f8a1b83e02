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
 * A release racing a waiter that crosses the starvation threshold: with a threshold of 0 the
 * acquire queues and at once switches the queue to starving (direct hand-off) while the release
 * decides between making its object idle and handing it over. Whichever it reads, the waiter
 * must get the object. Result: r1 = 1 if the acquire got the object, 0 if it timed out after a
 * second; r2 = live objects afterwards.
 */
@JCStressTest
@Description("BoundedPool: a release racing the switch to starving mode always reaches the waiter")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "the acquire got the released object")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "lost wake-up across the switch to hand-off")
@Outcome(expect = Expect.FORBIDDEN, desc = "an object was created beyond the cap, or lost")
@State
public class BoundedStarvationSwitchRace {
    private final BoundedPool<Object> pool = BoundedPool.start(
            Pool.builder(Object::new).maxTotal(1).settings("race"), 0L);
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
