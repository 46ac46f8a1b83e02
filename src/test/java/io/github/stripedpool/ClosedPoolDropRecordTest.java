package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.ref.WeakReference;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A release whose reset hook closes the pool finishes by destroying its object after close's
 * sweep. The record of that drop must neither keep the object reachable (a closed pool never
 * ages, and may sit in a static field) nor be missed by the next release of it on the same
 * thread: it used to do both, and that release destroyed the object a second time.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ClosedPoolDropRecordTest {

    static UnboundedPool<Object[]> keptPool; // a pool in a static field

    @Test
    void anObjectDestroyedByAReleaseThatClosedThePoolStaysReachable() throws Exception {
        AtomicInteger destroyed = new AtomicInteger();
        UnboundedPool<Object[]> pool = poolWhoseResetCloses(destroyed, "reset-closes");
        keptPool = pool;
        Object[] x = pool.acquire();
        pool.release(x); // the thread's permit, and its slot
        x = pool.acquire();
        x[0] = "close the pool";
        pool.release(x); // the reset closes the pool; the release then destroys x
        assertEquals(1, destroyed.get(), "precondition: x destroyed once");
        WeakReference<Object[]> weak = new WeakReference<>(x);
        x = null;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        while (weak.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }
        pool.stats(); // monitoring reads the closed pool: still reachable after it
        System.gc();
        Thread.sleep(20);
        assertNull(weak.get(), "a destroyed object kept reachable by the closed pool (slot lastDropped): "
                + pool.slots.registry.peek().lastDropped);
    }

    @Test
    void andItsSecondReleaseInARowIsDestroyedAgain() {
        AtomicInteger destroyed = new AtomicInteger();
        UnboundedPool<Object[]> pool = poolWhoseResetCloses(destroyed, "reset-closes-2");
        Object[] x = pool.acquire();
        pool.release(x);
        x = pool.acquire();
        x[0] = "close the pool";
        pool.release(x);
        Throwable t = null;
        try {
            pool.release(x); // the same object, twice in a row on one thread
        } catch (IllegalStateException e) {
            t = e;
        }
        assertEquals(1, destroyed.get(), "destroyed twice; second release threw " + t);
    }

    /** A pool whose reset closes it when the object says so ({@code o[0] == "close the pool"}). */
    private static UnboundedPool<Object[]> poolWhoseResetCloses(AtomicInteger destroyed, String name) {
        AtomicReference<Pool<Object[]>> ref = new AtomicReference<>();
        UnboundedPool<Object[]> pool = engine(Pool.builder(() -> new Object[1]).agingInterval(MANUAL_AGING)
                .reset(o -> {
                    if (o[0] == "close the pool") {
                        o[0] = null;
                        ref.get().close();
                    }
                })
                .destroy(o -> destroyed.incrementAndGet()), name);
        ref.set(pool);
        return pool;
    }
}
