package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A trim after a collection that left the heap short ({@link BoundedMaintenance#trimIfHeapShort},
 * with a threshold of 0, so the heap is always "short") races an acquire on another thread, over
 * the pool's one idle object x. The trim counts the idle objects, then claims each with the same
 * CAS as an acquire ({@code idleToReserved}), so exactly one of them gets x: the acquire hands x
 * out and the trim destroys nothing, or the trim destroys x and the acquire creates another.
 * Result: r1 = 1 if the acquire got x, r2 = 1 if the object it got was destroyed by the time it
 * looked, r3 = times x was destroyed.
 */
@JCStressTest
@Description("BoundedMaintenance: a trim under heap pressure vs an acquire of the same idle object")
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "the acquire got x; the trim found it taken, or counted nothing idle")
@Outcome(id = "0, 0, 1", expect = Expect.ACCEPTABLE, desc = "the trim destroyed x; the acquire made a new object")
@Outcome(id = "1, .*, 1", expect = Expect.FORBIDDEN, desc = "x handed out and destroyed: the trim took an object in use")
@Outcome(id = ".*, 1, .*", expect = Expect.FORBIDDEN, desc = "the acquire was handed a destroyed object")
@Outcome(id = "0, 0, 0", expect = Expect.FORBIDDEN, desc = "x neither handed out nor destroyed, yet the acquire made a new object")
@Outcome(expect = Expect.FORBIDDEN, desc = "x destroyed twice, or anything else")
@State
public class BoundedTrimVsAcquireRace {
    /** A pooled object that counts its destructions. */
    static final class Item {
        final AtomicInteger destroyed = new AtomicInteger();
    }

    private final BoundedPool<Item> pool = BoundedPool.start(Pool.builder(Item::new)
            .destroy(i -> i.destroyed.incrementAndGet())
            .maxTotal(2).trimAboveHeap(0).settings("race"));
    private final Item x;

    public BoundedTrimVsAcquireRace() {
        x = pool.acquire();
        pool.release(x);
    }

    @Actor
    public void trim() {
        pool.maintenance().trimIfHeapShort(System.nanoTime());
    }

    @Actor
    public void acquire(III_Result r) {
        Item got = pool.acquire();
        r.r1 = got == x ? 1 : 0;
        r.r2 = got.destroyed.get();
    }

    @Arbiter
    public void check(III_Result r) {
        r.r3 = x.destroyed.get();
        pool.close();
    }
}
