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
    void aHeapAboveTheThresholdDropsEveryIdleBufferAfterOneCollection() {
        // Threshold 0: any heap is above it, so every collection trims. The other pool, at
        // the default threshold in a test JVM far from full, is the control.
        try (BufferPool<byte[]> trimmed = BufferPool.bytes().trimAboveHeap(0).build();
                BufferPool<byte[]> kept = BufferPool.bytes().build()) {
            fill(kept, 20);
            long deadline = System.nanoTime() + GC_DEADLINE.toNanos();
            for (;;) {
                fill(trimmed, 20);
                long before = trimmed.stats().trims();
                assertEquals(20 * (128 + 8192), trimmed.stats().idleBytes());
                System.gc();
                // One collection, then wait for its trim without collecting again: a trim must
                // drop everything at once, not a victim generation per collection.
                long waitUntil = System.nanoTime() + 2_000_000_000L;
                while (trimmed.stats().trims() == before && System.nanoTime() - waitUntil < 0) {
                    Thread.onSpinWait();
                }
                BufferPoolStats s = trimmed.stats();
                if (s.trims() == before + 1) {
                    assertEquals(0, s.idleBytes(), s.toString());
                    break;
                }
                // No trim seen (the clock was re-arming) or two (the JVM collected on its own
                // too): inconclusive, again.
                if (System.nanoTime() - deadline > 0) {
                    fail("no single trim seen within " + GC_DEADLINE + ": " + s);
                }
            }
            // Its idle bytes are not checked: a slow run may reach its aging cycles, which drop
            // them by the usual rule.
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
