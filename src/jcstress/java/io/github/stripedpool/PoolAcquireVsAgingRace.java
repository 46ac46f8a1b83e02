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
 * One idle object on the stripe; an acquire races two aging cycles, after which the object is old
 * enough to drop. Result: r1 = what the acquire got (1 = the idle object, 2 = a new one); r2 =
 * times the idle object was destroyed. The collector's own clock may add cycles: that only
 * makes the object older, and the same outcomes hold.
 */
@JCStressTest
@Description("UnboundedPool: acquire races aging; the idle object is reused or dropped, not both")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "acquire reused the object (young or victim) before aging dropped it")
@Outcome(id = "2, 1", expect = Expect.ACCEPTABLE, desc = "aging dropped the object first; acquire made a new one")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "reused and destroyed: a use after destroy")
@Outcome(id = "2, 0", expect = Expect.FORBIDDEN, desc = "acquire missed an object that aging did not drop")
@Outcome(expect = Expect.FORBIDDEN, desc = "destroyed twice")
@State
public class PoolAcquireVsAgingRace {
    private final UnboundedPool<Item> pool = RaceFixtures.withoutPrivateSlots(RaceFixtures.agingPool());
    private final Item item;

    public PoolAcquireVsAgingRace() {
        item = pool.acquire();
        pool.release(item);
    }

    @Actor
    public void acquire(II_Result r) {
        r.r1 = pool.acquire() == item ? 1 : 2;
    }

    @Actor
    public void aging() {
        pool.onGarbageCollection(System.nanoTime());
        pool.onGarbageCollection(System.nanoTime());
    }

    @Arbiter
    public void check(II_Result r) {
        r.r2 = item.destroyed.get();
    }
}
