package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolClosedException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Sizes at their extremes, what a released buffer may be, and the state a buffer comes in. */
class BufferPoolSizesTest {
    private static final int MAX = BufferPoolBuilder.DEFAULT_MAX_CLASS;

    /**
     * The figures {@code classesPerDoubling}'s Javadoc gives for 4 classes per doubling: the
     * class sizes add up to about three and a quarter times as much as the powers of two alone,
     * so the largest class keeps about three tenths as many buffers.
     */
    @Test
    void fourClassesPerDoublingKeepAboutThreeTenthsAsMany() {
        try (BufferPool<byte[]> one = BufferPool.bytes().name("steps-1").build();
                BufferPool<byte[]> four = BufferPool.bytes().classesPerDoubling(4).name("steps-4").build()) {
            BufferPoolStats a = one.stats();
            BufferPoolStats b = four.stats();
            double sizes = (double) sumOfClassSizes(b) / sumOfClassSizes(a);
            double keeps = (double) b.classKeeps(b.classCount() - 1) / a.classKeeps(a.classCount() - 1);
            assertTrue(sizes > 3.1 && sizes < 3.4, "the class sizes add up to " + sizes + " times as much");
            assertTrue(keeps > 0.25 && keeps < 0.35, "the largest class keeps " + keeps + " times as many");
        }
    }

    private static long sumOfClassSizes(BufferPoolStats s) {
        long sum = 0;
        for (int i = 0; i < s.classCount(); i++) {
            sum += s.classSize(i);
        }
        return sum;
    }

