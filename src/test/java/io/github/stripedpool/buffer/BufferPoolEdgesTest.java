package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.ChildJvm;
import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.LeakReport;
import io.github.stripedpool.PoolClosedException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The buffer pool's promises at their edges: buffers above the largest class under leak
 * detection, the largest budget, names at their limits, and the documented ranges of the
 * statistics.
 */
class BufferPoolEdgesTest {
    private static final int MAX = BufferPoolBuilder.DEFAULT_MAX_CLASS;
    private static final Duration GC_DEADLINE = Duration.ofSeconds(20);

    /**
     * PARANOID rejects a buffer the pool did not hand out: above the largest class too, and
     * before anything is freed, so that the caller's own direct memory is not freed under it.
     */
    @Test
    void paranoidRejectsAForeignOversizedBufferBeforeFreeingIt() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers()
                .leakDetection(LeakDetection.PARANOID).build()) {
            int size = 1 << 20;
            ByteBuffer mine = ByteBuffer.allocateDirect(size); // never from the pool
            long before = DirectBufferFreeTest.directBytes();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pool.release(mine));
            assertTrue(e.getMessage().contains("did not hand out"), e.getMessage());
            assertTrue(before - DirectBufferFreeTest.directBytes() < size, "the pool freed the native memory of a buffer "
                    + "it never handed out (direct bytes " + before + " -> " + DirectBufferFreeTest.directBytes() + ")");
            mine.put(size - 1, (byte) 1); // still the caller's
            assertEquals(0, pool.stats().oversizedReleased(), pool.stats().toString());
        }
    }

    /** PARANOID catches every double release, of an oversized buffer too, and counts it once. */
    @Test
    void paranoidCatchesTheDoubleReleaseOfAnOversizedBuffer() {
        for (BufferPool<?> any : new BufferPool<?>[] {
                BufferPool.bytes().leakDetection(LeakDetection.PARANOID).build(),
                BufferPool.directBuffers().leakDetection(LeakDetection.PARANOID).build()}) {
            @SuppressWarnings("unchecked")
            BufferPool<Object> pool = (BufferPool<Object>) any;
            try (pool) {
                Object b = pool.acquire(MAX + 1);
                pool.release(b);
                assertThrows(IllegalStateException.class, () -> pool.release(b),
                        "a second release of the same oversized buffer under PARANOID");
                BufferPoolStats s = pool.stats();
                assertEquals(1, s.oversizedAcquired(), s.toString());
                assertEquals(1, s.oversizedReleased(), s.toString());
            }
        }
    }

    /** Acquires and forgets an oversized buffer, in a frame of its own so that no local keeps it. */
    private static void leakOversized(BufferPool<byte[]> pool) {
        pool.acquire(MAX * 2)[0] = 1;
    }

    @Test
    void anOversizedBufferNeverReleasedIsReportedWithTheAcquiringStack() throws InterruptedException {
        LinkedBlockingQueue<LeakReport> reports = new LinkedBlockingQueue<>();
        try (BufferPool<byte[]> pool = BufferPool.bytes().name("big").leakDetection(LeakDetection.PARANOID)
                .onLeak(reports::add).build()) {
            leakOversized(pool);
            LeakReport r = null;
            long deadline = System.nanoTime() + GC_DEADLINE.toNanos();
            while (r == null && System.nanoTime() - deadline < 0) {
                System.gc();
                r = reports.poll(20, TimeUnit.MILLISECONDS);
            }
            if (r == null) {
                fail("no leak report within " + GC_DEADLINE);
            }
            assertEquals("big-oversized", r.poolName());
            boolean fromLeak = false;
            for (StackTraceElement f : r.stackTrace()) {
                fromLeak |= f.getMethodName().equals("leakOversized");
            }
            assertTrue(fromLeak, r.toString());
            assertEquals(1, pool.stats().oversizedStats().leaks(), pool.stats().toString());
            assertEquals(0, pool.stats().oversizedStats().idle(), "the oversized buffers' pool keeps none");
        }
    }

    /** Oversized buffers keep their exact size and are dropped at release, at every leak level. */
    @Test
    void oversizedBuffersHaveTheSizeAskedForAtEveryLevel() {
        for (LeakDetection level : LeakDetection.values()) {
            try (BufferPool<ByteBuffer> pool = BufferPool.heapBuffers().leakDetection(level).build()) {
                for (int n : new int[] {MAX + 1, MAX + 7, 3 * MAX}) {
                    ByteBuffer b = pool.acquire(n);
                    assertEquals(n, b.capacity(), level + ", " + n);
                    assertEquals(n, b.remaining(), level + ", " + n);
                    ByteBuffer small = pool.acquire(100);
                    assertEquals(128, small.capacity(), "a class buffer after an oversized one, " + level);
                    pool.release(small);
                    pool.release(b);
                }
                assertEquals(3, pool.stats().oversizedReleased(), level.toString());
                assertEquals(3, pool.stats().oversizedStats().dropped(), level.toString());
                assertEquals(0, pool.stats().oversizedStats().idle(), level.toString());
                pool.close();
                assertThrows(PoolClosedException.class, () -> pool.acquire(MAX + 1), level.toString());
            }
        }
    }

    /**
     * "The budget is a cap, not memory taken", up to the largest budget: a class keeps at most
     * 65,536 idle buffers, so the slots its pool reserves stay small. At the engine's own cap
     * (2^24 per class) a default pool reserved about 1.4 GiB and did not build in this heap.
     */
    @Test
    void theLargestBudgetBuildsInASmallHeap() throws Exception {
        String out = ChildJvm.run(LargestBudgetApp.class, 60, "-Xmx64m");
        assertTrue(out.contains("built 11 classes keeping 65536 each"), out);
    }

    /** Builds a default pool with budget(Long.MAX_VALUE) and uses it; prints what it built, or the error. */
    public static final class LargestBudgetApp {
        private LargestBudgetApp() {
        }

        public static void main(String[] args) {
            try (BufferPool<byte[]> pool = BufferPool.bytes().budget(Long.MAX_VALUE).build()) {
                pool.release(pool.acquire(MAX));
                BufferPoolStats s = pool.stats();
                System.out.println("built " + s.classCount() + " classes keeping " + s.classKeeps(0) + " each");
            } catch (Throwable e) {
                System.out.println("build failed: " + e);
            }
        }
    }

    @Test
    void aBlankNameIsRejectedWhereItIsGiven() {
        for (String blank : new String[] {"", " ", "   ", "\t"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> BufferPool.bytes().name(blank), "name(\"" + blank + "\")");
            assertTrue(e.getMessage().contains("blank"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BufferPool.bytes().name("a\nb"));
        assertTrue(e.getMessage().contains("position") || e.getMessage().contains("index"), e.getMessage());
    }

    /**
     * A pool's name is at most 200 characters, and the buffer pool's pools add a suffix: the
     * message gives the limit of this buffer pool's own name, which depends on its largest class.
     */
    @Test
    void aNameAtItsLimitBuildsAndOneLongerSaysWhatTheLimitIs() {
        // 200 less the longest suffix: "-oversized" (10) by default, "-1073741824" (11) at 1 GiB.
        int[][] cases = {{MAX, 190}, {1 << 30, 189}, {64, 190}};
        for (int[] c : cases) {
            BufferPoolBuilder<byte[]> b = BufferPool.bytes().minClassSize(Math.min(64, c[0]))
                    .maxClassSize(c[0]).budget(0);
            b.name("x".repeat(c[1])).build().close();
            b.name("x".repeat(c[1] + 1));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
            assertTrue(e.getMessage().contains("at most " + c[1]) && e.getMessage().contains("shorter"),
                    e.getMessage());
            // Longer than any buffer pool's name, whatever its classes: said at once, with the rule.
            e = assertThrows(IllegalArgumentException.class, () -> b.name("x".repeat(201)));
            assertTrue(e.getMessage().contains("at most 200 less the suffix")
                    && e.getMessage().contains("190 with the default classes"), e.getMessage());
        }
    }

    /**
     * The length of a name counts characters, as a pool's does: a letter outside the Basic
     * Multilingual Plane (two UTF-16 units) counts once, both where the name is given and where
     * build() checks it against the suffixes. 150 such letters were refused as 300 characters
     * long, and 100 passed name() to be refused by build() as 200 (above 190).
     */
    @Test
    void aNameCountsCharactersNotUtf16Units() {
        String face = "\uD83D\uDE00"; // one character, two UTF-16 units
        try (BufferPool<byte[]> pool = BufferPool.bytes().name(face.repeat(190)).build()) {
            assertEquals(face.repeat(190), pool.name());
            pool.release(pool.acquire(100));
        }
        BufferPoolBuilder<byte[]> b = BufferPool.bytes().name(face.repeat(191));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build);
        assertTrue(e.getMessage().startsWith("name is 191 characters long"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().name(face.repeat(201)));
        assertTrue(e.getMessage().startsWith("name is 201 characters long"), e.getMessage());
    }

    /**
     * name()'s promise on characters holds whatever the length: a line break in a name longer
     * than a pool's name may be is refused where it is given, not left for the caller to meet
     * after shortening the name build() refused.
     */
    @Test
    void aLongNameWithALineBreakIsRefusedWhereItIsGiven() {
        for (int length : new int[] {190, 200, 250, 10_000}) {
            String name = "x".repeat(length) + "\nINJECTED LOG LINE";
            assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().name(name),
                    "a name of " + name.length() + " characters holding a line break");
        }
    }

    /** classCount's documented range: from 1 to 217. */
    @Test
    void classCountReachesTheEndsOfItsDocumentedRange() {
        try (BufferPool<byte[]> one = BufferPool.bytes().minClassSize(4096).maxClassSize(4096).build();
                BufferPool<byte[]> most = BufferPool.bytes().minClassSize(8).maxClassSize(1 << 30)
                        .classesPerDoubling(8).budget(0).build()) {
            assertEquals(1, one.stats().classCount());
            assertEquals(217, most.stats().classCount());
        }
    }

    /**
     * classKeeps' documented shape: the same count for every class, one more for a run of the
     * smallest ones, never more than 65,536.
     */
    @Test
    void classKeepsIsOneCountAndOneMoreForTheSmallest() {
        long[] budgets = {0, 64, 16L << 20, 1L << 30}; // the largest: theLargestBudgetBuildsInASmallHeap
        for (long budget : budgets) {
            try (BufferPool<byte[]> pool = BufferPool.bytes().budget(budget).build()) {
                BufferPoolStats s = pool.stats();
                int last = s.classKeeps(s.classCount() - 1);
                boolean extra = true;
                for (int i = 0; i < s.classCount(); i++) {
                    int k = s.classKeeps(i);
                    assertTrue(k == last || k == last + 1 && extra, "budget " + budget + ", class "
                            + s.classSize(i) + " keeps " + k + " beside " + last);
                    extra &= k == last + 1;
                    assertTrue(k <= 65_536, "budget " + budget + ": " + k);
                }
            }
        }
    }
}
