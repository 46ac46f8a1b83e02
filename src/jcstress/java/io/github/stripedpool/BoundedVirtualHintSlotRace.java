package io.github.stripedpool;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two virtual threads that share a hint slot of {@link BoundedThreads}, each acquiring as
 * {@code BoundedPool.acquireVirtual} does: the entry the slot names (CAS IDLE to BORROWED), else
 * a take from the idle stacks, after which it names the entry it took in the slot. Two objects
 * are idle, both in the one idle stack (x on top), and the slot names x's entry. Whatever the
 * interleaving, each thread gets one of the two and never the same one: the slot is a hint,
 * never a claim, and an entry taken through it while it sits in the stack is dropped there as
 * stale by the other thread, which goes on to the next. Result: the entry each got, 1 for x's,
 * 2 for y's, 0 for none.
 */
@JCStressTest
@Description("BoundedThreads: two virtual threads' acquisitions through one hint slot and the idle stacks")
@Outcome(id = {"1, 2", "2, 1"}, expect = Expect.ACCEPTABLE, desc = "each got one of the two idle objects")
@Outcome(id = {"1, 1", "2, 2"}, expect = Expect.FORBIDDEN, desc = "one object handed to both")
@Outcome(id = {"0, .*", ".*, 0"}, expect = Expect.FORBIDDEN, desc = "an idle object lost from view")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class BoundedVirtualHintSlotRace {
    private final BoundedPool<Object> pool;
    private final BoundedEntry ex;
    private final BoundedEntry ey;

    @SuppressWarnings("unchecked")
    public BoundedVirtualHintSlotRace() {
        pool = (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(4).stripes(1).name("race").build();
        Object x = pool.acquire();
        Object y = pool.acquire();
        pool.release(y);
        pool.release(x); // both idle in the one stack, x on top, their flags set
        ex = pool.states().index.find(x);
        ey = pool.states().index.find(y);
        pool.threads().hintVirtual(0, ex);
    }

    private int acquire() {
        BoundedEntry e = pool.threads().virtualHint(0);
        if (e == null || !BoundedStates.idleToBorrowed(e)) {
            e = pool.states().takeIdle(0, null);
            if (e != null) {
                pool.threads().hintVirtual(0, e);
            }
        }
        return e == null ? 0 : e == ex ? 1 : e == ey ? 2 : 3;
    }

    @Actor
    public void first(II_Result r) {
        r.r1 = acquire();
    }

    @Actor
    public void second(II_Result r) {
        r.r2 = acquire();
    }

    @Arbiter
    public void close(II_Result r) {
        pool.close();
    }
}
