package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolClosedException;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A closed buffer pool names itself in the exception of an acquire or a lease, whatever the
 * size asked for, not the class pool that refused (whose name the user never chose); that one's
 * exception is the cause. And it says it is closed as soon as an acquire says so.
 */
class BufferPoolClosedTest {

    @Test
    void aClosedBufferPoolNamesItselfInItsClosedException() {
        for (BufferPoolBuilder<?> b : List.of(BufferPool.bytes(), BufferPool.heapBuffers(), BufferPool.directBuffers())) {
            BufferPool<?> pool = b.name("net").build();
            pool.close();
            for (Executable call : List.<Executable>of(() -> pool.acquire(10), () -> pool.lease(10),
                    () -> pool.acquire(1 << 20), () -> pool.lease(1 << 20), () -> pool.acquire(0))) {
                PoolClosedException e = assertThrows(PoolClosedException.class, call);
                assertTrue(e.getMessage().startsWith("pool 'net' is closed"), e.getMessage());
                PoolClosedException cause = assertInstanceOf(PoolClosedException.class, e.getCause());
                assertTrue(cause.getMessage().startsWith("pool 'net-"), cause.getMessage());
            }
        }
    }

    @Test
    void anOutOfRangeSizeIsRefusedAsSuchEvenWhenClosed() {
        BufferPool<ByteBuffer> pool = BufferPool.directBuffers().name("net").build();
        pool.close();
        assertThrows(IllegalArgumentException.class, () -> pool.acquire(-1));
        assertThrows(IllegalArgumentException.class, () -> pool.lease(Integer.MAX_VALUE));
    }

    /**
     * isClosed() says whether close() was called: a thread whose acquire met a closed class
     * while close() was still closing the others (217 classes, class 0 closed first) read false
     * there, in most rounds.
     */
    @Test
    void anAcquireThatMeetsTheCloseFindsThePoolClosed() throws Exception {
        int rounds = 20;
        AtomicInteger contradictions = new AtomicInteger();
        for (int r = 0; r < rounds; r++) {
            BufferPool<byte[]> pool = BufferPool.bytes().minClassSize(8).maxClassSize(1 << 30)
                    .classesPerDoubling(8).budget(1 << 20).build();
            CountDownLatch running = new CountDownLatch(1);
            AtomicBoolean stop = new AtomicBoolean();
            Thread prober = new Thread(() -> {
                running.countDown();
                while (!stop.get()) {
                    try {
                        pool.release(pool.acquire(8));
                    } catch (PoolClosedException e) {
                        if (!pool.isClosed()) {
                            contradictions.incrementAndGet();
                        }
                        return;
                    }
                }
            }, "prober");
            prober.start();
            assertTrue(running.await(20, TimeUnit.SECONDS));
            try {
                pool.close();
            } finally {
                stop.set(true);
                prober.join(20_000);
            }
        }
        assertEquals(0, contradictions.get(), "rounds (of " + rounds + ") in which acquire() threw "
                + "PoolClosedException and isClosed() then returned false");
    }
}
