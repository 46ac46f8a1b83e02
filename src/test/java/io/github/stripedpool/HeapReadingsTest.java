package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link HeapReadings}: after a stop-the-world collection the fullness is the last reading; on a
 * concurrent collector, the lowest of the last {@link HeapReadings#WINDOW}, so that one reading
 * swollen by garbage not yet freed does not pass for a short heap, while a heap short in every
 * reading is seen as short. Readings are given, not measured, so every case is exact.
 */
class HeapReadingsTest {
    private static final long MAX = 1000;

    /**
     * The collector's beans are looked up when the clock starts, not at the first collection it
     * sees: that collection may come with the heap exhausted, and a class of java.management
     * whose initialiser fails then stays broken for the application too.
     */
    @Test
    void theClockLooksUpTheCollectorWhenItStartsNotAtTheFirstCollection() throws Exception {
        String out = ChildJvm.run(LookUpAtStartApp.class, 60, "-Xms512m", "-Xmx512m", "-XX:+UseSerialGC");
        assertTrue(out.contains("looked up: true, after a collection: false"), out);
    }

    @Test
    void aStopTheWorldCollectorTakesEachReadingAsItIs() {
        HeapReadings h = new HeapReadings();
        assertTrue(Double.isNaN(h.fullness()), "nothing recorded yet");
        h.record(300, MAX, false);
        assertEquals(0.3, h.fullness(), 1e-9);
        h.record(950, MAX, false);
        assertEquals(0.95, h.fullness(), 1e-9, "a full heap at once");
        h.record(200, MAX, false);
        assertEquals(0.2, h.fullness(), 1e-9, "and room at once");
    }

    @Test
    void aConcurrentCollectorTakesTheLowestOfTheLastReadings() {
        HeapReadings h = new HeapReadings();
        h.record(900, MAX, true);
        assertEquals(0.9, h.fullness(), 1e-9, "the first reading is all there is");
        h.record(300, MAX, true);
        for (int i = 0; i < HeapReadings.WINDOW - 1; i++) {
            h.record(990, MAX, true); // cycles that read garbage not yet freed
            assertEquals(0.3, h.fullness(), 1e-9, "one roomy reading in the window keeps the heap roomy");
        }
        h.record(960, MAX, true);
        assertEquals(0.96, h.fullness(), 1e-9, "short in every reading of the window: short");
        h.record(880, MAX, true);
        assertEquals(0.88, h.fullness(), 1e-9);
    }

    @Test
    void theWindowSlidesForAsLongAsTheJvmRuns() {
        HeapReadings h = new HeapReadings();
        for (int i = 0; i < 1_000_003; i++) {
            h.record(i % 5 == 0 ? 100 : 990, MAX, true);
        }
        // The last four readings: i = 999,999 to 1,000,002, of which 1,000,000 is roomy.
        assertEquals(0.1, h.fullness(), 1e-9);
        h.record(990, MAX, true);
        assertEquals(0.1, h.fullness(), 1e-9, "the roomy reading is still among the last four");
        h.record(990, MAX, true);
        assertEquals(0.99, h.fullness(), 1e-9, "and now it is not");
    }

    @Test
    void noHeapLimitIsNeverShort() {
        HeapReadings h = new HeapReadings();
        h.record(900, MAX, true);
        h.record(Long.MAX_VALUE - 1, Long.MAX_VALUE, true);
        assertTrue(Double.isNaN(h.fullness()));
        assertEquals(HeapTrim.NONE, HeapTrim.level(0, h.fullness()), "NaN never trims, even at threshold 0");
        h.record(500, 0, false);
        assertTrue(Double.isNaN(h.fullness()));
    }

    @Test
    void readingsOutOfRangeAreClampedToAFraction() {
        HeapReadings h = new HeapReadings();
        h.record(-5, MAX, false);
        assertEquals(0, h.fullness(), 0);
        h.record(MAX * 2, MAX, false);
        assertEquals(1, h.fullness(), 0);
    }

    @Test
    void theJvmsOwnReadingIsAFractionOrNaN() {
        // On whatever collector this JVM runs: record() reads it, and the result is usable.
        HeapReadings h = new HeapReadings();
        h.record();
        double f = h.fullness();
        assertTrue(Double.isNaN(f) || f >= 0 && f <= 1, "fullness " + f);
    }
}
