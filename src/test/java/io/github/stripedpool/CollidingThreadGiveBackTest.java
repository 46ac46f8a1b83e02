package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A thread that shares its entry of the thread-id table with another live thread is checked for
 * a second give-back as a thread that owns its entry is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CollidingThreadGiveBackTest {
    /**
     * A thread whose entry in the thread-id table belongs to another live thread (ids equal
     * modulo 256) keeps its objects in a slot found through its ThreadLocal. release checked that
     * slot for a second give-back, invalidate did not: release(x) then invalidate(x) on such a
     * thread destroyed x while it was idle in the thread's own slot, and the next acquire handed
     * out the destroyed object. On a thread that owns its entry the same calls throw (checked
     * first).
     */
    @Test
    void invalidateAfterReleaseIsCaughtOnAThreadWhoseTableEntryIsTaken() throws Exception {
        Tracked.Factory objects = new Tracked.Factory();
        UnboundedPool<Tracked> pool = PoolAssertions.engine(objects.builder()
                .agingInterval(PoolAssertions.MANUAL_AGING), "collision");
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        Thread owner = new Thread(() -> {
            pool.release(pool.acquire()); // enters its slot in the table
            entered.countDown();
            try {
                finish.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "entry-owner");
        AtomicReference<Throwable> caught = new AtomicReference<>();
        AtomicReference<Tracked> next = new AtomicReference<>();
        AtomicReference<Tracked> first = new AtomicReference<>();
        try {
            owner.start();
            assertTrue(entered.await(30, TimeUnit.SECONDS));
            // On a thread that owns its entry, the pool sees the second give-back.
            Thread control = new Thread(() -> {
                Tracked x = pool.acquire();
                pool.release(x);
                try {
                    pool.invalidate(x);
                } catch (IllegalStateException expected) {
                    caught.set(expected);
                }
            }, "owning");
            control.start();
            control.join();
            assertTrue(caught.get() instanceof IllegalStateException, "caught on a thread that owns its entry");
            caught.set(null);
            Thread colliding = collidingWith(owner, () -> {
                Tracked x = pool.acquire();
                first.set(x);
                pool.release(x); // idle in this thread's own (ThreadLocal) slot
                try {
                    pool.invalidate(x);
                } catch (IllegalStateException expected) {
                    caught.set(expected);
                }
                next.set(pool.acquire());
            });
            colliding.start();
            colliding.join();
            Tracked x = first.get();
            assertEquals(0, x.destroys.get() > 0 && next.get() == x ? -1 : 0,
                    "the next acquire handed out " + x + ", destroyed " + x.destroys.get() + " time(s)");
            assertTrue(caught.get() instanceof IllegalStateException,
                    "invalidate of an object idle in the calling thread's slot was accepted; destroys: "
                            + x.destroys.get());
        } finally {
            finish.countDown();
            owner.join();
            pool.close();
        }
    }

    /** A new, unstarted thread whose id equals {@code other}'s modulo the table's size. */
    @SuppressWarnings("deprecation")
    private static Thread collidingWith(Thread other, Runnable body) {
        long want = other.getId() & (ThreadSlots.TABLE_SIZE - 1);
        for (int i = 0; i < 10 * ThreadSlots.TABLE_SIZE; i++) {
            Thread t = new Thread(body, "colliding");
            if ((t.getId() & (ThreadSlots.TABLE_SIZE - 1)) == want) {
                return t;
            }
        }
        throw new AssertionError("no colliding thread id");
    }
}
