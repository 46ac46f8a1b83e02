package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.ChildJvm;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Direct buffers that the pool drops give their native memory back at once. */
class DirectBufferFreeTest {
    private static final String[] TIGHT = {
        "-XX:MaxDirectMemorySize=8m",
        // The JDK's own fallback when direct memory runs short is a System.gc(); without it,
        // only a pool that frees what it drops stays under the limit.
        "-XX:+DisableExplicitGC",
    };

    /** The JVM's direct-memory counter: bytes of direct buffers not yet freed. */
    static long directBytes() {
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                return b.getTotalCapacity();
            }
        }
        throw new AssertionError("no direct buffer pool bean");
    }

    @Test
    void droppingFarMoreThanMaxDirectMemorySizeNeverRunsOut() throws Exception {
        String out = ChildJvm.run(DirectFreeApp.class, 120, TIGHT);
        assertTrue(out.contains("done: dropped "), out);
        assertTrue(!out.contains("OutOfMemoryError"), out);
    }

    @Test
    void withoutThePoolTheSameLoopRunsOutOfDirectMemory() throws Exception {
        // The control: the child JVM's limits make plain dropping fail, so the test above can.
        String out = ChildJvm.run(PlainDirectApp.class, 120, TIGHT);
        // "Direct buffer memory" on JDK 17, "Cannot reserve ... direct buffer memory" on later ones
        assertTrue(out.contains("OutOfMemoryError") && out.toLowerCase(java.util.Locale.ROOT)
                .contains("direct buffer memory"), out);
    }

    /** {@link DirectFreeApp} in its {@code plain} mode. */
    public static final class PlainDirectApp {
        private PlainDirectApp() {
        }

        public static void main(String[] args) {
            DirectFreeApp.main(new String[] {"plain"});
        }
    }

    /** Acquires {@code size} bytes, releases them, and checks that the direct bytes went down as much. */
    private static void assertFreedAtRelease(BufferPool<ByteBuffer> pool, int size) {
        ByteBuffer b = pool.acquire(size);
        long held = directBytes();
        pool.release(b);
        long after = directBytes();
        assertTrue(held - after >= size, "direct bytes went from " + held + " to " + after);
    }

    @Test
    void anOversizedBufferIsFreedAtItsRelease() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().build()) {
            assertFreedAtRelease(pool, 3 << 20);
        }
    }

    @Test
    void withoutFreeOnDropADroppedBufferIsLeftToTheCollector() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().freeOnDrop(false).build()) {
            ByteBuffer b = pool.acquire(3 << 20);
            long held = directBytes();
            pool.release(b);
            long after = directBytes();
            java.lang.ref.Reference.reachabilityFence(b); // the collector may not free it either
            assertTrue(held - after < 3 << 20, "direct bytes went from " + held + " to " + after);
            assertEquals(1, pool.stats().oversizedReleased());
        }
    }

    @Test
    void aClassBufferOverItsShareIsFreedAtItsRelease() {
        try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().maxClassSize(1 << 20).budget(1 << 20).build()) {
            assertEquals(0, pool.stats().classKeeps(pool.stats().classCount() - 1));
            assertFreedAtRelease(pool, 1 << 20);
        }
    }

    @Test
    void closeFreesEveryIdleBufferOnce() {
        BufferPool<ByteBuffer> pool = BufferPool.directBuffers().build();
        List<ByteBuffer> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(pool.acquire(64 * 1024));
        }
        held.forEach(pool::release);
        int last = pool.stats().classCount() - 1;
        assertEquals(3, pool.stats().classStats(last).idle());
        long before = directBytes();
        pool.close();
        long after = directBytes();
        assertTrue(before - after >= 3 * 64 * 1024, "direct bytes went from " + before + " to " + after);
        assertEquals(3, pool.stats().classStats(last).dropped());
        assertEquals(0, pool.stats().idleBytes());
        pool.close(); // a second close frees nothing twice (a double free would crash the JVM)
        assertEquals(3, pool.stats().classStats(last).dropped());
    }

    @Test
    void whereUnsafeIsMissingOrRefusedDroppedBuffersAreLeftToTheCollectorWithOneWarning() throws Exception {
        String out = ChildJvm.run(TwoPoolsApp.class, 120, "--limit-modules", "java.base");
        assertEquals(1, out.split("invokeCleaner is not available", -1).length - 1, out);
        assertTrue(out.contains("done"), out);
        if (Runtime.version().feature() >= 24) { // the option exists from JDK 24 on
            String denied = ChildJvm.run(TwoPoolsApp.class, 120, "--sun-misc-unsafe-memory-access=deny");
            assertEquals(1, denied.split("the JVM refused", -1).length - 1, denied);
            assertTrue(denied.contains("done"), denied);
        }
    }

    /** Builds two direct pools and drops a buffer through each. */
    public static final class TwoPoolsApp {
        private TwoPoolsApp() {
        }

        public static void main(String[] args) {
            for (int i = 0; i < 2; i++) {
                try (BufferPool<ByteBuffer> pool = BufferPool.directBuffers().build()) {
                    pool.release(pool.acquire(1 << 20));
                }
            }
            System.out.println("done");
        }
    }
}
