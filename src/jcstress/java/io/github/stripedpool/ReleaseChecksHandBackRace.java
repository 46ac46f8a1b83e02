package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The double-release check of the unbounded engine ({@link ReleaseChecks#idle}) against the taker
 * that hands the object back. The releasing thread's slot remembers {@code item} as the object it
 * last pushed to the stripe, and the stripe slot it went to; a taker pops it and hands it back through a volatile field; the
 * releasing thread, once it has it in hand, asks whether a release of it would be double.
 * Result: r1 = 1 if the taker got the object; r2 = 1 if the releaser got it handed back and was
 * told its release is double, 0 if it was told the release is fine, -1 if nothing was handed
 * back yet (it then asks about an object it does not hold: the answer is not checked).
 */
@JCStressTest
@Description("ReleaseChecks: an object taken from the stripe and handed back is never called idle")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "handed back, and released as it should be")
@Outcome(id = "1, -1", expect = Expect.ACCEPTABLE, desc = "not handed back yet")
@Outcome(id = "1, 1", expect = Expect.FORBIDDEN,
        desc = "the releaser holds the object from the taker but saw it idle: a false double release")
@Outcome(expect = Expect.FORBIDDEN, desc = "the taker did not get the only idle object")
@State
public class ReleaseChecksHandBackRace {
    private final Stripe[] stripes = {new Stripe(4)};
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, false);
    private final Object item = new Object();
    private volatile Object handed;

    public ReleaseChecksHandBackRace() {
        slot.lastSharedIndex = stripes[0].push(item, 0);
        slot.lastShared = item;
    }

    @Actor
    public void taker(II_Result r) {
        Object x = stripes[0].popYoung(0);
        r.r1 = x == item ? 1 : 0;
        handed = x;
    }

    @Actor
    public void releaser(II_Result r) {
        if (handed == item) {
            r.r2 = ReleaseChecks.idle(stripes, slot) ? 1 : 0;
        } else {
            r.r2 = -1;
        }
    }
}
