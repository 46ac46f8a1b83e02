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
 * The owner parks an object with stamp 5 while aging scans the slot: peek, read the stamp, take.
 * Result: r1 = 1 if the park succeeded; r2 = the stamp aging read with the object (-1 if it saw
 * no object); r3 = 1 if aging took it; r4 = 1 if it is still parked. The stamp is a plain write
 * published by the park's CAS, so aging must never see the object with the slot's older stamp.
 */
@JCStressTest
@Description("PrivateSlot: put races aging's scan; the object is parked or taken once, with its stamp")
@Outcome(id = "1, -1, 0, 1", expect = Expect.ACCEPTABLE, desc = "aging scanned first; the object stays parked")
@Outcome(id = "1, 5, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging saw the parked object with its stamp and took it")
@Outcome(id = "1, 0, 1, 0", expect = Expect.FORBIDDEN, desc = "aging saw the object with a stale stamp: the stamp was not published")
@Outcome(expect = Expect.FORBIDDEN, desc = "the park failed, or the object was lost or both parked and taken")
@State
public class PrivateSlotPutVsAgingRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, true);
    private final Object item = new Object();

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = slot.put(item, 5) ? 1 : 0;
    }

    @Actor
    public void aging(IIII_Result r) {
        Object x = slot.peek();
        if (x == null) {
            r.r2 = -1;
            return;
        }
        r.r2 = slot.stamp();
        r.r3 = slot.takeFromOutside(x) ? 1 : 0;
    }

    @Arbiter
    public void parked(IIII_Result r) {
        r.r4 = slot.peek() != null ? 1 : 0;
    }
}
