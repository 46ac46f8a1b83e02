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
 * The first spare entry of an exact slot (a pool with a destroy hook, whose aging and close
 * destroy what they take); every entry follows the same rules. The slot holds {@code a}, its
 * spare {@code b}; the owner takes both (the slot's object, then the spare's, each by
 * compare-and-set) and puts {@code c} back in the spare, while aging takes the spare's object
 * (peek, then CAS from what it saw) to destroy it. Result: r1 = 1 if the owner got {@code b};
 * r2 = 1 if aging took {@code b}, 3 if it took {@code c}; r3 = 1 if {@code c} is in the spare at
 * the end; r4 = 1 if {@code b} is. Unlike the plain slot's race, the owner and aging must never
 * both get {@code b}: aging would destroy an object in use.
 */
@JCStressTest
@Description("PrivateSlot spare, exact mode: owner's take and put race aging's take of the spare")
@Outcome(id = "1, 0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the owner got b; aging saw nothing or lost its CAS")
@Outcome(id = "0, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "aging took b first; the owner found the spare empty")
@Outcome(id = "1, 3, 0, 0", expect = Expect.ACCEPTABLE, desc = "aging came after the put and took c, which it saw")
@Outcome(id = "1, 1, 1, 0", expect = Expect.FORBIDDEN, desc = "both got b: destroyed while the owner uses it")
@Outcome(expect = Expect.FORBIDDEN, desc = "b stayed or vanished, or c was erased unseen")
@State
public class PrivateSlotExactSpareTakeVsAgingRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, true);
    private final Object a = new Object();
    private final Object b = new Object();
    private final Object c = new Object();

    public PrivateSlotExactSpareTakeVsAgingRace() {
        slot.put(a);
        slot.putSpare(b);
    }

    @Actor
    public void owner(IIII_Result r) {
        slot.take();
        r.r1 = slot.takeSpare() == b ? 1 : 0;
        slot.putSpare(c);
    }

    @Actor
    public void aging(IIII_Result r) {
        Object x = slot.peekSpare(0);
        r.r2 = x != null && slot.takeSpareFromOutside(0, x) ? (x == b ? 1 : x == c ? 3 : 9) : 0;
    }

    @Arbiter
    public void left(IIII_Result r) {
        Object x = slot.peekSpare(0);
        r.r3 = x == c ? 1 : 0;
        r.r4 = x == b ? 1 : 0;
    }
}
