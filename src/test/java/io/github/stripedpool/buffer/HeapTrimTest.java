package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.stripedpool.ChildJvm;
import io.github.stripedpool.TrimPolling;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * After a collection that leaves the heap fuller than the threshold, idle buffers go at once; in
 * the child JVM, object pools (unbounded and bounded) too.
 */
class HeapTrimTest {
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
    void aHeapAboveTheThresholdDropsEveryIdleBufferWithinTwoCollections() {
        // Threshold 0: any heap is above it, so every collection trims; a test JVM's heap is
        // far from full, so at the soft level (see PoolBuilder.trimAboveHeap): the first trim
        // makes every idle buffer a victim, the second drops them all. The other pool, at the
        // default threshold, is the control.
        try (BufferPool<byte[]> trimmed = BufferPool.bytes().trimAboveHeap(0).build();
                BufferPool<byte[]> kept = BufferPool.bytes().build()) {
            fill(kept, 20);
            fill(trimmed, 20);
            assertEquals(20 * (128 + 8192), trimmed.stats().idleBytes());
            long before = trimmed.stats().trims();
            TrimPolling.collectUntil(() -> trimmed.stats().trims(), before + 2, () -> trimmed.stats().toString());
            BufferPoolStats s = trimmed.stats();
            assertEquals(0, s.idleBytes(), s.toString());
            // Its idle bytes are not checked: a slow run may reach its aging cycles, which drop
            // them by the usual rule.
            assertEquals(0, kept.stats().trims(), kept.stats().toString());
        }
    }

    @Test
    void aFullHeapInAChildJvmTrimsAndAnEmptyOneDoesNot() throws Exception {
        String out = ChildJvm.run(HeapPressureApp.class, 120, "-Xmx64m", "-XX:+UseSerialGC");
        assertTrue(out.contains("calm: trims 0, idle " + 20 * (128 + 8192)), out);
        assertTrue(Pattern.compile("pressed: trims [1-9]\\d*, idle 0\\R").matcher(out).find(), out);
        // Object pools: the default threshold for an unbounded pool, a bounded one down to its
        // minIdle, a bounded one at its default (never), and the hard level at once.
        for (String pool : new String[] {"objects", "bounded", "boundedKept"}) {
            assertTrue(out.contains("calm " + pool + ": trims 0, idle 20"), out);
        }
        assertTrue(Pattern.compile("pressed objects: trims [1-9]\\d*, idle 0\\R").matcher(out).find(), out);
        assertTrue(Pattern.compile("pressed bounded: trims [1-9]\\d*, idle 2\\R").matcher(out).find(), out);
        assertTrue(out.contains("pressed boundedKept: trims 0, idle 20"), out);
        assertTrue(out.contains("hard: destroyed 20, the last with 0 trims counted since its objects were idle"),
                "the hard level drops every idle object in its first trim: " + out);
        assertTrue(out.contains("bounded: destroyed 18"), out);
        assertTrue(out.contains("bounded: acquired its whole cap again"), out);
    }

    /**
     * ZGC clears weak references before it frees the garbage, so a reading of the heap taken
     * when a collection is seen counts that garbage: with a quarter of the heap live, readings
     * of 0.32 to 0.98. The pool must not take them for a short heap, and must still trim one.
     */
    @Test
    void aConcurrentCollectorTrimsAShortHeapButNotARoomyOne() throws Exception {
        concurrentCollector("-XX:+UseZGC");
    }

    /**
     * The same on Shenandoah, the other collector that clears weak references before it frees
     * the garbage (readings of 0.84 to 0.88 with a quarter of the heap live). Skipped on a JDK
     * built without it.
     */
    @Test
    void shenandoahTrimsAShortHeapButNotARoomyOne() throws Exception {
        assumeTrue(collectorAvailable("-XX:+UseShenandoahGC"),
                "this JDK has no Shenandoah collector (-XX:+UseShenandoahGC): the ZGC test covers the reading");
        concurrentCollector("-XX:+UseShenandoahGC");
    }

    private static void concurrentCollector(String collector) throws Exception {
        String out = ChildJvm.run(ConcurrentCollectorApp.class, 180, "-Xms256m", "-Xmx256m", collector);
        assertTrue(Pattern.compile("roomy: collections \\d+, trims 0\\R").matcher(out).find(), out);
        assertTrue(Pattern.compile("pressed: trims [1-9]\\d*\\R").matcher(out).find(), out);
    }

    /**
     * On G1 an array of half a region or more goes straight to the old generation, without a
     * pause: a buffer pool's oversized buffers of 700 KB, made at every request, made the old
     * space's usage, read after the pause, pass the threshold 12 to 24 times in about 1,400
     * collections of a heap half live. The pause's own figures count none of them.
     */
    @Test
    void largeArraysMadeSinceThePauseAreNotTakenForAShortHeapOnG1() throws Exception {
        String out = ChildJvm.run(ConcurrentCollectorApp.class, 120, "-Xms256m", "-Xmx256m", "-XX:+UseG1GC",
                "-D" + ConcurrentCollectorApp.LIVE_PROPERTY + "=0.5", "-D" + ConcurrentCollectorApp.LARGE_PROPERTY + "=700000");
        assertTrue(Pattern.compile("roomy: collections \\d+, trims 0\\R").matcher(out).find(), out);
        assertTrue(Pattern.compile("pressed: trims [1-9]\\d*\\R").matcher(out).find(), out);
    }

    /**
     * A stop-the-world collector clears the clock's sentinel in a pause, and the heap is read
     * when the clock wakes, after allocation refilled part of the young generation: read through
     * {@code Runtime}, a heap 65 % live looked fuller than the threshold (85 %) 1 to 5 times in
     * 250 to 450 collections, on each of these collectors. The heap must be read as the pause left
     * it; and a heap that is really short must still be trimmed.
     */
    @Test
    void aStopTheWorldCollectorTrimsAShortHeapButNotOneTwoThirdsLive() throws Exception {
        for (String collector : new String[] {"-XX:+UseSerialGC", "-XX:+UseParallelGC", "-XX:+UseG1GC"}) {
            String out = ChildJvm.run(ConcurrentCollectorApp.class, 120, "-Xms128m", "-Xmx128m", collector,
                    "-D" + ConcurrentCollectorApp.LIVE_PROPERTY + "=0.65");
            assertTrue(Pattern.compile("roomy: collections \\d+, trims 0\\R").matcher(out).find(), collector + ": " + out);
            assertTrue(Pattern.compile("pressed: trims [1-9]\\d*\\R").matcher(out).find(), collector + ": " + out);
        }
    }

    /** Whether this JDK starts with {@code flag}: a collector it was built without makes it exit 1. */
    private static boolean collectorAvailable(String flag) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process p = new ProcessBuilder(java.toString(), flag, "-version").redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor() == 0;
    }

    @Test
    void theThresholdIsAFraction() {
        for (double bad : new double[] {-0.1, 1.01, Double.NaN, Double.POSITIVE_INFINITY}) {
            assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().trimAboveHeap(bad));
        }
        BufferPool.bytes().trimAboveHeap(1).build().close();
    }
}
