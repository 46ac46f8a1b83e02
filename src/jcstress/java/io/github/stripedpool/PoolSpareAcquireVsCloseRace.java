package io.github.stripedpool;

import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A thread parks two objects in its private slot and the slot's first spare entry (a pool with
 * a destroy hook), then acquires twice, taking each back by compare-and-set, while another
 * thread closes the pool and destroys what it takes. Result: r1 = for {@code a}, times destroyed
 * plus 1 if the thread got it back; r2 = the same for {@code b}; r3 = objects the thread got back
 * that were destroyed. Each object is either the thread's again or destroyed, exactly once, and
 * never both.
 */
@JCStressTest
@Description("UnboundedPool: acquires from a private slot and its spare entry race close; never handed out and destroyed")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "each object handed back or destroyed, once")
@Outcome(id = "1, 2, 1", expect = Expect.FORBIDDEN, desc = "b handed back and destroyed: a use after destroy")
@Outcome(id = "2, 1, 1", expect = Expect.FORBIDDEN, desc = "a handed back and destroyed: a use after destroy")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, destroyed twice, or handed back and destroyed")
@State
public class PoolSpareAcquireVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.pool();
    private final Item a = pool.acquire();
    private final Item b = pool.acquire();
    private Item first;
    private Item second;

    @Actor
    public void releaseThenAcquire() {
        pool.release(a); // the slot's own entry
        pool.release(b); // the first spare entry
        try {
            first = pool.acquire();
            second = pool.acquire();
        } catch (PoolClosedException closed) {
            // what was not taken back is close's to destroy
        }
    }

    @Actor
    public void close() {
        pool.close();
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = a.destroyed.get() + (first == a || second == a ? 1 : 0);
        r.r2 = b.destroyed.get() + (first == b || second == b ? 1 : 0);
        r.r3 = (first != null && first.destroyed.get() > 0 ? 1 : 0)
                + (second != null && second.destroyed.get() > 0 ? 1 : 0);
    }
}
