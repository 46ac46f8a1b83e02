package io.github.stripedpool;

import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * The holder of a lease wrote a secret into its object; it closes the lease while another thread
 * acquires. The pool has no private slots, so the object goes to the stripe where the other
 * thread can take it. Result: r1 = 0 if the acquire got a new object, 1 if it got the leased
 * object reset, 2 if it got the leased object with the secret still in it.
 */
@JCStressTest
@Description("Lease: closing a lease hands its object to another thread only after the reset")
@Outcome(id = "0", expect = Expect.ACCEPTABLE, desc = "the acquire ran first, or missed the object: a new object")
@Outcome(id = "1", expect = Expect.ACCEPTABLE, desc = "the acquire reused the leased object, reset")
@Outcome(id = "2", expect = Expect.FORBIDDEN, desc = "the next borrower saw the previous holder's secret")
@Outcome(expect = Expect.FORBIDDEN, desc = "unexpected")
@State
public class LeaseHandoffRace {
    private final UnboundedPool<Item> pool = RaceFixtures.withoutPrivateSlots(RaceFixtures.pool());
    private final Lease<Item> lease = pool.lease();
    private final Item leased = lease.get();

    public LeaseHandoffRace() {
        leased.secret = RaceFixtures.SECRET;
    }

    @Actor
    public void holder() {
        lease.close();
    }

    @Actor
    public void borrower(I_Result r) {
        Item x = pool.acquire();
        r.r1 = x != leased ? 0 : x.secret == RaceFixtures.SECRET ? 2 : 1;
    }
}
