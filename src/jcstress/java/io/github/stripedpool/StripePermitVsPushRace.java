package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * maxIdle by construction: a private slot borrows a unit of a stripe's capacity (a permit) while
 * a release pushes into the same stripe, which has room for one more. Exactly one may win, so
 * that stripe objects plus lent permits never exceed the stripe's capacity. Result: r1 = 1 if
 * the permit was lent; r2 = 1 if the push succeeded; r3 = idle objects in the stripe.
 */
@JCStressTest
@Description("Stripe: lending a permit races a push for the last unit of capacity; exactly one wins")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "the permit won; the push found the stripe full")
@Outcome(id = "0, 1, 2", expect = Expect.ACCEPTABLE, desc = "the push won; no room left to lend")
@Outcome(expect = Expect.FORBIDDEN, desc = "both won (idle objects could exceed maxIdle), or neither")
@State
public class StripePermitVsPushRace {
    private final Stripe stripe = new Stripe(2);

    public StripePermitVsPushRace() {
        stripe.push(new Object(), 0);
    }

    @Actor
    public void permit(III_Result r) {
        r.r1 = stripe.lendPermit() ? 1 : 0;
    }

    @Actor
    public void push(III_Result r) {
        r.r2 = stripe.push(new Object(), 0) >= 0 ? 1 : 0;
    }

    @Arbiter
    public void idle(III_Result r) {
        r.r3 = stripe.countIdle();
    }
}
