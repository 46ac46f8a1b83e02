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
