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
 * A pool with a destroy hook (exact mode), a parked object: its owner's {@code take()} (acquire) races {@code takeFromOutside()} (aging or
 * close, which first peeks the object, as the pool does). Result: r1 = 1 if the owner got it;
 * r2 = 1 if the outside got it; r3 = 1 if it is still parked. The owner's take is a CAS, not a
 * plain write, precisely so that this race has one winner.
 */
@JCStressTest
@Description("PrivateSlot: owner take races aging/close takeFromOutside; exactly one gets the object")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the owner got it; aging saw an empty slot or lost the CAS")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging got it; the owner found the slot empty")
@Outcome(id = "1, 1, 0", expect = Expect.FORBIDDEN, desc = "both got it: the owner would use an object aging destroys")
@Outcome(expect = Expect.FORBIDDEN, desc = "nobody got it, or it stayed parked")
@State
public class PrivateSlotTakeVsAgingRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, true);
    private final Object item = new Object();

    public PrivateSlotTakeVsAgingRace() {
        slot.put(item);
    }

    @Actor
    public void owner(III_Result r) {
        r.r1 = slot.take() == item ? 1 : 0;
    }

    @Actor
    public void aging(III_Result r) {
        Object x = slot.peek();
        r.r2 = x != null && slot.takeFromOutside(x) ? 1 : 0;
    }

    @Arbiter
    public void parked(III_Result r) {
        r.r3 = slot.peek() != null ? 1 : 0;
    }
}
