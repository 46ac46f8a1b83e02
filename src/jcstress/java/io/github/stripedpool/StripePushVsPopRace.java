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
 * A push of {@code a} races a pop on a stripe that already holds {@code b}. Result: r1 = 1 if the
 * push placed {@code a}; r2 = what the pop got (1 = a, 2 = b, 0 = nothing); r3 = idle objects
 * left. Nothing may be lost or duplicated: one object is taken, the other stays.
 */
@JCStressTest
@Description("Stripe: push races pop; the pop gets one object and the other stays idle")
@Outcome(id = "1, 1, 1", expect = Expect.ACCEPTABLE, desc = "push first; the pop took the pushed object (LIFO)")
@Outcome(id = "1, 2, 1", expect = Expect.ACCEPTABLE,
        desc = "the pop took the older object: it ran first, or its scan passed the slot before the push")
@Outcome(id = "1, 0, 2", expect = Expect.FORBIDDEN, desc = "the pop missed both objects: lost pop")
@Outcome(expect = Expect.FORBIDDEN, desc = "an object was lost, duplicated, or the push failed with room left")
@State
public class StripePushVsPopRace {
    private final Stripe stripe = new Stripe(4);
    private final Object a = new Object();
    private final Object b = new Object();

    public StripePushVsPopRace() {
        stripe.push(b, 0);
    }

    @Actor
    public void push(III_Result r) {
        r.r1 = stripe.push(a, 0) >= 0 ? 1 : 0;
    }

    @Actor
    public void pop(III_Result r) {
        Object x = stripe.popYoung(0);
        r.r2 = x == a ? 1 : x == b ? 2 : 0;
    }

    @Arbiter
    public void idle(III_Result r) {
        r.r3 = stripe.countIdle();
    }
}
