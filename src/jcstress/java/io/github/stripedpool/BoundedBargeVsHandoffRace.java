package io.github.stripedpool;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * A barging acquire racing a hand-off: the holder of the pool's one object releases it and at
 * once acquires it again (the tight loop), while another thread acquires it; each holds it
 * briefly and gives it back. With a starvation threshold of 0 the thread that queues switches
 * releases to direct hand-off at once, so the release, the hand-off to the queued thread and the
 * releaser's barging acquire of its idle object all race. Each thread must get the object exactly
 * when nobody else holds it. Results: r1, r2 = 1 if that thread got the object alone, 2 if it
 * found another holder, 0 if it timed out after a second; r3 = live objects afterwards; r4 =
 * threads still queued afterwards.
 */
@JCStressTest
@Description("BoundedPool: barging and hand-off never give one object to two threads or lose it")
@Outcome(id = "1, 1, 1, 0", expect = Expect.ACCEPTABLE, desc = "both got the object in turn")
@Outcome(expect = Expect.FORBIDDEN, desc = "a timeout (lost wake-up), two holders, or broken accounting")
@State
public class BoundedBargeVsHandoffRace {
    private final BoundedPool<AtomicReference<Thread>> pool = BoundedPool.start(
            Pool.builder(AtomicReference<Thread>::new).maxTotal(1).settings("race"), 0L);
    private final AtomicReference<Thread> held = pool.acquire();

    @Actor
    public void releaseAndBarge(IIII_Result r) {
        pool.release(held);
        r.r1 = borrow();
    }

    @Actor
    public void second(IIII_Result r) {
        r.r2 = borrow();
    }

    private int borrow() {
        AtomicReference<Thread> x;
        try {
            x = pool.acquire(Duration.ofSeconds(1));
        } catch (PoolTimeoutException e) {
            return 0;
        }
        int outcome = x.compareAndSet(null, Thread.currentThread()) ? 1 : 2;
        x.compareAndSet(Thread.currentThread(), null);
        pool.release(x);
        return outcome;
    }

    @Arbiter
    public void check(IIII_Result r) {
        r.r3 = pool.live();
        r.r4 = pool.waiting();
    }
}
