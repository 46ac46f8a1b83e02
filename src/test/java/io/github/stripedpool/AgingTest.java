package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.awaitAgingCycles;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Aging driven by real garbage collections: an idle burst is given back within two cycles, a
 * steady load is not disturbed, and an object that sat idle through one cycle is a victim. The
 * pools age at every collection ({@code agingInterval(ZERO)}) and the tests provoke collections
 * with {@link System#gc()} until what they expect happens or a deadline passes.
 */
@Timeout(120)
class AgingTest {
    private final Tracked.Factory objects = new Tracked.Factory();

    @Test
    void idleBurstIsDestroyedWithinTwoAgingCycles() {
        int burst = 200;
        try (Pool<Tracked> pool = objects.builder().agingInterval(Duration.ZERO).maxIdle(1024)
                .name("aging-burst").build()) {
            List<Tracked> held = new ArrayList<>();
            for (int i = 0; i < burst; i++) {
                held.add(pool.acquire());
            }
            held.forEach(pool::release);
            // stats() is serialised with aging, so the cycle count read here is the epoch every
            // object released above was stamped with, or a later one.
            PoolStats start = assertBalanced(pool);
            assertEquals(burst, start.idle(), start::toString);
            long before = start.agingCycles();

            PoolStats afterOne = awaitAgingCycles(pool, before + 1);
            if (afterOne.agingCycles() == before + 1) {
                assertEquals(burst, afterOne.idle(), "one cycle only makes victims: " + afterOne);
            }
            PoolStats afterTwo = awaitAgingCycles(pool, before + 2);
            System.out.println("burst of " + burst + ", aging cycles " + before + " -> "
                    + afterTwo.agingCycles() + ": " + afterTwo);
            assertEquals(0, afterTwo.idle(), afterTwo::toString);
            assertEquals(burst, afterTwo.dropped(), afterTwo::toString);
            assertEquals(burst, objects.destroyed.get());
            assertTrue(objects.neverDestroyed().isEmpty(), "objects left undestroyed");
            assertTrue(objects.destroyedTwice().isEmpty(), "objects destroyed twice");
            assertBalanced(pool);
        }
    }

    @Test
    void steadyLoadKeepsItsHitRateAcrossManyAgingCycles() {
        int cycles = 20;
        int held = 4; // one in the private slot, three in the stripes
        try (Pool<Tracked> pool = objects.builder().agingInterval(Duration.ZERO)
                .name("aging-steady").build()) {
            Tracked[] batch = new Tracked[held];
            steadyBatch(pool, batch, 1_000);
            PoolStats start = pool.stats();
            long target = start.agingCycles() + cycles;
            long deadline = System.nanoTime() + PoolAssertions.AGING_DEADLINE.toNanos();
            PoolStats now = start;
            while (now.agingCycles() < target) {
                if (System.nanoTime() - deadline > 0) {
                    fail("only " + (now.agingCycles() - start.agingCycles()) + " aging cycles in "
                            + PoolAssertions.AGING_DEADLINE.toSeconds() + " s: " + now);
                }
                System.gc();
                steadyBatch(pool, batch, 10_000);
                now = pool.stats();
            }
            long acquired = now.acquired() - start.acquired();
            long hits = now.hits() - start.hits();
            double hitRate = (double) hits / acquired;
            System.out.printf("steady load over %d aging cycles: %d acquisitions, hit rate %.4f%%, "
                            + "%d created, %d dropped: %s%n", now.agingCycles() - start.agingCycles(),
                    acquired, hitRate * 100, now.created() - start.created(),
                    now.dropped() - start.dropped(), now);
            assertTrue(hitRate >= 0.99, "hit rate " + hitRate + " under a steady load: " + now);
            assertBalanced(pool);
        }
    }

    private static void steadyBatch(Pool<Tracked> pool, Tracked[] batch, int rounds) {
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < batch.length; i++) {
                batch[i] = pool.acquire();
            }
            for (int i = batch.length - 1; i >= 0; i--) {
                pool.release(batch[i]);
            }
        }
    }

    /**
     * The pool ages at most once a second here, not at every collection: the test takes the
     * object right after the first cycle, and a second cycle in between would drop it instead.
     */
    @Test
    void objectIdleThroughOneCycleIsAcquiredAsAVictim() {
        try (UnboundedPool<Tracked> pool = PoolAssertions.engine(
                objects.builder().agingInterval(Duration.ofSeconds(1)), "aging-victim")) {
            Tracked a = pool.acquire();
            Tracked b = pool.acquire();
            pool.release(a); // private slot: a hit there is counted as private, whatever its age
            pool.permits.withdrawAll(); // no spare-entry permit: the next release beyond the slot goes to a stripe
            pool.release(b); // a stripe
            long before = pool.stats().agingCycles();
            awaitAgingCycles(pool, before + 1);

            assertSame(a, pool.acquire());
            assertSame(b, pool.acquire());
            PoolStats s = pool.stats();
            assertEquals(before + 1, s.agingCycles(), "a second cycle ran before the acquire: " + s);
            assertEquals(1, s.victimHits(), s::toString);
            assertEquals(1, s.privateHits(), s::toString);
            assertEquals(0, s.dropped(), s::toString);
            pool.release(a);
            pool.release(b);
            assertBalanced(pool);
        }
    }
}
