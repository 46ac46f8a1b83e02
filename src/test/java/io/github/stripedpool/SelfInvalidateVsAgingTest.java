package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.releaseCatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reset that finds its object broken and invalidates it: the outer release is refused and the
 * object is never handed out after its destroy, even when an aging cycle runs on another thread
 * between the nested invalidate and the outer release's check after its hooks. That cycle used to
 * clear the record the check reads, and the destroyed object was pooled and handed out.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class SelfInvalidateVsAgingTest {

    @Test
    void anAgingCycleBetweenTheNestedInvalidateAndTheReCheckPoolsTheDestroyedObject() throws Exception {
        Tracked.Factory objects = new Tracked.Factory();
        AtomicReference<UnboundedPool<Tracked>> ref = new AtomicReference<>();
        CountDownLatch ageNow = new CountDownLatch(1);
        CountDownLatch aged = new CountDownLatch(1);
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING)
                .reset(x -> {
                    if ("broken".equals(x.payload)) {
                        x.payload = null;
                        ref.get().invalidate(x);
                        // the aging clock's thread runs a cycle at this moment
                        ageNow.countDown();
                        try {
                            assertTrue(aged.await(10, TimeUnit.SECONDS));
                        } catch (InterruptedException e) {
                            throw new AssertionError(e);
                        }
                    }
                })
                .destroy(objects::destroy), "aging-during-self-invalidate");
        ref.set(pool);
        Thread agingClock = new Thread(() -> {
            try {
                ageNow.await();
                pool.onGarbageCollection(System.nanoTime() + 10 * MANUAL_AGING.toNanos());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } finally {
                aged.countDown();
            }
        }, "aging-clock-stand-in");
        agingClock.start();
        Tracked x = pool.acquire();
        x.payload = "broken";
        Throwable thrown = releaseCatching(pool, x);
        agingClock.join();
        Tracked a = pool.acquire();
        String state = "thrown=" + thrown + ", acquired " + a + " (destroys " + a.destroys.get() + "); "
                + pool.stats();
        assertEquals(0, a.destroys.get(), "handed out after its destroy: " + state);
        assertTrue(thrown instanceof IllegalStateException, "the outer release was not refused: " + state);
    }
}
