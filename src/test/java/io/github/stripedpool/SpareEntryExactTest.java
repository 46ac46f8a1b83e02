package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link SpareEntryTest} again, in a pool with a destroy hook, whose slot and spare
 * entries are taken by compare-and-set because aging and close destroy what they take; and what
 * only such a pool promises: every object that leaves a spare entry other than to its owner is
 * destroyed, exactly once, and an object destroyed is never handed out.
 */
class SpareEntryExactTest extends SpareEntryTest {
    private static final int MAGAZINE = PrivateSlot.SPARES + 1;

    @Override
    PoolBuilder<Tracked> builder() {
        return Pool.builder(objects::create).destroy(objects::destroy);
    }

    @Test
    void theSlotIsExactAndItsSpareEntriesAreUsed() {
        try (UnboundedPool<Tracked> pool = pool("exact-spares")) {
            holdAndRelease(pool, MAGAZINE);
            PrivateSlot s = callersSlot(pool);
            assertTrue(s.exact, "a destroy hook makes the slot exact");
            assertEquals(PrivateSlot.SPARES, s.spareTop, "every spare entry holds an object");
            assertEquals(0, idleInStripes(pool));
        }
    }

    @Test
    void closeDestroysEverySpareEntrysObjectOnce() {
        UnboundedPool<Tracked> pool = pool("exact-spare-close");
        Tracked[] held = holdAndRelease(pool, MAGAZINE);
        pool.close();
        for (Tracked x : held) {
            assertEquals(1, x.destroys.get(), () -> x + " destroyed " + x.destroys.get() + " times");
        }
        assertEquals(MAGAZINE, objects.destroyed.get());
        assertThrows(PoolClosedException.class, pool::acquire);
        pool.close();
        assertEquals(MAGAZINE, objects.destroyed.get(), "a second close destroys nothing again");
    }

    @Test
    void agingDestroysTheIdleEntriesAndTheOwnerNeverGetsThemBack() {
        try (UnboundedPool<Tracked> pool = pool("exact-spare-aging")) {
            Tracked[] held = holdAndRelease(pool, MAGAZINE);
            for (int cycle = 0; cycle < 3; cycle++) {
                pool.release(pool.acquire()); // the slot's own object only
                forceAgingCycle(pool);
            }
            int destroyed = 0;
            for (Tracked x : held) {
                assertTrue(x.destroys.get() <= 1, () -> x + " destroyed twice");
                destroyed += x.destroys.get();
            }
            assertEquals(MAGAZINE - 1, destroyed);
            for (int i = 0; i < MAGAZINE; i++) {
                Tracked x = pool.acquire();
                assertEquals(0, x.destroys.get(), () -> "handed out after its destroy: " + x);
            }
        }
    }

    /**
     * Threads that each hold several objects, while aging runs after every cycle of the main
     * thread and the pool then closes: no object handed out after its destroy, none destroyed
     * twice, every one destroyed by the end.
     */
    @Test
    void heldSeveralUnderAgingThenCloseDestroysEachOnce() throws Exception {
        UnboundedPool<Tracked> pool = pool("exact-spare-stress");
        long start = System.nanoTime();
        long[] cycles = {0};
        // Clock readings a whole interval apart: each call is a cycle, unless the aging clock's
        // own call (after a real collection) holds the claim at that moment.
        List<Throwable> errors = holdInThreads(pool, new int[] {2, 4, 6, 8}, () -> pool.onGarbageCollection(
                start + ++cycles[0] * PoolAssertions.MANUAL_AGING.toNanos()));
        assertEquals(List.of(), errors);
        assertTrue(pool.stats().agingCycles() > 10, () -> "aging ran beside the threads: " + pool.stats());
        assertBalanced(pool);
        pool.close();
        PoolStats s = assertBalanced(pool);
        assertEquals(s.created(), objects.destroyed.get(), s::toString);
        assertTrue(objects.destroyedTwice().isEmpty(), () -> "destroyed twice: " + objects.destroyedTwice());
        assertTrue(objects.neverDestroyed().isEmpty(), () -> "never destroyed: " + objects.neverDestroyed());
    }
}
