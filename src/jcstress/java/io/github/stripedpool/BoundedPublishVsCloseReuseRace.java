package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * A release of x into a closed pool ({@link BoundedStates#publish}: x made idle, then the closed
 * check takes the entry back and destroys what it holds) races close's sweep, which takes the
 * idle entry, destroys x and frees the entry, followed by a creation that reuses the freed entry
 * for a new object y and makes it idle. The release's closed check may then win the entry again:
 * it must destroy y, the object in the entry, and never x a second time. Result: r1 = times x
 * was destroyed, r2 = times y was destroyed (0 if y was never made, or is still idle).
 */
@JCStressTest
@Description("BoundedStates: a release's closed check vs close's sweep and a reuse of the freed entry")
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "x destroyed once; y never made, or still idle in the entry")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "x destroyed by the sweep, y by the release's closed check")
@Outcome(id = "2, .*", expect = Expect.FORBIDDEN, desc = "x destroyed twice: the closed check destroyed the released object, not the entry's")
@Outcome(expect = Expect.FORBIDDEN, desc = "an object destroyed a wrong number of times")
@State
public class BoundedPublishVsCloseReuseRace {
    private final AtomicInteger xDestroyed = new AtomicInteger();
    private final AtomicInteger yDestroyed = new AtomicInteger();
    /** The thread whose destroy hook destroyed x (last): tells the sweeping actor it swept x. */
    private volatile Thread xDestroyer;
    private final Object x;
    private final BoundedPool<Object> pool;
    private final BoundedEntry e;

    public BoundedPublishVsCloseReuseRace() {
        AtomicInteger[] counters = {xDestroyed, yDestroyed};
        Object[] objects = new Object[1];
        pool = (BoundedPool<Object>) Pool.builder(Object::new)
                .destroy(o -> {
                    if (o == objects[0]) {
                        xDestroyer = Thread.currentThread();
                    }
                    counters[o == objects[0] ? 0 : 1].incrementAndGet();
                })
                .maxTotal(1).name("race").build();
        x = pool.acquire();
        objects[0] = x;
        e = pool.states().table.array()[0];
        pool.close(); // x is borrowed: close leaves it to its release
    }

    /** The release of x, after its claim: BORROWED, made idle, then the closed check. */
    @Actor
    public void release() {
        pool.states().publish(e, x, e.stamp);
    }

    /**
     * Close's own sweep of the entry ({@link BoundedStates#sweep}, what {@code close()} runs on
     * every entry), then, if the sweep took it, a creation reusing the freed entry for y.
     */
    @Actor
    public void sweepAndReuse() {
        UserHooks.rethrowVmError(pool.states().sweep(e, null));
        BoundedStates states = pool.states();
        if (xDestroyer == Thread.currentThread() && states.tryReserve()) { // the sweep destroyed x: e is free again
            BoundedEntry f = states.claimFree(null); // the only entry: e, FREE again
            f.item = states.make(f); // a new object, y: the factory's
            f.set(BoundedEntry.IDLE); // published, its own closed check not yet run
        }
    }

    @Arbiter
    public void check(II_Result r) {
        r.r1 = xDestroyed.get();
        r.r2 = yDestroyed.get();
    }
}
