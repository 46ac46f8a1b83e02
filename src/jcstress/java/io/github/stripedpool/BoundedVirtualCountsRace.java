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
 * Virtual threads count in the entry they own ({@link BoundedEntry#countVirtual}), with plain
 * increments. Two virtual threads each try one cycle on the same idle entry, as
 * {@code BoundedPool} does it: take it (CAS IDLE to BORROWED), count the hit, claim it for the
 * release (CAS BORROWED to RESERVED), count the release, publish it (IDLE again). The second
 * may find it borrowed and give up, or run after the first published it. Whatever the
 * interleaving, the entry's counters equal the cycles run: an increment is made while its
 * thread owns the entry, and ownership passes by the CAS and the volatile write that order
 * them, so none is lost. Result: cycles run, releases counted, hits counted.
 */
@JCStressTest
@Description("BoundedEntry: virtual threads' plain counters in the entry they own")
@Outcome(id = {"1, 1, 1", "2, 2, 2"}, expect = Expect.ACCEPTABLE, desc = "every cycle counted once")
@Outcome(expect = Expect.FORBIDDEN, desc = "a count lost or doubled")
@State
public class BoundedVirtualCountsRace {
    private final BoundedPool<Object> pool;
    private final BoundedEntry e;
    private int first;
    private int second;

    @SuppressWarnings("unchecked")
    public BoundedVirtualCountsRace() {
        pool = (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(2).stripes(1).name("race").build();
        Object x = pool.acquire();
        pool.release(x);
        e = pool.states().index.find(x);
    }

    private int cycle() {
        if (!BoundedStates.idleToBorrowed(e)) {
            return 0;
        }
        Object x = BoundedStates.take(e);
        BoundedThreads.count(null, e, Counts.HIT_HOME);
        BoundedEntry claimed = pool.states().claim(null, x, "release");
        BoundedThreads.count(null, claimed, Counts.RELEASED);
        pool.states().publish(claimed, x, claimed.stamp);
        return 1;
    }

    @Actor
    public void one() {
        first = cycle();
    }

    @Actor
    public void two() {
        second = cycle();
    }

    @Arbiter
    public void check(III_Result r) {
        r.r1 = first + second;
        r.r2 = (int) e.virtualReleased;
        r.r3 = (int) e.virtualHomeHits;
        pool.close();
    }
}
