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
 * A thread releases two objects while another closes the pool (a destroy hook): the first goes
 * to the releasing thread's private slot, the second to the slot's first spare entry, whose put
 * is a volatile write followed by a read of the closed flag. Result: r1 = times {@code a} was
 * destroyed, r2 = times {@code b} was, r3 = idle objects left in the closed pool. Either close
 * finds each parked object, or the releaser sees the flag and takes it back: each destroyed
 * exactly once, none left idle.
 */
@JCStressTest
@Description("UnboundedPool: releases to a private slot and its spare entry race close; each destroyed once")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "each destroyed once, by close or by the releaser")
@Outcome(id = "1, 0, 1", expect = Expect.FORBIDDEN, desc = "the spare's object left idle in a closed pool")
@Outcome(id = "1, 2, 0", expect = Expect.FORBIDDEN, desc = "the spare's object destroyed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "lost, left idle, or destroyed twice")
@State
public class PoolSpareReleaseVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.pool();
    private final Item a = pool.acquire();
    private final Item b = pool.acquire();

    @Actor
    public void release() {
        pool.release(a);
        pool.release(b);
    }

    @Actor
    public void close() {
        pool.close();
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = a.destroyed.get();
        r.r2 = b.destroyed.get();
        r.r3 = (int) pool.stats().idle();
    }
}
