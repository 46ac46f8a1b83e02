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
 * One idle object on the stripe; an acquire races close. Result: r1 = what the acquire got
 * (0 = PoolClosedException, 1 = the idle object, 2 = a new object); r2 = times the idle object
 * was destroyed. An object close destroys must never be handed out, and an object handed out
 * must not be destroyed by close (it comes back through release).
 */
@JCStressTest
@Description("UnboundedPool: acquire races close; the idle object is handed out or destroyed, not both")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "close first: acquire threw PoolClosedException, close destroyed the object")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "acquire took the object before close drained the stripe")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE,
        desc = "acquire passed the open check, close drained the object first, acquire made a new one")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "handed out and destroyed: a use after destroy")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "closed, yet the idle object was never destroyed")
@Outcome(expect = Expect.FORBIDDEN, desc = "the idle object was missed, or destroyed twice")
@State
public class PoolAcquireVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.withoutPrivateSlots(RaceFixtures.pool());
    private final Item item;

    public PoolAcquireVsCloseRace() {
        item = pool.acquire();
        pool.release(item);
    }

    @Actor
    public void acquire(II_Result r) {
        try {
            r.r1 = pool.acquire() == item ? 1 : 2;
        } catch (PoolClosedException e) {
            r.r1 = 0;
        }
    }

    @Actor
    public void close() {
        pool.close();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r2 = item.destroyed.get();
    }
}
