package io.github.stripedpool;

import java.time.Duration;
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
 * A close races an acquire that must wait: the pool's only object is held throughout, so the
 * acquire either finds the pool closed or queues and must be woken by close. Result: r1 = 0 if
 * the acquire got PoolClosedException, 1 if it got an object, 2 if it timed out after a second;
 * r2 = times the held object was destroyed once the arbiter released it after close.
 */
@JCStressTest
@Description("BoundedPool: close vs an acquire waiting at the cap")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "close rejected or woke the waiter; the held object was destroyed at its release")
@Outcome(id = "2, 1", expect = Expect.FORBIDDEN, desc = "the waiter slept through close until its timeout")
@Outcome(id = "1, .*", expect = Expect.FORBIDDEN, desc = "an object was handed out beyond the cap or after close")
@Outcome(expect = Expect.FORBIDDEN, desc = "the held object was not destroyed exactly once")
@State
public class BoundedCloseVsWaiterRace {
    private final AtomicInteger destroyed = new AtomicInteger();
    private final BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new)
            .destroy(x -> destroyed.incrementAndGet()).maxTotal(1).name("race").build();
    private final Object held = pool.acquire();

    @Actor
    public void close() {
        pool.close();
    }

    @Actor
    public void acquire(II_Result r) {
        try {
            pool.acquire(Duration.ofSeconds(1));
            r.r1 = 1;
        } catch (PoolClosedException e) {
            r.r1 = 0;
        } catch (PoolTimeoutException e) {
            r.r1 = 2;
        }
    }

    @Arbiter
    public void check(II_Result r) {
        pool.release(held);
        r.r2 = destroyed.get();
    }
}
