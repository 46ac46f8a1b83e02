package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A pool without a destroy hook: the release puts its object in the private slot with a plain
 * store (no fence) while another thread closes the pool. The put may land after close looked;
 * then stats() of the closed pool (or the owner's next call, or a second close) forgets it.
 * Result: r1 = idle objects stats() reports after both; r2 = objects counted dropped; r3 = 1 if
 * an acquire on the closed pool threw PoolClosedException.
 */
@JCStressTest
@Description("UnboundedPool, no destroy hook: plain release to a private slot races close; nothing idle, dropped once, closed")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "close or stats() forgot the object, counted once; acquire refused")
@Outcome(id = "1, 0, 1", expect = Expect.FORBIDDEN, desc = "left idle in a closed pool")
@Outcome(id = "0, 2, 1", expect = Expect.FORBIDDEN, desc = "counted dropped twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, or an acquire succeeded on a closed pool")
@State
public class PoolPlainReleaseVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.plainPool();
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
    public void check(III_Result r) {
        PoolStats s = pool.stats();
        r.r1 = s.idle();
        r.r2 = (int) s.dropped();
        try {
            pool.acquire();
            r.r3 = 0;
        } catch (PoolClosedException e) {
            r.r3 = 1;
        }
    }
}
