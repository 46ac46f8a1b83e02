package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * {@code Pool}'s promise for every pool, which {@link BufferPool#release} passes on: the same
 * buffer released twice in a row on one thread throws {@link IllegalStateException}. A buffer
 * whose first release dropped it (its class already keeps its share of the budget, a budget of
 * 0, an oversized buffer) used to go through a second time: dropped, freed and counted again.
 */
class BufferDoubleReleaseTest {

    @Test
    void aDoubleReleaseInARowOfABufferDroppedBeyondTheBudgetIsCaught() {
        // keep 1 of every class: 64 + 128 + ... + 1024
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().maxClassSize(1024).budget(2047 - 63 + 64)
                .name("dbl").build()) {
            ByteBuffer a = pool.acquire(1000);
            ByteBuffer b = pool.acquire(1000);
            pool.release(a); // kept
            pool.release(b); // beyond the class's keep: dropped and freed
            assertThrows(IllegalStateException.class, () -> pool.release(b),
                    "second release in a row, same thread\n" + pool.stats());
        }
    }

    @Test
    void aDoubleReleaseInARowWithBudgetZeroIsCaught() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().budget(0).name("dbl0").build()) {
            ByteBuffer b = pool.acquire(1000);
            pool.release(b);
            assertThrows(IllegalStateException.class, () -> pool.release(b),
                    "second release in a row, same thread\n" + pool.stats());
        }
    }

    @Test
    void aDoubleReleaseInARowOfAnOversizedBufferIsCaught() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().name("dblo").build()) {
            ByteBuffer b = pool.acquire(100_000);
            pool.release(b);
            assertThrows(IllegalStateException.class, () -> pool.release(b),
                    "second release in a row, same thread\n" + pool.stats());
        }
    }
}
