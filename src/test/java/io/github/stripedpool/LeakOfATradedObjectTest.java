package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Leak detection reports an object that another thread released to a stripe before the leaking
 * thread took it, with aging off: nothing but leak detection looks at it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeakOfATradedObjectTest {
    /** A pooled object nothing else keeps. */
    static final class Leaky {
        final byte[] payload = new byte[64];
    }

    /**
     * Thread A releases x to a stripe (its slot and spare entries are full: it holds nine), so
     * A's slot records x as the object it last released there (its double-release check); the
     * main thread acquires x from the stripe and leaks it. Only an aging cycle cleared that
     * record, and with aging off none ever runs: the leaked object stayed reachable from the
     * pool for as long as A lived, and was never reported.
     */
    @Test
    void aLeakedObjectIsNotKeptByTheRecordOfTheThreadThatReleasedItLast() throws Exception {
        leakAnObjectAnotherThreadReleasedToAStripe(false);
    }

    /** The same leak, with the record cleared by hand: what the test above must see. */
    @Test
    void theSameLeakIsReportedOnceTheRecordIsCleared() throws Exception {
        leakAnObjectAnotherThreadReleasedToAStripe(true);
    }

    private void leakAnObjectAnotherThreadReleasedToAStripe(boolean clearRecord) throws Exception {
        TestSupport.LeakReports reports = new TestSupport.LeakReports();
        Pool<Leaky> pool = Pool.builder(Leaky::new)
                .agingInterval(ChronoUnit.FOREVER.getDuration()).trimAboveHeap(1)
                .leakDetection(LeakDetection.PARANOID).onLeak(reports).name("pinned-leak").build();
        UnboundedPool<Leaky> engine = (UnboundedPool<Leaky>) ((LeakDetectingPool<Leaky>) pool).engine();
        CountDownLatch released = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread a = new Thread(() -> {
            try {
                holdNineAndReleaseThem(pool);
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                released.countDown();
            }
            try {
                finish.await(); // A stays alive, holding nothing
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "releaser");
        a.start();
        try {
            assertTrue(released.await(30, TimeUnit.SECONDS));
            assertEquals(null, failure.get());
            assertTrue(acquireTheStripesObjectAndLeakIt(pool, engine),
                    "precondition: the leaked object is the releasing thread's lastShared");
            if (clearRecord) {
                for (PrivateSlot s : engine.registry) {
                    s.lastShared = null;
                }
            }
            List<LeakReport> got = reports.await(1); // forces collections, fails at a deadline
            assertEquals(1, got.size());
        } finally {
            finish.countDown();
            a.join();
            pool.close();
        }
    }

    private static void holdNineAndReleaseThem(Pool<Leaky> pool) {
        Leaky[] held = new Leaky[PrivateSlot.SPARES + 2];
        for (int i = 0; i < held.length; i++) {
            held[i] = pool.acquire();
        }
        for (Leaky t : held) {
            pool.release(t);
        }
    }

    /** Acquires the one object in the stripes on this thread and drops it; true if it was A's lastShared. */
    private static boolean acquireTheStripesObjectAndLeakIt(Pool<Leaky> pool, UnboundedPool<Leaky> engine) {
        Object pinned = null;
        for (PrivateSlot s : engine.registry) {
            if (s.lastShared != null) {
                pinned = s.lastShared;
            }
        }
        Leaky x = pool.acquire(); // this thread's slot is empty: the stripes
        boolean same = x == pinned;
        x = null; // leaked: never released
        return same;
    }
}
