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
 * A pool without a destroy hook: the owner takes {@code x} and puts {@code y} with plain writes
 * while aging looks at the slot and forgets what it saw, by CAS from it. Aging must never erase
 * an object put after it looked. Result: r1 = 1 if the owner's take got {@code x}; r2 = what
 * aging saw (1 = x, 2 = y, 0 = empty); r3 = 1 if its CAS succeeded; r4 = 1 if {@code y} is in
 * the slot at the end.
 */
@JCStressTest
@Description("PrivateSlot, plain mode: owner take+put races aging's forget; an object put after aging looked is never erased")
@Outcome(id = "0, 1, 1, 1", expect = Expect.ACCEPTABLE, desc = "aging forgot x first; the owner's take missed, y stays")
@Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "both got x (aging only forgets it); y stays")
@Outcome(id = "1, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "aging saw x, the owner took it first; y stays")
@Outcome(id = "1, 0, 0, 1", expect = Expect.ACCEPTABLE, desc = "aging looked between the take and the put")
@Outcome(id = "1, 2, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging saw y and forgot it")
@Outcome(id = "1, 2, 0, 1", expect = Expect.ACCEPTABLE_INTERESTING, desc = "aging saw y, its CAS failed spuriously? (not expected)")
@Outcome(id = "1, 1, 1, 0", expect = Expect.FORBIDDEN, desc = "aging saw x and erased y, put after it looked")
@Outcome(id = "1, 1, 0, 0", expect = Expect.FORBIDDEN, desc = "y was lost")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class PrivateSlotPlainPutVsForgetRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, false);
    private final Object x = new Object();
    private final Object y = new Object();

    public PrivateSlotPlainPutVsForgetRace() {
        slot.put(x);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = slot.take() == x ? 1 : 0;
        slot.put(y);
    }

    @Actor
    public void aging(IIII_Result r) {
        Object seen = slot.peek();
        r.r2 = seen == x ? 1 : seen == y ? 2 : 0;
        r.r3 = seen != null && slot.takeFromOutside(seen) ? 1 : 0;
    }

    @Arbiter
    public void end(IIII_Result r) {
        r.r4 = slot.peek() == y ? 1 : 0;
    }
}
