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
 * One idle object, three takers: the stripe's owner popping young objects, a thief stealing
 * (the same young pop, from another thread's home stripe) and the victim pass that takes
 * objects of any age. Result: r1..r3 = 1 if that taker got the object; r4 = objects still idle.
 */
@JCStressTest
@Description("Stripe: owner pop, steal and victim pass race for one object; exactly one gets it")
@Outcome(id = "1, 0, 0, 0", expect = Expect.ACCEPTABLE, desc = "the owner's pop got it")
@Outcome(id = "0, 1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the thief got it")
@Outcome(id = "0, 0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the victim pass got it")
@Outcome(id = "0, 0, 0, 1", expect = Expect.FORBIDDEN,
        desc = "nobody got the only object although nobody else took it: a lost pop")
@Outcome(expect = Expect.FORBIDDEN, desc = "two takers got the same object, or it vanished")
@State
public class StripeTakersRace {
    private final Stripe stripe = new Stripe(4);
    private final Object item = new Object();

    public StripeTakersRace() {
        stripe.push(item, 0);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = stripe.popYoung(0) == item ? 1 : 0;
    }

    @Actor
    public void thief(IIII_Result r) {
        r.r2 = stripe.popYoung(0) == item ? 1 : 0;
    }

    @Actor
    public void victimPass(IIII_Result r) {
        r.r3 = stripe.popAny(0) == item ? 1 : 0;
    }

    @Arbiter
    public void idle(IIII_Result r) {
        r.r4 = stripe.countIdle();
    }
}
