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
 * Two spare entries of a plain slot (no destroy hook): entry 0 holds {@code b}, entry 1 holds
 * {@code c}. The owner takes twice from its spare entries (the top one first, then the one
 * below, skipping it if aging emptied it) and puts {@code d} back, while aging forgets entry 0's
 * object (peek, then CAS from what it saw). Result: r1 = 1 if the owner's first take got
 * {@code c}; r2 = 1 if its second got {@code b}, 0 if it found the entry empty; r3 = 1 if aging
 * took {@code b}, 4 if it took {@code d}; r4 = 1 if {@code d} is in entry 0 at the end, 2 if
 * {@code b} is. Aging never touches entry 1, so the owner always gets {@code c} first; {@code b}
 * goes to the owner, to aging or (aging only forgets) to both, never to nobody; {@code d} is
 * forgotten only if aging saw it.
 */
@JCStressTest
@Description("PrivateSlot spare entries, plain mode: the owner's takes skip an entry aging emptied")
@Outcome(id = "1, 1, 0, 1", expect = Expect.ACCEPTABLE, desc = "the owner got c then b; aging saw nothing or lost its CAS")
@Outcome(id = "1, 0, 1, 1", expect = Expect.ACCEPTABLE, desc = "aging forgot b first; the owner skipped the empty entry")
@Outcome(id = "1, 1, 1, 1", expect = Expect.ACCEPTABLE_INTERESTING,
        desc = "both got b: the owner keeps using it, aging only forgot it")
@Outcome(id = "1, 1, 4, 0", expect = Expect.ACCEPTABLE, desc = "aging came after the put and forgot d, which it saw")
@Outcome(expect = Expect.FORBIDDEN, desc = "c missed, b lost or left behind, or d erased unseen")
@State
public class PrivateSlotSpareHoleRace {
    private final PrivateSlot slot = new PrivateSlot(Thread.currentThread(), 0, false);
    private final Object a = new Object();
    private final Object b = new Object();
    private final Object c = new Object();
    private final Object d = new Object();

    public PrivateSlotSpareHoleRace() {
        slot.put(a);
        slot.putSpare(b);
        slot.putSpare(c);
    }

    @Actor
    public void owner(IIII_Result r) {
        r.r1 = slot.takeSpare() == c ? 1 : 0;
        r.r2 = slot.takeSpare() == b ? 1 : 0;
        slot.putSpare(d);
    }

    @Actor
    public void aging(IIII_Result r) {
        Object x = slot.peekSpare(0);
        r.r3 = x != null && slot.takeSpareFromOutside(0, x) ? (x == b ? 1 : x == d ? 4 : 9) : 0;
    }

    @Arbiter
    public void left(IIII_Result r) {
        Object x = slot.peekSpare(0);
        r.r4 = x == d ? 1 : x == b ? 2 : x == null ? 0 : 9;
        if (slot.peekSpare(1) != null) {
            r.r4 += 10; // the owner took entry 1's object and put nothing above entry 0
        }
    }
}