    @Test
    void acquireReturnsTheSmallestClassThatFits() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().build()) {
            int[][] cases = {
                {0, 64}, {1, 64}, {63, 64}, {64, 64}, {65, 128}, {127, 128}, {128, 128},
                {129, 256}, {4095, 4096}, {4096, 4096}, {4097, 8192},
                {MAX - 1, MAX}, {MAX, MAX},
            };
            for (int[] c : cases) {
                byte[] b = pool.acquire(c[0]);
                assertEquals(c[1], b.length, "acquire(" + c[0] + ")");
                pool.release(b);
            }
            assertEquals(0, pool.stats().oversizedAcquired());
        }
    }

    /**
     * The pool finds the class of a power-of-two layout by a shorter path than the general
     * arithmetic of {@link SizeClasses}: both must agree for every size, acquired and released,
     * and reject the same buffers. Every size up to 16 KiB and each class size, its neighbours
     * and the extremes beyond, for several smallest and largest classes and steps per doubling.
     */
    @Test
    void everySizeGetsTheClassOfTheGeneralArithmeticOnAcquireAndRelease() {
        for (int steps : new int[] {1, 2, 4}) {
            for (int[] range : new int[][] {{64, 1 << 16}, {16, 1 << 14}, {8, 8}, {1 << 10, 1 << 20}}) {
                if (steps > range[0]) {
                    continue;
                }
                SizeClasses c = new SizeClasses(range[0], range[1], steps, 1 << 20);
                try (BufferPool<byte[]> pool = BufferPool.bytes().minClassSize(range[0])
                        .maxClassSize(range[1]).classesPerDoubling(steps).build()) {
                    java.util.List<Integer> sizes = new java.util.ArrayList<>();
                    for (int n = 0; n <= Math.min(1 << 14, range[1] + 1); n++) {
                        sizes.add(n);
                    }
                    for (int i = 0; i < c.count(); i++) {
                        sizes.add(c.size(i) - 1);
                        sizes.add(c.size(i));
                        sizes.add(c.size(i) + 1);
                    }
                    String where = "steps " + steps + ", classes " + range[0] + " to " + range[1];
                    for (int n : sizes) {
                        int i = c.indexFor(n, "p");
                        byte[] b = pool.acquire(n);
                        assertEquals(i == c.count() ? n : c.size(i), b.length, where + ": acquire(" + n + ")");
                        pool.release(b);
                        boolean isClass = n <= range[1] && n == c.size(Math.min(i, c.count() - 1));
                        if (!isClass && n <= range[1]) {
                            byte[] foreign = new byte[n];
                            assertThrows(IllegalArgumentException.class, () -> pool.release(foreign),
                                    where + ": release of " + n + " bytes");
                        }
                    }
                    assertEquals(0, pool.stats().oversizedReleased() - pool.stats().oversizedAcquired());
                }
            }
        }
    }

    @Test
    void acquireAboveTheLargestClassGivesAnExactBufferThatIsNotKept() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().build()) {
            byte[] b = pool.acquire(MAX + 1);
            assertEquals(MAX + 1, b.length);
            pool.release(b);
            byte[] again = pool.acquire(MAX + 1);
            assertNotSame(b, again, "an oversized buffer must not be kept");
            pool.release(again);
            BufferPoolStats s = pool.stats();
            assertEquals(2, s.oversizedAcquired());
            assertEquals(2, s.oversizedReleased());
            assertEquals(0, s.idleBytes());
        }
    }

    @Test
    void acquireRejectsNegativeAndUnallocatableSizes() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().name("sizes").build()) {
            for (int bad : new int[] {-1, Integer.MIN_VALUE, Integer.MAX_VALUE, SizeClasses.MAX_REQUEST + 1}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> pool.acquire(bad), "acquire(" + bad + ")");
                assertTrue(e.getMessage().contains("'sizes'") && e.getMessage().contains("ask for 0 to "),
                        e.getMessage());
            }
        }
    }

    @Test
    void theLargestRequestIsOversizedNotRejected() {
        // Not acquired: it would allocate 2 GiB. The class lookup is what decides.
        SizeClasses c = new SizeClasses(64, MAX, 1 << 20);
        assertEquals(c.count(), c.indexFor(SizeClasses.MAX_REQUEST, "p"));
        assertEquals(c.count(), c.indexFor(MAX + 1, "p"));
        assertEquals(c.count() - 1, c.indexFor(MAX, "p"));
        SizeClasses widest = new SizeClasses(1, 1 << 30, 0);
        assertEquals(31, widest.count());
        assertEquals(30, widest.indexFor(1 << 30, "p"));
        assertEquals(31, widest.indexFor(SizeClasses.MAX_REQUEST, "p"));
        assertEquals(0, widest.indexFor(0, "p"));
        assertEquals(1, widest.indexFor(2, "p"));
        assertEquals(2, widest.indexFor(3, "p"));
    }

    @Test
    void releaseRejectsABufferWhoseSizeIsNoClassSize() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().name("classes").build()) {
            for (int size : new int[] {0, 1, 32, 63, 65, 100, MAX - 1}) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> pool.release(new byte[size]), "release of " + size + " bytes");
                assertTrue(e.getMessage().contains("none of its class sizes (64 to " + MAX), e.getMessage());
            }
            assertThrows(NullPointerException.class, () -> pool.release(null));
            assertEquals(0, pool.stats().idleBytes());
        }
    }

    @Test
    void releaseRejectsABufferOfAnotherKind() {
        try (BufferPool<ByteBuffer> direct = BufferPool.directBuffers().build();
                BufferPool<ByteBuffer> heap = BufferPool.heapBuffers().build()) {
            assertThrows(IllegalArgumentException.class, () -> direct.release(ByteBuffer.allocate(64)));
            assertThrows(IllegalArgumentException.class, () -> heap.release(ByteBuffer.allocateDirect(64)));
            ByteBuffer b = heap.acquire(64);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> heap.release(b.asReadOnlyBuffer()));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            heap.release(b);
        }
    }

    /**
     * A heap view that does not cover its whole array is no buffer the pool made: kept, it
     * would share its memory with whoever holds the array. A view of a class size was once
     * kept, and handed to the next borrower of that class.
     */
    @Test
    void releaseRejectsAHeapViewThatDoesNotCoverItsWholeArray() {
        try (BufferPool<ByteBuffer> heap = BufferPool.heapBuffers().name("views").build()) {
            ByteBuffer whole = heap.acquire(4096);
            ByteBuffer[] views = {whole.slice(1024, 2048), whole.slice(0, 2048),
                    ByteBuffer.wrap(new byte[4096], 100, 10).slice(), ByteBuffer.wrap(new byte[8192], 0, 4096).slice()};
            for (ByteBuffer view : views) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        () -> heap.release(view), "a view of capacity " + view.capacity());
                assertTrue(e.getMessage().contains("not a view of it"), e.getMessage());
            }
            assertEquals(0, heap.stats().idleBytes(), "nothing was kept");
            heap.release(whole);
            assertSame(whole, heap.acquire(3000), "the buffer itself is kept");
        }
    }

    /**
     * A writable view of a direct buffer cannot be told apart without tracking, and kept, it
     * would be handed out over freed memory once its parent is dropped: PARANOID rejects it
     * before anything is kept, dropped or freed.
     */
    @Test
    void paranoidRejectsAViewOfADirectBufferBeforeAnythingIsFreed() {
        try (BufferPool<ByteBuffer> direct = BufferPool.directBuffers().name("direct-views")
                .leakDetection(io.github.stripedpool.LeakDetection.PARANOID).build()) {
            ByteBuffer whole = direct.acquire(4096);
            for (ByteBuffer view : new ByteBuffer[] {whole.slice(0, 2048), whole.duplicate()}) {
                assertThrows(IllegalArgumentException.class, () -> direct.release(view),
                        "a view of capacity " + view.capacity());
            }
            assertEquals(0, direct.stats().idleBytes(), "nothing was kept");
            whole.put(4095, (byte) 7);
            assertEquals(7, whole.get(4095), "the buffer's memory is still there");
            direct.release(whole);
        }
    }

    @Test
    void aByteBufferComesClearedWithItsLimitAtTheSizeAskedFor() {
        for (BufferPoolBuilder<ByteBuffer> kind : java.util.List.of(BufferPool.heapBuffers(), BufferPool.directBuffers())) {
            try (BufferPool<ByteBuffer> pool = kind.build()) {
                ByteBuffer b = pool.acquire(1000);
                assertEquals(0, b.position());
                assertEquals(1000, b.limit());
                assertEquals(1024, b.capacity());
                b.order(ByteOrder.LITTLE_ENDIAN).position(10).limit(20).mark();
                pool.release(b);
                ByteBuffer again = pool.acquire(600);
                assertSame(b, again, "the same thread gets its buffer back");
                assertEquals(0, again.position());
                assertEquals(600, again.limit());
                assertEquals(ByteOrder.BIG_ENDIAN, again.order());
                assertThrows(java.nio.InvalidMarkException.class, again::reset);
                pool.release(again);
                ByteBuffer big = pool.acquire(MAX + 5);
                assertEquals(MAX + 5, big.capacity());
                assertEquals(MAX + 5, big.limit());
                pool.release(big);
            }
        }
    }

    @Test
    void zeroOnReleaseClearsEveryByte() {
        try (BufferPool<byte[]> zeroing = BufferPool.bytes().zeroOnRelease(true).build();
                BufferPool<ByteBuffer> direct = BufferPool.directBuffers().zeroOnRelease(true).build()) {
            byte[] b = zeroing.acquire(100);
            java.util.Arrays.fill(b, (byte) 7);
            zeroing.release(b);
            byte[] again = zeroing.acquire(100);
            assertSame(b, again);
            assertArrayEquals(new byte[128], again);
            zeroing.release(again);

            ByteBuffer d = direct.acquire(100);
            while (d.hasRemaining()) {
                d.put((byte) 7);
            }
            d.clear().put(127, (byte) 7);
            direct.release(d);
            ByteBuffer d2 = direct.acquire(128);
            assertSame(d, d2);
            for (int i = 0; i < 128; i++) {
                assertEquals(0, d2.get(i), "byte " + i);
            }
            direct.release(d2);
        }
    }

    @Test
    void withoutZeroingABufferKeepsItsBytes() {
        // Zeroing is off by default: a cost only those who need it pay.
        try (BufferPool<byte[]> pool = BufferPool.bytes().build()) {
            byte[] b = pool.acquire(100);
            b[5] = 9;
            pool.release(b);
            byte[] again = pool.acquire(100);
            assertSame(b, again);
            assertEquals(9, again[5]);
            pool.release(again);
        }
    }

    @Test
    void builderRejectsBadSettings() {
        for (int bad : new int[] {0, -1, 3, 100, 1 << 31, (1 << 30) + 1}) {
            assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().minClassSize(bad));
            assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().maxClassSize(bad));
        }
        assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().budget(-1));
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BufferPool.bytes().minClassSize(1024).maxClassSize(512).build());
        assertTrue(e.getMessage().contains("minClassSize (1024) is above maxClassSize (512)"), e.getMessage());
        assertThrows(NullPointerException.class, () -> BufferPool.bytes().name(null));
        assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().name("a\nb").build());
    }

    @Test
    void oneClassPoolsWork() {
        try (BufferPool<byte[]> pool = BufferPool.bytes().minClassSize(1).maxClassSize(1).budget(10).build()) {
            assertEquals(1, pool.acquire(0).length);
            assertEquals(1, pool.acquire(1).length);
            assertEquals(2, pool.acquire(2).length);
            assertEquals(1, pool.stats().oversizedAcquired());
            assertEquals(10, pool.stats().classKeeps(0));
        }
    }

    @Test
    void afterCloseAcquireThrowsAndReleaseDrops() {
        BufferPool<byte[]> pool = BufferPool.bytes().build();
        byte[] held = pool.acquire(64);
        pool.close();
        assertTrue(pool.isClosed());
        assertThrows(PoolClosedException.class, () -> pool.acquire(64));
        assertThrows(PoolClosedException.class, () -> pool.acquire(MAX + 1));
        pool.release(held);
        assertEquals(1, pool.stats().classStats(0).dropped());
        assertEquals(0, pool.stats().idleBytes());
        pool.close();
    }
}
