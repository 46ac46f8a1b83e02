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
 * A pool without a destroy hook: the owner takes its object with a plain read and a plain write
 * (no atomic instruction) while aging forgets it (peek, then CAS from what it saw). Result:
 * r1 = 1 if the owner got it; r2 = 1 if aging took it; r3 = 1 if it is still in the slot. Both
 * may get it: aging only forgets (drops the pool's reference, counts it dropped), so the owner
 * keeps a live object; what must never happen is that nobody gets it, or that it stays.
 */
@JCStressTest
@Description("PrivateSlot, plain mode: owner's plain take races aging's forget; someone gets it, it never stays")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the owner got it; aging saw an empty slot or lost its CAS")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging forgot it first; the owner found the slot empty")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "both: the owner keeps using it, aging only forgot it (dropped() over-counts by one)")
@Outcome(expect = Expect.FORBIDDEN, desc = "nobody got it, or it stayed in the slot")
@State
public class PrivateSlotPlainTakeVsForgetRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, false);
    private final Object item = new Object();

    public PrivateSlotPlainTakeVsForgetRace() {
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
