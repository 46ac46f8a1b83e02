package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.awaitAgingCycles;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An object parked in a thread's private slot is not lost when the thread dies or stops using
 * the pool: aging, which can reach every slot, puts it back in circulation or drops it.
 */
@Timeout(120)
class StrandedObjectTest {
    private final Tracked.Factory objects = new Tracked.Factory();

    /** Runs {@code body} on a new platform thread and waits for it to end. */
    private static void onThreadThatDies(Runnable body) throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread t = new Thread(body, "short-lived");
        t.setUncaughtExceptionHandler((th, e) -> failure.set(e));
        t.start();
        t.join();
        if (failure.get() != null) {
            throw new AssertionError("the short-lived thread failed", failure.get());
        }
    }

    @Test
    void objectOfADeadThreadIsRecoveredOrDroppedWithinTwoCycles() throws InterruptedException {
        try (Pool<Tracked> pool = objects.builder().agingInterval(Duration.ZERO)
                .name("stranded-dead").build()) {
            AtomicReference<Tracked> parked = new AtomicReference<>();
            onThreadThatDies(() -> {
                Tracked x = pool.acquire();
                parked.set(x);
                pool.release(x);
                pool.release(pool.acquire()); // a private hit, to see the count survive the reap
            });
            PoolStats start = assertBalanced(pool);
            assertEquals(1, start.idle(), start::toString);

            PoolStats s = awaitAgingCycles(pool, start.agingCycles() + 2);
            System.out.println("dead thread's object after two cycles: " + s);
            assertEquals(1, s.idle() + s.dropped(), "the parked object is neither idle nor dropped: " + s);
            assertEquals(parked.get().destroys.get(), s.dropped(), s::toString);
            // The dead thread's counters are folded into the pool's when its slot is reaped.
            assertEquals(1, s.created(), s::toString);
            assertEquals(2, s.acquired(), s::toString);
            assertEquals(1, s.privateHits(), s::toString);
            assertEquals(2, s.released(), s::toString);
            assertBalanced(pool);
        }
    }

    @Test
    void objectOfADeadThreadGoesBackIntoCirculationAndItsPermitIsReturned() throws InterruptedException {
        // maxIdle 2: one private-slot permit, one stripe slot.
        try (UnboundedPool<Tracked> pool = engine(objects.builder().maxIdle(2).stripes(1)
                .agingInterval(MANUAL_AGING), "stranded-recovered")) {
            AtomicReference<Tracked> parked = new AtomicReference<>();
            onThreadThatDies(() -> {
                Tracked x = pool.acquire();
                parked.set(x);
                pool.release(x); // takes the only permit
            });
            forceAgingCycle(pool); // empties the dead thread's slot into the stripe, reaps the slot
            PoolStats s = assertBalanced(pool);
            assertEquals(1, s.idle(), s::toString);
            assertEquals(0, s.dropped(), s::toString);
            assertEquals(1, s.acquired(), "the dead thread's counts survive its slot: " + s);
            assertEquals(1, s.released(), "the dead thread's counts survive its slot: " + s);

            onThreadThatDies(() -> {
                Tracked x = pool.acquire();
                assertSame(parked.get(), x, "the dead thread's object must be handed out again");
                pool.release(x);
                assertSame(x, pool.acquire(), "the returned permit lets this thread park");
                pool.release(x);
            });
            s = assertBalanced(pool);
            assertEquals(1, s.created(), s::toString);
            assertEquals(1, s.victimHits(), s::toString);
            assertEquals(1, s.privateHits(), s::toString);
        }
    }

    @Test
    void objectOfAThreadThatStaysIdleIsDestroyedWithinTwoCycles() throws InterruptedException {
        try (Pool<Tracked> pool = objects.builder().agingInterval(Duration.ZERO)
                .name("stranded-idle").build()) {
            CountDownLatch parked = new CountDownLatch(1);
            CountDownLatch wake = new CountDownLatch(1);
            AtomicReference<Tracked> first = new AtomicReference<>();
            AtomicReference<Tracked> second = new AtomicReference<>();
            Thread idle = new Thread(() -> {
                Tracked x = pool.acquire();
                first.set(x);
                pool.release(x);
                parked.countDown();
                try {
                    wake.await();
                } catch (InterruptedException e) {
                    return;
                }
                Tracked y = pool.acquire();
                second.set(y);
                pool.release(y);
            }, "idle-owner");
            idle.start();
            try {
                parked.await();
                PoolStats start = assertBalanced(pool);
                assertEquals(1, start.idle(), start::toString);

                PoolStats s = awaitAgingCycles(pool, start.agingCycles() + 2);
                System.out.println("idle thread's object after two cycles: " + s);
                assertEquals(0, s.idle(), s::toString);
                assertEquals(1, s.dropped(), s::toString);
                assertEquals(1, first.get().destroys.get(), "the destroy hook must run on the stranded object");
                assertBalanced(pool);
            } finally {
                wake.countDown();
                idle.join();
            }
            assertNotSame(first.get(), second.get(), "a destroyed object was handed out again");
            assertEquals(0, second.get().destroys.get());
            PoolStats s = assertBalanced(pool);
            assertEquals(2, s.created(), s::toString);
            assertTrue(s.idle() <= 1, s::toString);
        }
    }
}
