package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.LeakReport;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Leak detection passes through to the size classes; close drops idle buffers once. */
class BufferPoolLeakTest {
    private static final Duration GC_DEADLINE = Duration.ofSeconds(20);

    /** Forces collections until a report arrives, or fails at the deadline; never sleeps. */
    private static LeakReport awaitReport(LinkedBlockingQueue<LeakReport> reports) throws InterruptedException {
        long deadline = System.nanoTime() + GC_DEADLINE.toNanos();
        while (System.nanoTime() - deadline < 0) {
            System.gc();
            LeakReport r = reports.poll(20, TimeUnit.MILLISECONDS);
            if (r != null) {
                return r;
            }
        }
        return fail("no leak report within " + GC_DEADLINE);
    }

    /**
     * Acquires (or leases) and forgets a buffer, in a frame of its own so that no local keeps it.
     */
    private static void leakOne(BufferPool<ByteBuffer> pool, boolean lease) {
        (lease ? pool.lease(3000).get() : pool.acquire(3000)).put(0, (byte) 1);
    }

    /** A buffer acquired and never released, or leased and the lease never closed. */
    @ParameterizedTest(name = "leased: {0}")
    @ValueSource(booleans = {false, true})
    void aBufferNeverReleasedIsReportedWithItsClassPoolAndTheAcquiringStack(boolean lease) throws InterruptedException {
        LinkedBlockingQueue<LeakReport> reports = new LinkedBlockingQueue<>();
        try (BufferPool<ByteBuffer> pool = BufferPool.heapBuffers().name("leaky")
                .leakDetection(LeakDetection.PARANOID).onLeak(reports::add).build()) {
            leakOne(pool, lease);
            LeakReport r = awaitReport(reports);
            assertEquals("leaky-4096", r.poolName());
            boolean fromLeakOne = false;
            for (StackTraceElement f : r.stackTrace()) {
                fromLeakOne |= f.getMethodName().equals("leakOne");
            }
            assertTrue(fromLeakOne, r.toString());
            assertEquals(1, pool.stats().classStats(6).leaks());
        }
    }

    @Test
    void paranoidRejectsAForeignBufferOfAClassSizeAndADoubleRelease() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().leakDetection(LeakDetection.PARANOID).build()) {
            assertThrows(IllegalArgumentException.class, () -> pool.release(new byte[64]));
            byte[] b = pool.acquire(64);
            pool.release(b);
            assertThrows(IllegalStateException.class, () -> pool.release(b));
            assertEquals(64, pool.stats().idleBytes());
        }
    }

    @Test
    void closeDropsEveryIdleBufferOnce() {
        BufferPool<byte[]> pool = BufferPool.bytes().build();
        byte[][] held = {pool.acquire(64), pool.acquire(64), pool.acquire(1000), pool.acquire(70_000)};
        for (byte[] b : held) {
            pool.release(b);
        }
        assertEquals(2 * 64 + 1024, pool.stats().idleBytes());
        pool.close();
        pool.close();
        BufferPoolStats s = pool.stats();
        assertEquals(0, s.idleBytes());
        assertEquals(2, s.classStats(0).dropped());
        assertEquals(1, s.classStats(4).dropped());
        long dropped = 0;
        for (int i = 0; i < s.classCount(); i++) {
            dropped += s.classStats(i).dropped();
            assertTrue(s.classStats(i).isClosed());
        }
        assertEquals(3, dropped);
        assertEquals(1, s.oversizedReleased());
    }
}
