package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A pool without a destroy hook: the owner releases to its private slot and acquires again
 * (plain accesses) while aging runs two cycles, the second of which forgets an object idle
 * through the first. Result: r1 = 1 if the acquire got its own object back, 2 if a new one;
 * r2 = idle objects at the end. The object may be both reused and forgotten (aging only forgets);
 * it must never be in the slot and in use at once, and nothing may be left behind but what the
 * owner did not take.
 */
@JCStressTest
@Description("UnboundedPool, no destroy hook: private acquire races aging's forget; reused or forgotten, never handed out twice")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the acquire got its object back (aging may have forgotten it too)")
@Outcome(id = "2, 0", expect = Expect.ACCEPTABLE, desc = "aging forgot the object first; the acquire made a new one")
@Outcome(expect = Expect.FORBIDDEN, desc = "an object left idle while in use, or a lost acquire")
@State
public class PoolPlainAcquireVsAgingRace {
    private final UnboundedPool<Item> pool = RaceFixtures.plainAgingPool();
    private final Item item = pool.acquire();

    @Actor
    public void releaseThenAcquire(II_Result r) {
        pool.release(item);
        r.r1 = pool.acquire() == item ? 1 : 2;
    }

    @Actor
    public void aging() {
        pool.onGarbageCollection(System.nanoTime());
        pool.onGarbageCollection(System.nanoTime());
    }

    @Arbiter
    public void check(II_Result r) {
        r.r2 = pool.stats().idle();
    }
}
