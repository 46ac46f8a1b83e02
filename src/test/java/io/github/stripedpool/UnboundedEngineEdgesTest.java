package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(120)
/**
 * The unbounded engine at the edges of its slots' lives and its stripes' ages: a dropped object
 * is not kept reachable by the thread that released it last, a victim hit does not rescan a
 * stripe that holds no young object, and a destroy hook that re-enters the pool while a
 * thread's first call reaps a dead thread's slot leaves that thread one slot.
 */
class UnboundedEngineEdgesTest {

    private static void runOn(String name, Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.set(e);
            }
        }, name);
        t.start();
        t.join();
        if (failure.get() != null) {
            throw new AssertionError("thread " + name + " failed", failure.get());
        }
    }

    /**
     * A destroy hook that acquires from its pool, run by the reap of a dead thread's slot that a
     * thread's first call performs, gives that thread two private slots: the object the outer
     * release put away is in the second, which the thread never reads again.
     */
    @Test
    void destroyHookReenteringDuringFirstUseReapLeavesTheThreadWithOneSlot() throws Exception {
        Tracked.Factory objects = new Tracked.Factory();
        AtomicReference<Thread> reenterOn = new AtomicReference<>();
        List<Object> keptByHook = new ArrayList<>();
        UnboundedPool<Tracked>[] box = new UnboundedPool[1];
        UnboundedPool<Tracked> pool = engine(Pool.builder(objects::create)
                .destroy(x -> {
                    objects.destroy(x);
                    if (Thread.currentThread() == reenterOn.get()) {
                        reenterOn.set(null);
                        keptByHook.add(box[0].acquire()); // a hook may call any method of the pool
                    }
                })
                .agingInterval(MANUAL_AGING).trimAboveHeap(1).maxIdle(64).stripes(1), "reap-reentry");
        box[0] = pool;
        try {
            Tracked b = pool.acquire(); // main's slot is made first, so the next one made is t1's
            CountDownLatch aged = new CountDownLatch(1);
            CountDownLatch released = new CountDownLatch(1);
            Thread t1 = new Thread(() -> {
                pool.release(pool.acquire()); // an object in t1's slot
                released.countDown();
                try {
                    aged.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }, "t1");
            t1.start();
            released.await();
            forceAgingCycle(pool); // sees t1's object while t1 lives
            aged.countDown();
            t1.join();

            AtomicReference<Tracked> got = new AtomicReference<>();
            runOn("t2", () -> {
                reenterOn.set(Thread.currentThread());
                pool.release(b); // t2's first call: reaps t1's slot, whose object is dropped
                got.set(pool.acquire()); // a thread that releases and re-acquires gets its object back
                pool.release(got.get());
            });
            assertTrue(reenterOn.get() == null, "the hook did not run on t2");
            int slotsOfT2 = 0;
            for (PrivateSlot s : pool.registry) {
                slotsOfT2 += s.owner.getName().equals("t2") ? 1 : 0;
            }
            assertSame(b, got.get(), "t2 released b and acquired at once, but got another object ("
                    + slotsOfT2 + " private slots registered for t2): " + pool.stats());
            assertEquals(1, slotsOfT2, "private slots registered for thread t2");
        } finally {
            pool.close();
        }
    }

    /**
     * After a burst and an aging cycle every idle object is a victim; once one push of the new
     * epoch was taken again, a young scan that finds nothing marks the stripe as holding no
     * young object, so that the acquires after it take victims without scanning the stripe's
     * whole capacity (maxIdle / stripes slots) each time.
     */
    @Test
    void aYoungScanThatFindsNothingMarksTheStripeSoTheNextVictimHitsSkipIt() {
        UnboundedPool<Object> pool = engine(Pool.builder(Object::new)
                .agingInterval(MANUAL_AGING).trimAboveHeap(1).maxIdle(1 << 16).stripes(1), "victim-scan");
        try {
            pool.permits.withdrawAll(); // every release goes to the stripe (as for a thread holding 9+)
            List<Object> burst = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                burst.add(pool.acquire());
            }
            burst.forEach(pool::release);
            burst.clear();
            forceAgingCycle(pool); // the burst's objects are victims now
            pool.release(pool.acquire()); // one push in the new epoch...
            pool.release(pool.acquire()); // ...taken again and pushed again
            Object young = pool.acquire();    // the young one
            Stripe stripe = pool.stripes[0];
            assertEquals(pool.epoch, stripe.youngest, "a push of this epoch reached the stripe");
            Object victim = pool.acquire();   // finds no young object: a victim hit
            assertTrue(stripe.youngest != pool.epoch,
                    "the stripe still claims a young object: every victim hit scans its whole capacity");
            long victimsBefore = pool.stats().victimHits();
            Object another = pool.acquire();
            assertEquals(victimsBefore + 1, pool.stats().victimHits(), pool.stats()::toString);
            pool.release(young);
            assertEquals(pool.epoch, stripe.youngest, "the next young push marks the stripe again");
            assertSame(young, pool.acquire(), "and its object is taken as young");
            pool.release(victim);
            pool.release(another);
        } finally {
            pool.close();
        }
    }

    /**
     * An object that aging dropped must not stay reachable from the pool: "memory comes back
     * after a burst". The releasing thread's double-release record (PrivateSlot.lastShared)
     * keeps the last object it pushed to a stripe after aging, trim or close dropped it.
     */
    @Test
    void anObjectAgingDroppedIsNotKeptReachableByThePool() {
        UnboundedPool<byte[]> pool = engine(Pool.builder(() -> new byte[1 << 20])
                .agingInterval(MANUAL_AGING).trimAboveHeap(1).maxIdle(64).stripes(1), "pinned");
        try {
            pool.permits.withdrawAll(); // the release goes to a stripe, as for a thread holding 9+
            byte[] big = pool.acquire();
            pool.release(big);
            java.lang.ref.WeakReference<byte[]> ref = new java.lang.ref.WeakReference<>(big);
            big = null;
            forceAgingCycle(pool);
            forceAgingCycle(pool);
            PoolStats s = pool.stats();
            assertEquals(1, s.dropped(), s::toString);
            assertEquals(0, s.idle(), s::toString);
            TestSupport.gcUntil("the dropped 1 MiB array is collected", () -> ref.get() == null);
        } finally {
            pool.close();
        }
    }
}
