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
 * A pool with a destroy hook (exact mode): the owner's {@code put()} races aging's scan, which
 * reads the object (acquire) and then the slot's put count, by which it ages private slots.
 * Result: r1 = 1 (the put); r2 = the put count aging saw with the object, -1 if it saw none;
 * r3 = 1 if aging took it; r4 = 1 if it is still in the slot.
 */
@JCStressTest
@Description("PrivateSlot: put races aging's scan; the object is put or taken once, with its put count")
@Outcome(id = "1, -1, 0, 1", expect = Expect.ACCEPTABLE, desc = "aging scanned first; the object stays")
@Outcome(id = "1, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging saw the object with its put count and took it")
@Outcome(id = "1, 0, 1, 0", expect = Expect.FORBIDDEN, desc = "aging saw the object with a stale count: the count was not published")
@Outcome(expect = Expect.FORBIDDEN, desc = "the object was lost or both in the slot and taken")
@State
public class PrivateSlotPutVsAgingRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, true);
    private final Object item = new Object();

    @Actor
    public void owner(IIII_Result r) {
        slot.put(item);
        r.r1 = 1;
    }

    @Actor
    public void aging(IIII_Result r) {
        Object x = slot.peek();
        if (x == null) {
            r.r2 = -1;
            return;
        }
        r.r2 = (int) slot.puts;
        r.r3 = slot.takeFromOutside(x) ? 1 : 0;
    }

    @Arbiter
    public void parked(IIII_Result r) {
        r.r4 = slot.peek() != null ? 1 : 0;
    }
}
