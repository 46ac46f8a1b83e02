package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The cost of a bounded acquire does not depend on the objects in use nor on maxTotal: counted,
 * not timed, as the entries an acquire examines ({@link BoundedThreads.Local#examined}): idle entries it
 * takes or finds stale, free entries it claims to create an object. A scan of the entry table
 * examines one entry per object in use.
 */
class BoundedScalingTest {
    private static final int ROUNDS = 100;
    /** Entries a round below may examine: 3 acquisitions, each a take and maybe a stale pop. */
    private static final int PER_ROUND = 6;

    @Test
    void anAcquireExaminesAsManyEntriesWithSixtyFourThousandObjectsInUseAsWithSixtyFour() {
        long small = examinedPerRounds(64);
        long large = examinedPerRounds(64_000);
        assertTrue(large <= ROUNDS * PER_ROUND, () -> "with 64000 objects in use, " + ROUNDS
                + " rounds of acquire-two and acquire-one examined " + large + " entries (with 64 in use: "
                + small + "); at most " + ROUNDS * PER_ROUND + " allowed");
        assertEquals(small, large, "entries examined with 64 and with 64000 objects in use");
    }

    /** An acquire that finds nothing idle claims a free entry without a walk past the used ones. */
    @Test
    void aCreationExaminesOneFreeEntryWhateverTheObjectsInUse() {
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(1_000_000).stripes(4).build()) {
            BoundedPool<Object> p = (BoundedPool<Object>) pool;
            Set<Object> held = new HashSet<>();
            BoundedThreads.Local l = p.threads().local();
            for (int i = 0; i < 20_000; i++) {
                long before = l.examined;
                assertTrue(held.add(pool.acquire()), "an object handed out twice");
                long n = l.examined - before;
                int at = i;
                assertTrue(n <= 1, () -> "the creation of object " + at + " examined " + n + " entries");
            }
            held.forEach(pool::release);
            assertBalanced(pool);
        }
    }

    /**
     * Holds {@code inUse} objects, then runs {@link #ROUNDS} rounds of: acquire two (the second
     * finds nothing idle at first, and later the first round's second object), release both,
     * acquire one and release it. Returns the entries examined by the rounds.
     */
    private static long examinedPerRounds(int inUse) {
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(1_000_000).stripes(4).build()) {
            BoundedPool<Object> p = (BoundedPool<Object>) pool;
            Object[] held = new Object[inUse];
            for (int i = 0; i < inUse; i++) {
                held[i] = pool.acquire();
            }
            BoundedThreads.Local l = p.threads().local();
            long before = l.examined;
            for (int r = 0; r < ROUNDS; r++) {
                Object a = pool.acquire();
                Object b = pool.acquire();
                assertNotSame(a, b);
                pool.release(a);
                pool.release(b);
                pool.release(pool.acquire());
            }
            long examined = l.examined - before;
            assertEquals(inUse + 2, pool.stats().created(), pool.stats()::toString);
            for (Object x : held) {
                pool.release(x);
            }
            assertBalanced(pool);
            return examined;
        }
    }
}
