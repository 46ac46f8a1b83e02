package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Reset as a security property: a borrower writes a secret into a pooled buffer and releases it,
 * and no later borrower, on any thread, by any path the object can take back out of the pool,
 * ever observes it. The precedent is Jetty's "JetLeak" (CVE-2015-2080), where a reused buffer
 * leaked one request's bytes into another's response.
 *
 * <p>Each test drives the object down one path: the releasing thread's private slot, the shared
 * stripe, a steal from another thread's stripe, the victim pass after an aging cycle, the slot
 * of a thread that died, a reset that throws (the object must be destroyed and never handed out
 * again), and a closed pool (reset still runs before the object is destroyed). The pool counters
 * confirm that the intended path was taken.
 */
class ResetSecurityTest {
    private static final byte[] SECRET = "card=4111-1111-1111-1111".getBytes(StandardCharsets.US_ASCII);

    static final class Buffer {
        final byte[] bytes = new byte[64];
        final AtomicInteger destroyed = new AtomicInteger();

        void writeSecret() {
            System.arraycopy(SECRET, 0, bytes, 0, SECRET.length);
        }

        boolean isClean() {
            for (byte b : bytes) {
                if (b != 0) {
                    return false;
                }
            }
            return true;
        }
    }

    private final AtomicBoolean failNextReset = new AtomicBoolean();

    /** One stripe unless said otherwise; aging only when a test calls {@link #age}. */
    private UnboundedPool<Buffer> pool(int maxIdle, int stripes) {
        return (UnboundedPool<Buffer>) Pool.builder(Buffer::new)
                .reset(b -> {
                    if (failNextReset.getAndSet(false)) {
                        throw new IllegalStateException("reset failed");
                    }
                    Arrays.fill(b.bytes, (byte) 0);
                })
                .destroy(b -> b.destroyed.incrementAndGet())
                .maxIdle(maxIdle)
                .stripes(stripes)
                .agingInterval(Duration.ofDays(1))
                .name("secrets")
                .build();
    }

    /**
     * Runs one aging cycle now. The time passed is far in the future, so the collector's own
     * clock (whose times are all earlier) never starts a cycle during the test.
     */
    private static void age(UnboundedPool<?> pool) {
        pool.onGarbageCollection(System.nanoTime() + TimeUnit.DAYS.toNanos(2));
    }

    private static <T> T onNewThread(Callable<T> task) throws Exception {
        FutureTask<T> f = new FutureTask<>(task);
        Thread t = new Thread(f, "borrower");
        t.start();
        t.join(TimeUnit.SECONDS.toMillis(30));
        assertFalse(t.isAlive(), "borrower thread did not finish");
        try {
            return f.get();
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
    }

    private static Buffer borrowWriteRelease(Pool<Buffer> pool) {
        Buffer b = pool.acquire();
        b.writeSecret();
        pool.release(b);
        return b;
    }

    @Test
    void privateSlotReuseSeesNoSecret() {
        UnboundedPool<Buffer> pool = pool(8, 1);
        Buffer b = borrowWriteRelease(pool);
        Buffer again = pool.acquire();
        assertSame(b, again, "the same thread reuses its private-slot object");
        assertEquals(1, pool.stats().privateHits());
        assertTrue(again.isClean(), "secret visible after a private-slot reuse");
    }

    @Test
    void stripeHandoffToAnotherThreadSeesNoSecret() throws Exception {
        UnboundedPool<Buffer> pool = pool(8, 1);
        Buffer parked = pool.acquire();
        Buffer b = pool.acquire();
        b.writeSecret();
        pool.release(parked); // fills this thread's private slot
        pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
        pool.release(b); // so this one goes to the stripe
        Buffer got = onNewThread(pool::acquire);
        assertSame(b, got, "the other thread takes the object from the stripe");
        assertEquals(1, pool.stats().homeHits());
        assertTrue(got.isClean(), "secret visible after a stripe hand-off");
    }

    @Test
    void stolenObjectSeesNoSecret() throws Exception {
        UnboundedPool<Buffer> pool = pool(8, 2);
        // First user of the pool: home stripe 0. The borrower thread is second: home stripe 1.
        Buffer parked = pool.acquire();
        Buffer b = pool.acquire();
        b.writeSecret();
        pool.release(parked);
        pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
        pool.release(b);
        Buffer got = onNewThread(pool::acquire);
        assertSame(b, got);
        assertEquals(1, pool.stats().stolenHits(), "taken by stealing from another stripe");
        assertTrue(got.isClean(), "secret visible after a steal");
    }

    @Test
    void victimAfterAgingSeesNoSecret() throws Exception {
        UnboundedPool<Buffer> pool = pool(8, 1);
        Buffer parked = pool.acquire();
        Buffer b = pool.acquire();
        b.writeSecret();
        pool.release(parked);
        pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
        pool.release(b);
        age(pool); // one cycle: b is now a victim, not yet dropped
        Buffer got = onNewThread(pool::acquire);
        assertSame(b, got);
        assertEquals(1, pool.stats().victimHits(), "taken by the victim pass");
        assertTrue(got.isClean(), "secret visible after aging");
    }

    @Test
    void objectOfADeadThreadSeesNoSecret() throws Exception {
        UnboundedPool<Buffer> pool = pool(8, 1);
        // The borrower parks its object in its private slot and dies; aging moves it to the stripe.
        Buffer b = onNewThread(() -> borrowWriteRelease(pool));
        age(pool);
        Buffer got = pool.acquire();
        assertSame(b, got, "aging returned the dead thread's object to circulation");
        assertTrue(got.isClean(), "secret visible after a dead thread's slot was emptied");
    }

    @Test
    void throwingResetDestroysTheObjectAndNeverHandsItOut() throws Exception {
        QuietPoolLog quiet = new QuietPoolLog(); // the failed reset is logged, as it should be
        try {
            UnboundedPool<Buffer> pool = pool(8, 1);
            Buffer b = pool.acquire();
            b.writeSecret();
            failNextReset.set(true);
            pool.release(b);
            assertEquals(1, b.destroyed.get(), "an object whose reset threw is destroyed");
            assertEquals(1, pool.stats().hookFailures());
            // More acquisitions than the pool could hold, on two threads: none may return b.
            List<Buffer> here = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                here.add(pool.acquire());
            }
            List<Buffer> there = onNewThread(() -> {
                List<Buffer> l = new ArrayList<>();
                for (int i = 0; i < 20; i++) {
                    l.add(pool.acquire());
                }
                return l;
            });
            for (Buffer x : here) {
                assertNotSame(b, x, "a destroyed object was handed out again");
            }
            for (Buffer x : there) {
                assertNotSame(b, x, "a destroyed object was handed out again on another thread");
            }
            assertEquals(41, pool.stats().created(), "b and 40 new objects");
        } finally {
            quiet.close();
        }
    }

