package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A queued waiter's look reserves an idle object (IDLE to RESERVED) before it leaves the queue;
 * close() in between wakes it with "closed" and sweeps past the RESERVED entry. The waiter used
 * to give the object back, to be destroyed on its own thread after close() had returned, while
 * its acquire threw {@link PoolClosedException}: an object released before close() still alive
 * when close() returned. Now it keeps the object, as an acquire that took an idle object just
 * before close() does: when close() returns nothing is idle, and the object is destroyed once,
 * at its release. The waiter is stopped right after its look ({@link WaitHooks}, "reserved"), so
 * the interleaving is forced, not timed.
 *
 * <p>The other side: a waiter that reads the pool closed before its look must not look at all.
 * An object idle then was idle when close() was called, and close() must destroy it before it
 * returns; a look that reserved it hid it from close's sweep, and the waiter gave it back to be
 * destroyed after close() had returned.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedCloseVsLookTest {

    @AfterEach
    void unhook() throws Exception {
        WaitHooks.clear();
        WaitHooks.uninstall();
    }

    @Test
    void aWaiterWhoseLookReservedAnIdleObjectBeforeCloseKeepsIt() throws Exception {
        WaitHooks.install();
        AtomicInteger destroys = new AtomicInteger();
        AtomicReference<String> destroyedOn = new AtomicReference<>();
        AtomicReference<Object> waiterGot = new AtomicReference<>();
        AtomicReference<Throwable> waiterFailed = new AtomicReference<>();
        Pool<Object> pool = Pool.builder(Object::new).maxTotal(1)
                .destroy(x -> {
                    destroys.incrementAndGet();
                    destroyedOn.set(Thread.currentThread().getName());
                })
                .name("close-vs-look").build();
        Object x = pool.acquire();
        WaitHooks.Gate[] gates = new WaitHooks.Gate[2];
        Thread w = new Thread(() -> {
            try {
                Object got = pool.acquire(Duration.ofSeconds(30));
                waiterGot.set(got);
                pool.release(got);
            } catch (Throwable t) {
                waiterFailed.set(t);
            }
        }, "waiter");
        gates[0] = WaitHooks.arm(w, "look");
        gates[1] = WaitHooks.arm(w, "reserved");
        w.start();
        assertTrue(gates[0].arrived.await(20, TimeUnit.SECONDS), "the waiter never queued");
        pool.release(x); // idle now: the waiter is queued, about to look
        gates[0].open();
        assertTrue(gates[1].arrived.await(20, TimeUnit.SECONDS), "the waiter's look found nothing");

        pool.close();
        assertEquals(0, pool.stats().idle(), "close() returned with an object idle: " + pool.stats());
        int atReturn = destroys.get();
        gates[1].open();
        w.join(20_000);

        assertNull(waiterFailed.get(), () -> "the waiter, which had taken the object, got " + waiterFailed.get());
        assertSame(x, waiterGot.get(), "the waiter keeps the object its look took");
        assertEquals(0, atReturn, "destroyed while the waiter held it");
        assertEquals(1, destroys.get(), "destroyed once in all, at its release after close()");
        assertEquals("waiter", destroyedOn.get());
    }

    @Test
    void aWaiterThatReadsThePoolClosedBeforeItsLookLeavesTheIdleObjectsToClose() throws Exception {
        WaitHooks.install();
        StalledClose c = new StalledClose("closed-before-look");
        BoundedPool<Object> pool = c.pool;
        AtomicReference<Object> waiterEnded = new AtomicReference<>();
        Object p = pool.acquire();
        Object q = pool.acquire();
        Object held = pool.acquire();
        Thread w = c.waiter(waiterEnded);
        WaitHooks.Gate[] gates = WaitHooks.queueAndPark(w, "open", "reserved"); // all three are held
        WaitHooks.Gate open = gates[0];
        WaitHooks.Gate reserved = gates[1];
        pool.release(p); // idle; wakes the waiter, which stops before its next look
        assertTrue(open.arrived.await(20, TimeUnit.SECONDS), "the waiter was not woken");
        pool.release(q); // idle too
        c.closeUntilFirstDestroy();
        // Closed: the flag is set, the waiter woken as closed, one idle object being destroyed,
        // the other not swept yet. The waiter now reads the flag before its look.
        open.open();
        WaitHooks.awaitArrivalOrEnd(reserved, w);
        c.finishClose();
        reserved.open();
        w.join(20_000);

        assertEquals(2, c.atReturn.get(), "close() returned before destroying both objects idle when it was "
                + "called (a look after the pool was closed hid one from its sweep)");
        assertInstanceOf(PoolClosedException.class, waiterEnded.get(), "the waiter got an object of a closed pool");
        pool.release(held);
        assertEquals(3, c.destroys.get(), "every object destroyed once");
        assertEquals(0, pool.stats().idle());
    }
}
