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
 * The release fast path of a pool with reset and destroy hooks against close: the releasing
 * thread releases its object once (the slow path lends it a permit), takes it back from its own
 * slot (the inline compare-and-set take) and releases it again (the fast path: reset, then a
 * compare-and-set put followed by the closed check), while another thread closes the pool.
 * Result: r1 = times the object was destroyed; r2 = objects the closed pool still holds, idle
 * or unaccounted for (created − dropped). Destroyed exactly once, nothing left, whichever step
 * close lands on.
 */
@JCStressTest
@Description("UnboundedPool: the fast take and fast release of an exact slot race close; destroyed once")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "destroyed once, by close or by the releaser")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "left in a closed pool, never destroyed")
@Outcome(id = "2, 0", expect = Expect.FORBIDDEN, desc = "destroyed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, or destroyed and still held")
@State
public class PoolFastReleaseVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.pool();
    private final Item item = pool.acquire();

    @Actor
    public void releaseTakeRelease() {
        pool.release(item);
        Item x;
        try {
            x = pool.acquire();
        } catch (PoolClosedException e) {
            return;
        }
        pool.release(x);
    }

    @Actor
    public void close() {
        pool.close();
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = item.destroyed.get();
        PoolStats s = pool.stats();
        r.r2 = (int) (s.idle() + s.created() - s.dropped());
    }
}
