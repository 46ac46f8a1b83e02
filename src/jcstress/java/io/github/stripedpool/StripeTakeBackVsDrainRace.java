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
 * The stripe half of release-vs-close: a release that pushed its object and then saw the pool
 * closed takes it back from its slot, while close drains the stripe. Result: r1 = 1 if the take
 * back succeeded; r2 = objects the drain took; r3 = objects still idle. Exactly one of them
 * destroys the object.
 */
@JCStressTest
@Description("Stripe: a release's takeBack races close's drain; exactly one takes the object")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the releaser took it back; it destroys it")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the drain took it; close destroys it")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "both took it: destroyed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "nobody took it: left idle in a closed pool")
@State
public class StripeTakeBackVsDrainRace {
    private final Stripe stripe = new Stripe(4);
    private final Object item = new Object();
    private final AtomicInteger drained = new AtomicInteger();
    private final int slot;

    public StripeTakeBackVsDrainRace() {
        slot = stripe.push(item, 0);
    }

    @Actor
    public void release(III_Result r) {
        r.r1 = stripe.takeBack(slot, item) ? 1 : 0;
    }

    @Actor
    public void close(III_Result r) {
        r.r2 = stripe.drain(x -> drained.incrementAndGet());
    }

    @Arbiter
    public void idle(III_Result r) {
        r.r3 = stripe.countIdle();
        if (drained.get() != r.r2) {
            r.r2 = -1;
        }
    }
}
