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
 * One idle young object: the stripe's owner pops it while a thief, whose own home stripe is empty,
 * steals it (a steal is the same young pop, from another thread). Result: r1 = 1 if the owner got
 * it; r2 = 1 if the thief got it; r3 = objects still idle.
 */
@JCStressTest
@Description("Stripe: owner pop races a steal for one object; exactly one gets it")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the owner got it")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the thief got it")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "both got the same object: a double hand-out")
@Outcome(id = "0, 0, 1", expect = Expect.FORBIDDEN, desc = "neither got the only object though nobody took it: a lost pop")
@Outcome(expect = Expect.FORBIDDEN, desc = "the object vanished or was duplicated")
@State
public class StripePopVsStealRace {
    private final Stripe stripe = new Stripe(4);
    private final Object item = new Object();

    public StripePopVsStealRace() {
        stripe.push(item, 0);
    }

    @Actor
    public void owner(III_Result r) {
        r.r1 = stripe.popYoung(0) == item ? 1 : 0;
    }

    @Actor
    public void thief(III_Result r) {
        r.r2 = stripe.popYoung(0) == item ? 1 : 0;
    }

    @Arbiter
    public void idle(III_Result r) {
        r.r3 = stripe.countIdle();
    }
}
