package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter served a unit of capacity between its read of the closed flag (the pool open) and its
 * look at the idle objects, while close() ran: the look reserved an object idle when close() was
 * called, out of close's sweep, and the waiter gave it back to be destroyed on its own thread
 * after close() returned, then created a new object from its unit. Now it keeps the object, as
 * a waiter woken by close does, and gives the unit back.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BoundedServedThenLookTest {

    @AfterEach
    void unhook() throws Exception {
        WaitHooks.clear();
        WaitHooks.uninstall();
    }

    @Test
    void aWaiterServedAPermitBetweenItsReadOfTheFlagAndItsLookKeepsWhatItTookAndGivesTheUnitBack() throws Exception {
        WaitHooks.install();
        AtomicInteger destroys = new AtomicInteger();
        List<String> destroyedOn = new CopyOnWriteArrayList<>();
        CountDownLatch closeStalled = new CountDownLatch(1);
        CountDownLatch letCloseGo = new CountDownLatch(1);
        AtomicReference<Object> waiterEnded = new AtomicReference<>();
        BoundedPool<Object> pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(3)
                .destroy(x -> {
                    destroys.incrementAndGet();
                    destroyedOn.add(Thread.currentThread().getName());
                    if (Thread.currentThread().getName().equals("closer") && closeStalled.getCount() > 0) {
                        closeStalled.countDown(); // close's first destroy: stall it
                        WaitHooks.await(letCloseGo);
                    }
                })
                .settings("served-then-look"), TimeUnit.HOURS.toNanos(1)); // no starving mode
        Object p = pool.acquire();
        Object q = pool.acquire();
        Object h = pool.acquire();
        Thread w = new Thread(() -> {
            try {
                waiterEnded.set(pool.acquire(Duration.ofSeconds(30)));
            } catch (Throwable t) {
                waiterEnded.set(t);
            }
        }, "waiter");
        WaitHooks.Gate[] gates = WaitHooks.queueAndPark(w, "look", "reserved"); // all three are held
        WaitHooks.Gate look2 = gates[0];
        WaitHooks.Gate reserved = gates[1];
        pool.release(p); // idle; wakes the waiter, which reads the pool open and stops before its look
        assertTrue(look2.arrived.await(20, TimeUnit.SECONDS), "the waiter was not woken");
        pool.invalidate(h); // its capacity goes to the front waiter: served a PERMIT
        pool.release(q); // idle too
        AtomicInteger atReturn = new AtomicInteger(-1);
        Thread closer = new Thread(() -> {
            pool.close();
            atReturn.set(destroys.get());
        }, "closer");
        closer.start();
        assertTrue(closeStalled.await(20, TimeUnit.SECONDS), "close destroyed nothing");
        look2.open(); // the look: reserves the idle object close has not swept yet
        WaitHooks.awaitArrivalOrEnd(reserved, w);
        boolean lookTookOne = reserved.hasArrived();
        letCloseGo.countDown();
        closer.join(20_000);
        int atCloseReturn = atReturn.get();
        reserved.open();
        w.join(20_000);

        assertTrue(lookTookOne, "precondition: the look took the idle object");
        // The waiter keeps what its look took, as one woken by close does (BoundedCloseVsLookTest):
        // in use at close's return, destroyed at its release; the unit it was handed goes back.
        Object got = waiterEnded.get();
        assertTrue(got == p || got == q, "the waiter ended with " + got + ", not the idle object its look "
                + "took; destroyed on, in order: " + destroyedOn);
        assertEquals(2, atCloseReturn, "close() returned with h and the other idle object destroyed");
        assertEquals(atCloseReturn, destroys.get(), "destroyed after close() returned, not at a release: "
                + destroyedOn);
        pool.release(got);
        assertEquals(3, destroys.get(), "each object destroyed once");
        assertEquals(3, pool.stats().created(), "an object created after close(): " + pool.stats());
        assertEquals(0, pool.stats().inUse());
    }
}
