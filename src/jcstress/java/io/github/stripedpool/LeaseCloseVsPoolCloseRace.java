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
 * A lease is closed (open -> closed, releasing its object) while another thread closes the pool.
 * Result: r1 = times the leased object was destroyed; r2 = idle objects left; r3 = 1 if the lease
 * is in its closed state afterwards (get() throws IllegalStateException).
 */
@JCStressTest
@Description("Lease: close races pool close; the lease ends closed and its object is destroyed once")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "lease closed, object destroyed once, nothing idle")
@Outcome(id = "0, 1, 1", expect = Expect.FORBIDDEN, desc = "the leased object was left idle in a closed pool")
@Outcome(id = "2, 0, 1", expect = Expect.FORBIDDEN, desc = "the leased object was destroyed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "the lease is not closed, or the object was lost")
@State
public class LeaseCloseVsPoolCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.pool();
    private final Lease<Item> lease = pool.lease();
    private final Item item = lease.get();

    @Actor
    public void closeLease() {
        lease.close();
    }

    @Actor
    public void closePool() {
        pool.close();
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = item.destroyed.get();
        r.r2 = pool.stats().idle();
        try {
            lease.get();
            r.r3 = 0;
        } catch (IllegalStateException e) {
            r.r3 = 1;
        }
    }
}
