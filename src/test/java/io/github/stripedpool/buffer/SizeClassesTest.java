package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The size classes as properties, for every number of steps per doubling and every request
 * size up to past the largest class: the class chosen is the smallest that fits, it wastes at
 * most one step, every class size maps back to its class, and nothing else does.
 */
class SizeClassesTest {
    private static final int[] STEPS = {1, 2, 4, 8};

    @Test
    void everyRequestGetsTheSmallestClassThatFitsAndWastesAtMostOneStep() {
        for (int steps : STEPS) {
            for (int[] range : new int[][] {{64, 65_536}, {8, 1024}, {steps, steps}, {1024, 1 << 30}}) {
                if (range[0] < steps) {
                    continue;
                }
                SizeClasses c = new SizeClasses(range[0], range[1], steps, 1L << 24);
                String at = "steps " + steps + ", classes " + range[0] + " to " + range[1];
                assertEquals(range[0], c.size(0), at);
                assertEquals(range[1], c.maxSize(), at);
                int limit = (int) Math.min(range[1] + 2L * steps + 3, 1 << 20);
                for (int n = 0; n <= limit; n++) {
                    int i = c.indexFor(n, "p");
                    if (n > range[1]) {
                        assertEquals(c.count(), i, at + ": " + n + " is above the largest class");
                        continue;
                    }
                    assertTrue(c.size(i) >= n, at + ": class " + c.size(i) + " for " + n);
                    assertTrue(i == 0 || c.size(i - 1) < n, at + ": a smaller class fits " + n);
                    if (n > range[0]) {
                        assertTrue((long) c.size(i) * steps <= (long) n * (steps + 1) + steps,
                                at + ": class " + c.size(i) + " for " + n + " wastes more than a step");
                    }
                }
            }
        }
    }

    @Test
    void everyClassSizeMapsBackAndNoOtherCapacityDoes() {
        for (int steps : STEPS) {
            SizeClasses c = new SizeClasses(64, 65_536, steps, 1L << 24);
            assertEquals(10 * steps + 1, c.count());
            Set<Integer> sizes = new HashSet<>();
            for (int i = 0; i < c.count(); i++) {
                assertTrue(i == 0 || c.size(i) > c.size(i - 1), "sizes rise");
                assertEquals(i, c.indexOf(c.size(i), "p"), "steps " + steps + ", size " + c.size(i));
                assertEquals(i, c.indexFor(c.size(i), "p"));
                sizes.add(c.size(i));
            }
            for (int capacity = -1; capacity <= 70_000; capacity++) {
                if (!sizes.contains(capacity)) {
                    int cap = capacity;
                    IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                            () -> c.indexOf(cap, "p"), "steps " + steps + ": " + capacity);
                    assertTrue(e.getMessage().contains("none of its class sizes"), e.getMessage());
                }
            }
        }
    }

    @Test
    void everyClassKeepsTheSameCountAndWhatIsLeftGoesToTheSmallestClasses() {
        // 64 .. 65,536: 11 classes adding up to 131,008 bytes.
        SizeClasses c = new SizeClasses(64, 65_536, 1, 16L << 20);
        long each = (16L << 20) / 131_008; // 128, and 8,192 bytes left: one more of each class up to 4,096 (8,128)
        long left = (16L << 20) - each * 131_008;
        long idle = 0;
        for (int i = 0; i < c.count(); i++) {
            long extra = 0;
            if (c.size(i) <= left) {
                extra = 1;
                left -= c.size(i);
            }
            assertEquals(each + extra, c.keep(i), "class " + c.size(i));
            idle += (long) c.keep(i) * c.size(i);
        }
        assertEquals(128, c.keep(c.count() - 1), "the largest class keeps as many as any other");
        assertTrue(idle <= 16L << 20 && idle >= (16L << 20) - 64, "the budget is used to its last class size: " + idle);
    }

    @Test
    void aBudgetBelowOneOfEachKeepsTheSmallestClassesFirst() {
        // 64 .. 512 add up to 960 bytes.
        int[][] expected = {{0, 0, 0, 0, 0}, {63, 0, 0, 0, 0}, {64, 1, 0, 0, 0}, {191, 1, 0, 0, 0},
            {192, 1, 1, 0, 0}, {448, 1, 1, 1, 0}, {959, 1, 1, 1, 0}, {960, 1, 1, 1, 1}, {1023, 1, 1, 1, 1},
            {1024, 2, 1, 1, 1}, {1919, 2, 2, 2, 1}, {1920, 2, 2, 2, 2}};
        for (int[] e : expected) {
            SizeClasses c = new SizeClasses(64, 512, 1, e[0]);
            for (int i = 0; i < 4; i++) {
                assertEquals(e[i + 1], c.keep(i), "budget " + e[0] + ", class " + c.size(i));
            }
        }
    }

    @Test
    void theLargestBudgetStopsAtTheUnderlyingPoolsCap() {
        for (long budget : new long[] {Long.MAX_VALUE, (long) SizeClasses.MAX_KEEP * 131_008 + 64}) {
            SizeClasses c = new SizeClasses(64, 65_536, 1, budget);
            for (int i = 0; i < c.count(); i++) {
                assertEquals(SizeClasses.MAX_KEEP, c.keep(i), "budget " + budget + ", class " + c.size(i));
            }
        }
        SizeClasses one = new SizeClasses(1 << 30, 1 << 30, 1, Long.MAX_VALUE);
        assertEquals(SizeClasses.MAX_KEEP, one.keep(0));
    }

    @Test
    void theBudgetHoldsForEveryNumberOfSteps() {
        for (int steps : STEPS) {
            SizeClasses c = new SizeClasses(64, 65_536, steps, 16L << 20);
            long idle = 0;
            for (int i = 0; i < c.count(); i++) {
                idle += (long) c.keep(i) * c.size(i);
            }
            assertTrue(idle <= 16L << 20, "steps " + steps + ": " + idle);
        }
    }

    @Test
    void theBuilderTakesOneTwoFourOrEightStepsAndNoMoreThanTheSmallestClass() {
        for (int bad : new int[] {0, 3, 5, 16, -1, Integer.MIN_VALUE}) {
            assertThrows(IllegalArgumentException.class, () -> BufferPool.bytes().classesPerDoubling(bad));
        }
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> BufferPool.bytes().minClassSize(2).classesPerDoubling(4).build());
        assertTrue(e.getMessage().contains("classesPerDoubling (4) is above minClassSize (2)"), e.getMessage());
        try (BufferPool<byte[]> pool = BufferPool.bytes().classesPerDoubling(4).build()) {
            byte[] b = pool.acquire(17 * 1024);
            assertEquals(20 * 1024, b.length, "a quarter-step class");
            pool.release(b);
            assertEquals(41, pool.stats().classCount());
            assertThrows(IllegalArgumentException.class, () -> pool.release(new byte[18 * 1024]));
        }
    }
}
