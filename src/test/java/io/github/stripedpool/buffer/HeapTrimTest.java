package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.ChildJvm;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** After a collection that leaves the heap fuller than the threshold, idle buffers go at once. */
class HeapTrimTest {
    private static final Duration GC_DEADLINE = Duration.ofSeconds(20);

    /** Releases {@code n} buffers of each of a few sizes, held together so that all are new. */
    static void fill(BufferPool<byte[]> pool, int n) {
        List<byte[]> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            held.add(pool.acquire(100));
            held.add(pool.acquire(5000));
        }
        held.forEach(pool::release);
    }

    @Test
    void aHeapAboveTheThresholdDropsEveryIdleBufferAfterTheNextCollection() {
        // Threshold 0: any heap is above it, so the first collection trims. The other pool, at
        // the default threshold in a test JVM far from full, is the control.
        try (BufferPool<byte[]> trimmed = BufferPool.bytes().trimAboveHeap(0).build();
                BufferPool<byte[]> kept = BufferPool.bytes().build()) {
            fill(trimmed, 20);
            fill(kept, 20);
            long idle = trimmed.stats().idleBytes();
            assertEquals(20 * (128 + 8192), idle);
            assertEquals(idle, kept.stats().idleBytes());
            long deadline = System.nanoTime() + GC_DEADLINE.toNanos();
            while (trimmed.stats().idleBytes() != 0 || trimmed.stats().trims() == 0) {
                if (System.nanoTime() - deadline > 0) {
                    fail("no trim within " + GC_DEADLINE + ": " + trimmed.stats());
                }
                System.gc();
            }
            assertTrue(trimmed.stats().classStats(1).dropped() >= 20, trimmed.stats().toString());
            assertEquals(0, kept.stats().trims(), kept.stats().toString());
        }
    }

    @Test
    void aFullHeapInAChildJvmTrimsAndAnEmptyOneDoesNot() throws Exception {
        String out = ChildJvm.run(HeapPressureApp.class, 120, "-Xmx64m", "-XX:+UseSerialGC");
        assertTrue(out.contains("calm: trims 0, idle " + 20 * (128 + 8192)), out);
        assertTrue(java.util.regex.Pattern.compile("pressed: trims [1-9]\\d*, idle 0\\R").matcher(out).find(), out);
    }

    @Test
    void theThresholdIsAFraction() {
        for (double bad : new double[] {-0.1, 1.01, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().trimAboveHeap(bad));
        }
        BufferPool.bytes().trimAboveHeap(1).build().close();
    }
}
