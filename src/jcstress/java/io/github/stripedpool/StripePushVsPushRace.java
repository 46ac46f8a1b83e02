package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * Two releases push into a stripe with one free slot. Result: r1, r2 = 1 if that push placed its
 * object; r3 = which object holds the slot (1 or 2); r4 = 1 if the slot's stamp is its holder's
 * own stamp (pusher 1 stamps 1, pusher 2 stamps 2). Exactly one push wins and the other is told
 * the stripe is full, so its caller keeps the object. The stamp of the loser may be left on the
 * winner's object: the race the {@link Stripe} comment tolerates (an object ages a cycle late).
 */
@JCStressTest
@Description("Stripe: two pushes race for the last free slot; exactly one wins")
@Outcome(id = "1, 0, 1, 1", expect = Expect.ACCEPTABLE, desc = "pusher 1 won, its stamp kept")
@Outcome(id = "0, 1, 2, 1", expect = Expect.ACCEPTABLE, desc = "pusher 2 won, its stamp kept")
@Outcome(id = "1, 0, 1, 0", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "pusher 1 won with the loser's stamp: tolerated, the object ages at most a cycle late")
@Outcome(id = "0, 1, 2, 0", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "pusher 2 won with the loser's stamp: tolerated, the object ages at most a cycle late")
@Outcome(expect = Expect.FORBIDDEN, desc = "both or neither push succeeded, or the slot holds the loser's object")
@State
public class StripePushVsPushRace {
    private final Stripe stripe = new Stripe(1);
    private final Object one = new Object();
    private final Object two = new Object();

    @Actor
    public void pusher1(IIII_Result r) {
        r.r1 = stripe.push(one, 1) >= 0 ? 1 : 0;
    }

    @Actor
    public void pusher2(IIII_Result r) {
        r.r2 = stripe.push(two, 2) >= 0 ? 1 : 0;
    }

    @Arbiter
    public void slot(IIII_Result r) {
        int k = Stripe.PAD;
        Object x = stripe.items[k];
        r.r3 = x == one ? 1 : x == two ? 2 : 0;
        r.r4 = stripe.stamps[k] == r.r3 ? 1 : 0;
    }
}
