package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Lease;
import io.github.stripedpool.PoolClosedException;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@link BufferPool#lease(int)}: the buffer of the class, in the state acquire gives, back to its
 * class at close; a second close, a use after close, an invalidation, an oversized lease, bad
 * sizes, a closed pool. A lease never closed under leak detection: {@link BufferPoolLeakTest}.
 */
class BufferPoolLeaseTest {
    @Test
    void aLeaseHandsOutItsClassBufferAndItsCloseKeepsItForTheNext() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().build()) {
            byte[] first;
            try (Lease<byte[]> lease = pool.lease(1500)) {
                first = lease.get();
                assertEquals(2048, first.length);
            }
            assertEquals(1, pool.stats().classStats(5).idle(), pool.stats().toString());
            try (Lease<byte[]> again = pool.lease(2000)) {
                assertSame(first, again.get(), "the class's idle buffer, from the thread's own slot");
            }
            assertEquals(2, pool.stats().classStats(5).released());
        }
    }

    @Test
    void aLeasedByteBufferHasTheLimitAskedForAndComesBackCleared() {
        for (BufferPoolBuilder<ByteBuffer> b : java.util.List.of(BufferPool.heapBuffers(), BufferPool.directBuffers())) {
            try (BufferPool<ByteBuffer> pool = b.build()) {
                ByteBuffer first;
                try (Lease<ByteBuffer> lease = pool.lease(3000)) {
                    first = lease.get();
                    assertEquals(0, first.position());
                    assertEquals(3000, first.limit());
                    assertEquals(4096, first.capacity());
                    first.position(100).limit(200); // left as a careless user leaves it
                }
                try (Lease<ByteBuffer> again = pool.lease(2500)) {
                    assertSame(first, again.get());
                    assertEquals(0, again.get().position());
                    assertEquals(2500, again.get().limit());
                }
            }
        }
    }

    @Test
    void aSecondCloseThrowsAndTheBufferIsKeptOnce() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().build()) {
            Lease<byte[]> lease = pool.lease(100);
            lease.close();
            assertThrows(IllegalStateException.class, lease::close);
            assertThrows(IllegalStateException.class, lease::get, "used after close");
            assertEquals(1, pool.stats().classStats(1).idle(), pool.stats().toString());
            try (Lease<byte[]> a = pool.lease(100); Lease<byte[]> b = pool.lease(100)) {
                assertNotSame(a.get(), b.get(), "one buffer handed out twice");
            }
        }
    }

    @Test
    void invalidateDropsTheBufferAndFreesADirectOneAtOnce() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().build()) {
            pool.release(pool.acquire(3000)); // the class pool made: its first buffer is counted below
            ByteBuffer kept = pool.acquire(3000);
            Lease<ByteBuffer> lease = pool.lease(3000); // a new buffer: the idle one is held
            long leased = DirectBufferFreeTest.directBytes();
            lease.invalidate();
            long after = DirectBufferFreeTest.directBytes();
            // At least: the counter is the JVM's, and a cleaner may free another test's buffer meanwhile.
            assertTrue(leased - after >= 4096, "freed at the invalidation: " + leased + " -> " + after);
            lease.close(); // the close of the block: does nothing
            assertThrows(IllegalStateException.class, lease::close);
            pool.release(kept);
            BufferPoolStats s = pool.stats();
            assertEquals(1, s.classStats(6).invalidated(), s.toString());
            assertEquals(1, s.classStats(6).idle(), s.toString());
        }
    }

    @Test
    void anOversizedLeaseIsCountedAndDroppedAtItsClose() {
        try (BufferPool<ByteBuffer> pool = BufferPool.heapBuffers().build()) {
            try (Lease<ByteBuffer> lease = pool.lease(100_000)) {
                assertEquals(100_000, lease.get().capacity());
                assertEquals(100_000, lease.get().limit());
            }
            Lease<ByteBuffer> invalidated = pool.lease(70_000);
            invalidated.invalidate();
            BufferPoolStats s = pool.stats();
            assertEquals(2, s.oversizedAcquired(), s.toString());
            assertEquals(2, s.oversizedReleased(), "a closed and an invalidated lease: " + s);
            assertEquals(0, s.oversizedStats().idle(), s.toString());
        }
    }

    @Test
    void badSizesAndAClosedPoolThrowAndLeaveNothingOut() {
        BufferPool<byte[]> pool = BufferPool.bytes().build();
        assertThrows(IllegalArgumentException.class, () -> pool.lease(-1));
        assertThrows(IllegalArgumentException.class, () -> pool.lease(Integer.MAX_VALUE));
        try (Lease<byte[]> zero = pool.lease(0)) {
            assertEquals(64, zero.get().length);
        }
        pool.close();
        assertThrows(PoolClosedException.class, () -> pool.lease(100));
        assertThrows(PoolClosedException.class, () -> pool.lease(1 << 20));
        BufferPoolStats s = pool.stats();
        assertEquals(0, s.oversizedAcquired(), s.toString());
        for (int i = 0; i < s.classCount(); i++) {
            assertEquals(0, s.classStats(i).inUse(), s.toString());
        }
    }

    @Test
    void aLeaseClosedAfterThePoolClosedDropsItsBufferAndFreesIt() {
        BufferPool<ByteBuffer> pool = BufferPool.directBuffers().build();
        Lease<ByteBuffer> lease = pool.lease(3000);
        long held = DirectBufferFreeTest.directBytes();
        pool.close();
        lease.close();
        long after = DirectBufferFreeTest.directBytes();
        // At least: the counter is the JVM's, and a cleaner may free another test's buffer meanwhile.
        assertTrue(held - after >= 4096, "freed at the lease's close: " + held + " -> " + after);
        BufferPoolStats s = pool.stats();
        assertEquals(0, s.classStats(6).idle(), s.toString());
        assertEquals(0, s.classStats(6).inUse(), s.toString());
        assertEquals(1, s.classStats(6).dropped(), s.toString());
    }
}
