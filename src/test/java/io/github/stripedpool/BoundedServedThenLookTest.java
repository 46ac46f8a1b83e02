package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
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
        StalledClose c = new StalledClose("served-then-look");
        BoundedPool<Object> pool = c.pool;
        AtomicReference<Object> waiterEnded = new AtomicReference<>();
        Object p = pool.acquire();
        Object q = pool.acquire();
        Object h = pool.acquire();
        Thread w = c.waiter(waiterEnded);
        WaitHooks.Gate[] gates = WaitHooks.queueAndPark(w, "look", "reserved"); // all three are held
        WaitHooks.Gate look2 = gates[0];
        WaitHooks.Gate reserved = gates[1];
        pool.release(p); // idle; wakes the waiter, which reads the pool open and stops before its look
        assertTrue(look2.arrived.await(20, TimeUnit.SECONDS), "the waiter was not woken");
        pool.invalidate(h); // its capacity goes to the front waiter: served a PERMIT
        pool.release(q); // idle too
        c.closeUntilFirstDestroy();
        look2.open(); // the look: reserves the idle object close has not swept yet
        WaitHooks.awaitArrivalOrEnd(reserved, w);
        boolean lookTookOne = reserved.hasArrived();
        c.finishClose();
        int atCloseReturn = c.atReturn.get();
        reserved.open();
        w.join(20_000);

        assertTrue(lookTookOne, "precondition: the look took the idle object");
        // The waiter keeps what its look took, as one woken by close does (BoundedCloseVsLookTest):
        // in use at close's return, destroyed at its release; the unit it was handed goes back.
        Object got = waiterEnded.get();
        assertTrue(got == p || got == q, "the waiter ended with " + got + ", not the idle object its look "
                + "took; destroyed on, in order: " + c.destroyedOn);
        assertEquals(2, atCloseReturn, "close() returned with h and the other idle object destroyed");
        assertEquals(atCloseReturn, c.destroys.get(), "destroyed after close() returned, not at a release: "
                + c.destroyedOn);
        pool.release(got);
        assertEquals(3, c.destroys.get(), "each object destroyed once");
        assertEquals(3, pool.stats().created(), "an object created after close(): " + pool.stats());
        assertEquals(0, pool.stats().inUse());
    }
}
