package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.infra.results.JJ_Result;

/**
 * The accounting of the race of {@link PoolPlainAcquireVsAgingRace}: the owner releases to its
 * private slot and acquires again (plain accesses) while aging runs two cycles, the second of
 * which may forget the object at the instant the owner takes it. Result: r1 = acquired - released
 * (one object is in use at the end, whoever won); r2 = (idle + in use) - (created - dropped), the
 * objects counted dropped although their owner took them: 0, or 1 in that race, never more.
 */
@JCStressTest
@Description("UnboundedPool, no destroy hook: aging's forget racing the owner's plain take keeps acquired and released exact")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "exact counts: the take and the forget did not overlap")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "aging forgot the object its owner took: dropped once too often, in use still exact")
@Outcome(expect = Expect.FORBIDDEN, desc = "an acquisition or release miscounted, or dropped off by more than the race")
@State
public class PoolPlainAcquireVsAgingCountsRace {
    private final UnboundedPool<Item> pool = RaceFixtures.plainAgingPool();
    private final Item item = pool.acquire();

    @Actor
    public void releaseThenAcquire() {
        pool.release(item);
        pool.acquire();
    }

    @Actor
    public void aging() {
        pool.onGarbageCollection(System.nanoTime());
        pool.onGarbageCollection(System.nanoTime());
    }

    @Arbiter
    public void check(JJ_Result r) {
        PoolStats s = pool.stats();
        r.r1 = s.acquired() - s.released();
        r.r2 = s.idle() + s.inUse() - (s.created() - s.dropped());
    }
}
