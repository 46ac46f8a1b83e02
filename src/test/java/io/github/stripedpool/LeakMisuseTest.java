package io.github.stripedpool;

import static io.github.stripedpool.LeakTesting.hasFrame;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Double release, release of a foreign object and use of a closed lease, in the tracked levels:
 * each throws the documented exception with both stack traces, and the pool never holds an
 * object twice.
 */
class LeakMisuseTest {
    private static Pool<Buffer> pool(LeakDetection level, AtomicInteger resets) {
        return Pool.builder(Buffer::new).name("misused").leakDetection(level)
                .leakSamplingInterval(1) // SAMPLED tracks every acquisition: deterministic
                .reset(b -> resets.incrementAndGet()).build();
    }

    private static void releaseFirst(Pool<Buffer> pool, Buffer b) {
        pool.release(b);
    }

    private static void releaseAgain(Pool<Buffer> pool, Buffer b) {
        pool.release(b);
    }

    @Test
    void doubleReleaseThrowsWithBothStacksAndPoolsTheObjectOnce() {
        for (LeakDetection level : new LeakDetection[] {LeakDetection.PARANOID, LeakDetection.SAMPLED}) {
            AtomicInteger resets = new AtomicInteger();
            Pool<Buffer> pool = pool(level, resets);
            Buffer b = pool.acquire();
            releaseFirst(pool, b);

            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> releaseAgain(pool, b));

            assertTrue(e.getMessage().contains("pool 'misused'")
                    && e.getMessage().contains("released twice"), e.getMessage());
            assertEquals("releaseAgain", e.getStackTrace()[0].getMethodName(),
                    "the exception's own stack is the second release, from the caller's frame on");
            if (level == LeakDetection.PARANOID) {
                assertInstanceOf(CallSite.class, e.getCause());
                assertTrue(e.getCause().getMessage().startsWith("released here"), e.getCause().getMessage());
                assertEquals("releaseFirst", e.getCause().getStackTrace()[0].getMethodName());
            } else {
                assertNull(e.getCause(), "SAMPLED records no release stack");
            }
            assertEquals(1, e.getSuppressed().length, "the acquisition site is attached too");
            assertTrue(hasFrame(e.getSuppressed()[0].getStackTrace(),
                    "doubleReleaseThrowsWithBothStacksAndPoolsTheObjectOnce"));

            assertEquals(1, resets.get(), level + ": the second release never reached the engine");
            PoolStats s = pool.stats();
            assertEquals(1, s.released(), s::toString);
            assertEquals(1, s.idle(), s::toString);
            Buffer first = pool.acquire();
            Buffer second = pool.acquire();
            assertSame(b, first);
            assertNotSame(first, second, level + ": the object was pooled once");
            pool.release(first);
            pool.release(second);
            pool.close();
        }
    }

    @Test
    void releasingAnObjectThePoolDidNotHandOutThrowsUnderParanoid() {
        AtomicInteger resets = new AtomicInteger();
        Pool<Buffer> pool = pool(LeakDetection.PARANOID, resets);
        Buffer stranger = new Buffer();

        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> pool.release(stranger));

        assertTrue(e.getMessage().contains("pool 'misused'")
                && e.getMessage().contains("did not hand out"), e.getMessage());
        assertEquals(0, resets.get());
        PoolStats s = pool.stats();
        assertEquals(0, s.released(), s::toString);
        assertEquals(0, s.idle(), s::toString);
        assertNotSame(stranger, pool.acquire(), "the foreign object was not pooled");
        pool.close();
    }

    @Test
    void anObjectFromAnotherPoolIsForeignToo() {
        Pool<Buffer> mine = pool(LeakDetection.PARANOID, new AtomicInteger());
        Pool<Buffer> theirs = pool(LeakDetection.PARANOID, new AtomicInteger());
        Buffer b = theirs.acquire();
        assertThrows(IllegalArgumentException.class, () -> mine.release(b));
        theirs.release(b); // still theirs to take back
        assertEquals(1, theirs.stats().idle());
        mine.close();
        theirs.close();
    }

    @Test
    void underSampledAnUntrackedForeignObjectIsPassedOnAsTheEngineWouldSeeIt() {
        Pool<Buffer> pool = Pool.builder(Buffer::new).leakDetection(LeakDetection.SAMPLED)
                .leakSamplingInterval(Integer.MAX_VALUE).build();
        pool.release(new Buffer());
        assertEquals(1, pool.stats().released());
        pool.close();
    }

    private static void closeLease(Lease<Buffer> lease) {
        lease.close();
    }

    @Test
    void aClosedLeaseThrowsOnGetAndCloseWithTheCloseSiteAsCause() {
        for (LeakDetection level : new LeakDetection[] {LeakDetection.PARANOID, LeakDetection.SAMPLED}) {
            AtomicInteger resets = new AtomicInteger();
            Pool<Buffer> pool = pool(level, resets);
            Lease<Buffer> lease = pool.lease();
            closeLease(lease);

            IllegalStateException onGet = assertThrows(IllegalStateException.class, lease::get);
            assertTrue(onGet.getMessage().contains("used after close()"), onGet.getMessage());
            assertTrue(onGet.getCause().getMessage().startsWith("lease closed here"));
            assertEquals("closeLease", onGet.getCause().getStackTrace()[0].getMethodName());

            IllegalStateException onClose = assertThrows(IllegalStateException.class, lease::close);
            assertTrue(onClose.getMessage().contains("closed twice"), onClose.getMessage());
            assertEquals("closeLease", onClose.getCause().getStackTrace()[0].getMethodName());

            assertEquals(1, resets.get(), level + ": released once");
            assertEquals(1, pool.stats().released());
            pool.close();
        }
    }

    @Test
    void anUntrackedLeaseStillThrowsButRecordsNoCloseSite() {
        Pool<Buffer> pool = Pool.builder(Buffer::new).leakDetection(LeakDetection.SAMPLED)
                .leakSamplingInterval(Integer.MAX_VALUE).build();
        Lease<Buffer> lease = pool.lease();
        lease.close();
        assertNull(assertThrows(IllegalStateException.class, lease::get).getCause());
        pool.close();
    }

    @Test
    void aReleaseAfterTheObjectWasAcquiredAgainIsAcceptedAsTheNewBorrowers() {
        // The limit of any identity check: once re-acquired, the object is legitimately out again.
        Pool<Buffer> pool = pool(LeakDetection.PARANOID, new AtomicInteger());
        Buffer b = pool.acquire();
        pool.release(b);
        assertSame(b, pool.acquire());
        pool.release(b);
        assertThrows(IllegalStateException.class, () -> pool.release(b));
        pool.close();
    }
}
