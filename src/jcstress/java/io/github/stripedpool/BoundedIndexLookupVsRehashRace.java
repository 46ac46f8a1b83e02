package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A release's lock-free lookup in the {@link BoundedIndex} while a creation rehashes it into a
 * new array and a destruction removes another entry. The object looked up first was filed before
 * the race (it was handed out), so the lookup must find its entry, in the old array or the new
 * one; the object being destroyed may be found or not, but no lookup may ever return another
 * object's entry. Result: r1 = 1 if the handed-out object's entry was found; r2 = 1 if the
 * destroyed object's entry was found, 0 if none was, 2 if a wrong entry came back.
 */
@JCStressTest
@Description("BoundedIndex: lookup vs a rehash and a removal; a handed-out object is always found, never a wrong entry")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "both found: the lookup ran before the removal")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "the destroyed object was already out of the index")
@Outcome(id = "0, .*", expect = Expect.FORBIDDEN, desc = "a handed-out object was lost by the rehash")
@Outcome(id = ".*, 2", expect = Expect.FORBIDDEN, desc = "a lookup returned another object's entry")
@State
public class BoundedIndexLookupVsRehashRace {
    /** Entries filed before the race: one more insertion rehashes the index. */
    private static final int FILED = 64;

    private final BoundedIndex index = new BoundedIndex();
    private final Object[] objects = new Object[FILED + 1];
    private final BoundedEntry[] entries = new BoundedEntry[FILED + 1];

    public BoundedIndexLookupVsRehashRace() {
        for (int i = 0; i <= FILED; i++) {
            objects[i] = new Object();
            entries[i] = new BoundedEntry(i);
            entries[i].ref = new BoundedEntry.ObjectRef(objects[i], 0L);
            if (i < FILED) {
                index.add(entries[i]);
            }
        }
    }

    @Actor
    public void release(II_Result r) {
        r.r1 = index.find(objects[0]) == entries[0] ? 1 : 0;
        BoundedEntry e = index.find(objects[1]);
        r.r2 = e == null ? 0 : e == entries[1] ? 1 : 2;
    }

    @Actor
    public void createAndDestroy() {
        index.add(entries[FILED]); // rehashes
        index.remove(entries[1]);
        entries[1].ref = null; // as BoundedStates does when it frees an entry, after the removal
    }
}
