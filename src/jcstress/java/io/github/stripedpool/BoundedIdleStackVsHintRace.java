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
 * The idle stacks of {@link BoundedEntryTable} against a thread's hint. The entry of x is idle
 * and in its idle stack. One actor takes it through its hint (CAS IDLE to BORROWED, leaving it
 * in the stack) and releases it at once ({@link BoundedStates#publish}: IDLE, then offered to the
 * stack unless its flag says it is there); the other takes from the stacks ({@code takeIdle}:
 * pop, clear the flag, read the state), and may pop the entry while it is borrowed, a stale
 * entry it drops. Then the arbiter takes from the stacks. Whatever the interleaving, x is handed
 * out to exactly one of the taker and the arbiter, or to the hint and then one of them: the
 * release is never lost from view (the flag and the state form a Dekker pair), and x is never
 * taken twice. Result: r1 = the hint took x, r2 = the taker took x, r3 = the arbiter took x.
 */
@JCStressTest
@Description("BoundedEntryTable: a take from the idle stacks vs a hint take and release of the same entry")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "hint cycle; the taker dropped the entry as stale or found nothing; the release pushed it again")
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "hint cycle, then the taker took the released entry")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "the taker took the entry before the hint")
@Outcome(id = "1, 0, 0", expect = Expect.FORBIDDEN, desc = "released but lost from view: idle, and in no stack")
@Outcome(id = "0, 0, .*", expect = Expect.FORBIDDEN, desc = "the hint lost its CAS to nobody")
@Outcome(id = ".*, 1, 1", expect = Expect.FORBIDDEN, desc = "taken twice")
@Outcome(expect = Expect.FORBIDDEN, desc = "anything else")
@State
public class BoundedIdleStackVsHintRace {
    private final BoundedPool<Object> pool;
    private final BoundedEntry e;
    private final Object x;

    public BoundedIdleStackVsHintRace() {
        pool = (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(4).stripes(1).name("race").build();
        x = pool.acquire();
        pool.release(x); // idle, pushed on the stack, its flag set
        e = pool.states().index.find(x);
    }

    @Actor
    public void hintCycle(III_Result r) {
        if (e.state() == BoundedEntry.IDLE && e.cas(BoundedEntry.IDLE, BoundedEntry.BORROWED)) {
            r.r1 = 1;
            Object got = e.item;
            e.item = null;
            pool.states().publish(e, got, e.stamp);
        }
    }

    @Actor
    public void take(III_Result r) {
        r.r2 = pool.states().takeIdle(0, null) == e ? 1 : 0;
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = pool.states().takeIdle(0, null) == e ? 1 : 0;
        pool.close();
    }
}