    @Test
    void releaseToAClosedPoolResetsBeforeDestroying() {
        UnboundedPool<Buffer> pool = pool(8, 1);
        Buffer idle = pool.acquire();
        Buffer inUse = pool.acquire();
        idle.writeSecret();
        inUse.writeSecret();
        pool.release(idle);
        pool.close();
        assertEquals(1, idle.destroyed.get(), "close destroys idle objects");
        assertTrue(idle.isClean(), "the idle object was reset when it was released");
        pool.release(inUse);
        assertEquals(1, inUse.destroyed.get(), "an object released after close is destroyed");
        assertTrue(inUse.isClean(), "reset runs before destroy, also on a closed pool");
        assertThrows(PoolClosedException.class, pool::acquire);
    }

    @Test
    void noBorrowerOnAnyThreadEverSeesAnotherBorrowersBytes() throws Exception {
        UnboundedPool<Buffer> pool = (UnboundedPool<Buffer>) Pool.builder(Buffer::new)
                .reset(b -> Arrays.fill(b.bytes, (byte) 0))
                .maxIdle(8)
                .agingInterval(Duration.ZERO)
                .name("secrets-concurrent")
                .build();
        int threads = 6;
        int cycles = 50_000;
        AtomicLong dirty = new AtomicLong();
        List<Thread> ts = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread th = new Thread(() -> {
                for (int i = 0; i < cycles; i++) {
                    Buffer b = pool.acquire();
                    if (!b.isClean()) {
                        dirty.incrementAndGet();
                    }
                    b.writeSecret();
                    if (i % 3 == 0) {
                        // Hold a second buffer now and then, so that objects move through the
                        // stripes and between threads, not only through private slots.
                        Buffer c = pool.acquire();
                        if (!c.isClean()) {
                            dirty.incrementAndGet();
                        }
                        c.writeSecret();
                        pool.release(c);
                    }
                    pool.release(b);
                    if (i % 10_000 == 0) {
                        System.gc(); // aging interval zero: each collection ages the pool
                    }
                }
            });
            ts.add(th);
            th.start();
        }
        for (Thread th : ts) {
            th.join(TimeUnit.SECONDS.toMillis(60));
            assertFalse(th.isAlive(), "a borrower thread did not finish");
        }
        assertEquals(0, dirty.get(), "borrowers saw a previous borrower's bytes");
        PoolStats s = pool.stats();
        assertTrue(s.homeHits() + s.stolenHits() + s.victimHits() > 0, "objects crossed threads: " + s);
        pool.close();
    }
}
