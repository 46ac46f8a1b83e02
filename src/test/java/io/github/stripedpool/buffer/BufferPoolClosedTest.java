package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolClosedException;
import java.nio.ByteBuffer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A closed buffer pool names itself in the exception of an acquire or a lease, whatever the
 * size asked for, not the class pool that refused (whose name the user never chose); that one's
 * exception is the cause.
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
}
