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
 * The free stack of {@link BoundedEntryTable} against the ABA problem: in a table of two FREE
 * entries, one actor claims an entry, frees it and claims again (pop, push, pop: the pattern
 * that lets an unversioned Treiber stack hand one entry out twice), while the other claims once.
 * The two entries held at the end must differ, and the stack must be left empty, not with an
 * entry that is held. Result: r1 = index of the first actor's second claim, r2 = index of the
 * other actor's claim, r3 = 1 if the stack was empty at the end.
 */
@JCStressTest
@Description("BoundedEntryTable: claim, free and claim again vs a claim on the free stack")
@Outcome(id = {"0, 1, 1", "1, 0, 1"}, expect = Expect.ACCEPTABLE, desc = "each actor holds its own entry, none left")
@Outcome(id = {"0, 0, .*", "1, 1, .*"}, expect = Expect.FORBIDDEN, desc = "one entry claimed twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "an entry left in the stack while held, or lost")
@State
public class BoundedFreeStackClaimRace {
    private final BoundedPool<Object> pool =
            (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(2).name("race").build();
    private final BoundedEntryTable table = pool.states().table;

    @Actor
    public void claimFreeClaim(III_Result r) {
        table.free(table.claimFree());
        r.r1 = table.claimFree().index;
    }

    @Actor
    public void claim(III_Result r) {
        r.r2 = table.claimFree().index;
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = table.isFreeStackEmpty() ? 1 : 0;
        pool.close();
    }
}
