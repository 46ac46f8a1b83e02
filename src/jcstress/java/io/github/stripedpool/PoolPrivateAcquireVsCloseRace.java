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
 * A thread releases an object to its private slot and acquires again, while another thread
 * closes the pool. Acquire checks the closed flag only on its slow path, relying on close
 * emptying every private slot; this test holds it to that. Result: r1 = what the second acquire
 * got (0 = PoolClosedException, 1 = its own parked object, 2 = a new object); r2 = times the
 * object was destroyed.
 */
@JCStressTest
@Description("UnboundedPool: release then acquire on a private slot races close; no hand-out of a destroyed object")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the acquire took its parked object back before close")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE,
        desc = "close (or the releaser, seeing it) destroyed the object; the acquire threw PoolClosedException")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN, desc = "handed out and destroyed: a use after destroy")
@Outcome(id = "2, 1", expect = Expect.FORBIDDEN, desc = "a new object was made by a closed pool")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, or destroyed twice")
@State
public class PoolPrivateAcquireVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.pool();
    private final Item item = pool.acquire();

    @Actor
    public void releaseThenAcquire(II_Result r) {
        pool.release(item);
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
