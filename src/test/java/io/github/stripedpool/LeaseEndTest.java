package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.buffer.BufferPool;
import org.junit.jupiter.api.Test;

/**
 * What a lease says once it has ended: a call after {@code close()} and a call after
 * {@code invalidate()} name what happened to the object (gone back to the pool, or dropped), and
 * under leak detection the cause is the stack of the call that ended the lease.
 */
class LeaseEndTest {

    @Test
    void aCloseAfterInvalidateAndTheBlocksCloseSaysTheObjectWasDroppedNotReleased() {
        try (Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).name("inv").build()) {
            Lease<StringBuilder> lease = pool.lease();
            lease.invalidate();
            lease.close(); // the end of the try-with-resources block: does nothing
            IllegalStateException e = assertThrows(IllegalStateException.class, lease::close);
            assertFalse(e.getMessage().contains("released at the first close()"), e.getMessage());
            assertTrue(e.getMessage().contains("after invalidate()"), e.getMessage());
            assertTrue(e.getMessage().contains("'inv'"), e.getMessage());
            assertEquals(1, pool.stats().invalidated(), pool.stats().toString());
            assertEquals(0, pool.stats().released() - pool.stats().invalidated(), pool.stats().toString());
            assertTrue(lease.toString().contains("invalidated"), lease.toString());
        }
    }

    @Test
    void aGetAfterInvalidateSaysTheObjectWasDroppedNotGivenBack() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().name("inv-buf").build()) {
            Lease<byte[]> lease = pool.lease(100);
            lease.invalidate();
            IllegalStateException e = assertThrows(IllegalStateException.class, lease::get);
            assertFalse(e.getMessage().contains("went back to the pool"), e.getMessage());
            assertTrue(e.getMessage().contains("used after invalidate()"), e.getMessage());
            assertTrue(e.getMessage().contains("dropped"), e.getMessage());
        }
    }

    @Test
    void eachCallAfterTheEndNamesHowTheLeaseEnded() {
        try (Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).name("ends").build()) {
            Lease<StringBuilder> closed = pool.lease();
            closed.close();
            assertMessage(closed::get, "used after close(): the object already went back to the pool");
            assertMessage(closed::close, "closed twice: the object was released at the first close()");
            assertMessage(closed::invalidate, "invalidated after close()");
            assertEquals("Lease[pool=ends, closed]", closed.toString());

            Lease<StringBuilder> invalidated = pool.lease();
            invalidated.invalidate();
            assertMessage(invalidated::invalidate, "invalidated after invalidate(): the object was already dropped");
            assertMessage(invalidated::get, "used after invalidate()");
            invalidated.close(); // still the one close that does nothing
            assertMessage(invalidated::close, "closed again after invalidate()");
            assertEquals(1, pool.stats().released() - pool.stats().invalidated(), pool.stats().toString());
        }
    }

    /**
     * Under leak detection every lease is tracked, and the exception of a call after the lease
     * ended has the stack of the call that ended it as its cause: the invalidate() or the first
     * close(), never the close() that follows an invalidate() and does nothing.
     */
    @Test
    void underParanoidTheCauseIsTheStackOfTheCallThatEndedTheLease() {
        try (Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).name("inv-paranoid")
                .leakDetection(LeakDetection.PARANOID).build()) {
            Lease<StringBuilder> lease = pool.lease();
            lease.invalidate();
            assertEndedAt(assertThrows(IllegalStateException.class, lease::get), "lease invalidated here");
            assertEndedAt(assertThrows(IllegalStateException.class, lease::invalidate), "lease invalidated here");
            lease.close();
            assertEndedAt(assertThrows(IllegalStateException.class, lease::close), "lease invalidated here");

            Lease<StringBuilder> closed = pool.lease();
            closed.close();
            assertEndedAt(assertThrows(IllegalStateException.class, closed::invalidate), "lease closed here");
            assertEndedAt(assertThrows(IllegalStateException.class, closed::get), "lease closed here");
        }
    }

    /** Untracked leases record no stack: their exceptions have no cause. */
    @Test
    void anUntrackedLeaseGivesNoCause() {
        try (Pool<StringBuilder> pool = Pool.builder(StringBuilder::new)
                .leakDetection(LeakDetection.DISABLED).build()) {
            Lease<StringBuilder> lease = pool.lease();
            lease.invalidate();
            assertNull(assertThrows(IllegalStateException.class, lease::get).getCause());
        }
    }

    private static void assertMessage(org.junit.jupiter.api.function.Executable call, String part) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call);
        assertTrue(e.getMessage().contains(part), () -> "expected \"" + part + "\" in: " + e.getMessage());
    }

    private static void assertEndedAt(IllegalStateException e, String site) {
        assertNotNull(e.getCause(), () -> "no stack of where the lease ended: " + e);
        CallSite cause = assertInstanceOf(CallSite.class, e.getCause());
        assertTrue(cause.getMessage().startsWith(site), cause::getMessage);
    }
}
