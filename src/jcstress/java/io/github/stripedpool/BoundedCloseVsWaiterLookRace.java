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
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The pool's only object is released and the pool closed right after, while an acquire waits for
 * the object: the release wakes the waiter, whose look may reserve the object out of close's
 * sweep. The object was idle (or already the waiter's) when close() was called, so close() must
 * have destroyed it when it returns, unless the waiter took it (then it is in use, and destroyed
 * at its release). Result: r1 = destructions when close() returned; r2 = the acquire's end (0
 * PoolClosedException, 1 an object, 2 timed out after a second); r3 = destructions once the
 * arbiter released what the acquire got.
 */
@JCStressTest
@Description("BoundedPool: a release then close vs the look of the waiter the release wakes")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "close destroyed the idle object; the waiter got PoolClosedException")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "the waiter took it: in use at close, destroyed at its release")
@Outcome(id = "0, 0, 1", expect = Expect.FORBIDDEN, desc = "close returned with the object released before it still alive; destroyed later, elsewhere")
@Outcome(expect = Expect.FORBIDDEN, desc = "a timeout, an object handed out after its destruction, or not destroyed exactly once")
@State
public class BoundedCloseVsWaiterLookRace {
    private final AtomicInteger destroyed = new AtomicInteger();
    private final BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new)
            .destroy(x -> destroyed.incrementAndGet()).maxTotal(1).name("race").build();
    private final Object held = pool.acquire();
    private Object got;

    @Actor
    public void releaseThenClose(III_Result r) {
        pool.release(held);
        pool.close();
        r.r1 = destroyed.get();
    }

    @Actor
    public void acquire(III_Result r) {
        try {
            got = pool.acquire(Duration.ofSeconds(1));
            r.r2 = 1;
        } catch (PoolClosedException e) {
            r.r2 = 0;
        } catch (PoolTimeoutException e) {
            r.r2 = 2;
        }
    }

    @Arbiter
    public void check(III_Result r) {
        if (got != null) {
            pool.release(got);
        }
        r.r3 = destroyed.get();
    }
}
