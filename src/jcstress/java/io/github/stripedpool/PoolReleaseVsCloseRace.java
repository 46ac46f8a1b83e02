package io.github.stripedpool;

import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A release parks its object in the releasing thread's private slot while another thread closes
 * the pool. Result: r1 = times the object was destroyed; r2 = idle objects left in the closed
 * pool. Either close finds the parked object, or the releaser sees the closed flag and takes it
 * back: destroyed exactly once, never left idle.
 */
@JCStressTest
@Description("UnboundedPool: release to a private slot races close; destroyed once, never left idle")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "destroyed once, by close or by the releaser")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "left idle in a closed pool, never destroyed")
@Outcome(id = "2, 0", expect = Expect.FORBIDDEN, desc = "destroyed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, or destroyed and still idle")
@State
public class PoolReleaseVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.pool();
    private final Item item = pool.acquire();

    @Actor
    public void release() {
        pool.release(item);
    }

    @Actor
    public void close() {
        pool.close();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = item.destroyed.get();
        r.r2 = pool.stats().idle();
    }
}
