package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * An object two epochs old: the victim pass of an acquire races the aging cycle that drops it.
 * Result: r1 = 1 if the acquire got it; r2 = objects aging dropped; r3 = objects still idle.
 * An object handed out must not also be destroyed, and one that is dropped must not be handed out.
 */
@JCStressTest
@Description("Stripe: acquire's victim pass races aging's drop of an old object; exactly one gets it")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the acquire reused the victim before aging dropped it")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging dropped it; the acquire found nothing")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "handed out and destroyed: a use after destroy")
@Outcome(expect = Expect.FORBIDDEN, desc = "the object was lost or left behind")
@State
public class StripePopVsAgingRace {
    private final Stripe stripe = new Stripe(4);
    private final Object item = new Object();
    private final AtomicInteger dropped = new AtomicInteger();

    public StripePopVsAgingRace() {
        stripe.push(item, 0);
    }

    @Actor
    public void acquire(III_Result r) {
        r.r1 = stripe.popAny(2) == item ? 1 : 0;
    }

    @Actor
    public void aging(III_Result r) {
        r.r2 = stripe.dropAged(2, x -> dropped.incrementAndGet());
    }

    @Arbiter
    public void idle(III_Result r) {
        r.r3 = stripe.countIdle();
        if (dropped.get() != r.r2) {
            r.r2 = -1; // the drop callback disagrees with the returned count
        }
    }
}
