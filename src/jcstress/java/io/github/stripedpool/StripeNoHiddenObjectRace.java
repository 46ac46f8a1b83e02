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
 * The stripes' black hole (objects hidden by a racy hint): on a two-slot stripe, one thread pops and pushes back while
 * another pushes, so that the hint moves under both. Afterwards every idle object must be found
 * by pops, and no push may have found the stripe full while it had room. Result: r1, r2 = 1 if
 * each push placed its object; r3 = objects the arbiter's pops found; r4 = 1 if the stripe is
 * empty after them (its count back to zero).
 */
@JCStressTest
@Description("Stripe: pop+push races push; every idle object is found afterwards, no push fails with room")
@Outcome(id = "1, 1, 2, 1", expect = Expect.ACCEPTABLE, desc = "both objects idle and both found")
@Outcome(expect = Expect.FORBIDDEN, desc = "a push failed with room, an idle object was hidden, or the count is off")
@State
public class StripeNoHiddenObjectRace {
    private final Stripe stripe = new Stripe(2);
    private final Object a = new Object();
    private final Object b = new Object();

    public StripeNoHiddenObjectRace() {
        stripe.push(a, 0);
    }

    @Actor
    public void popAndPushBack(IIII_Result r) {
        Object x = stripe.popYoung(0);
        r.r1 = x == null || stripe.push(x, 0) >= 0 ? 1 : 0;
    }

    @Actor
    public void push(IIII_Result r) {
        r.r2 = stripe.push(b, 0) >= 0 ? 1 : 0;
    }

    @Arbiter
    public void findAll(IIII_Result r) {
        int found = 0;
        while (stripe.popAny(0) != null) {
            found++;
        }
        r.r3 = found;
        r.r4 = stripe.looksEmpty() && stripe.countIdle() == 0 ? 1 : 0;
    }
}
