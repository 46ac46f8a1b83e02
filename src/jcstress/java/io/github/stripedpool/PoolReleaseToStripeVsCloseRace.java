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
 * As {@link PoolReleaseVsCloseRace}, on the stripe path: the pool has no private-slot permits, so
 * the release pushes to the stripe and, seeing the pool closed, takes its object back from the
 * slot it pushed to. Result: r1 = times destroyed; r2 = idle objects left.
 */
@JCStressTest
@Description("UnboundedPool: release to a stripe races close; destroyed once, never left idle")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "destroyed once, by close's drain or by the releaser's take-back")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "left idle in a closed pool, never destroyed")
@Outcome(id = "2, 0", expect = Expect.FORBIDDEN, desc = "destroyed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, or destroyed and still idle")
@State
public class PoolReleaseToStripeVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.withoutPrivateSlots(RaceFixtures.pool());
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
