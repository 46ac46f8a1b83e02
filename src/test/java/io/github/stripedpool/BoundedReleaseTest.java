package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Release of an object that is not the releasing thread's last one: found through
 * {@link BoundedIndex} in a few probes, whatever the cap and the number of objects held. Proven
 * by structure (slots a lookup reads), not by timing.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BoundedReleaseTest {
    private static final int THREADS = 4;
    private static final int HELD_PER_THREAD = 5_000;
    /**
     * The most slots a lookup may read at the index's load (at most half full): the longest
     * linear-probing cluster among 20 000 random hashes stays far below it; a scan of the
     * entries reads thousands.
     */
    private static final int MAX_PROBES = 64;

    private final Tracked.Factory objects = new Tracked.Factory();

    @Test
    void outOfOrderReleasesOfManyHeldObjectsEachReadAFewSlots() throws Exception {
        BoundedPool<Tracked> pool = (BoundedPool<Tracked>) objects.builder().maxTotal(100_000).build();
        List<CompletableFuture<long[]>> threads = new ArrayList<>();
        CyclicBarrier allHeld = new CyclicBarrier(THREADS); // so that every object is held at once
        for (int t = 0; t < THREADS; t++) {
            final int seed = t;
            threads.add(CompletableFuture.supplyAsync(() -> {
                List<Tracked> held = new ArrayList<>();
                for (int i = 0; i < HELD_PER_THREAD; i++) {
                    held.add(pool.acquire());
                }
                await(allHeld);
                Collections.shuffle(held, new Random(seed));
                long total = 0;
                long max = 0;
                for (Tracked x : held) {
                    int p = pool.states().index.probes(x);
                    total += p;
                    max = Math.max(max, p);
                    pool.release(x);
                }
                return new long[] {total, max};
            }, runnable -> new Thread(runnable).start()));
        }
        long total = 0;
        long max = 0;
        for (CompletableFuture<long[]> f : threads) {
            long[] r = f.get();
            total += r[0];
            max = Math.max(max, r[1]);
        }
        double mean = (double) total / (THREADS * HELD_PER_THREAD);
        assertTrue(mean <= 3.0, "mean slots read per release: " + mean);
        assertTrue(max <= MAX_PROBES, "most slots read by one release: " + max);
        assertEquals(THREADS * HELD_PER_THREAD, pool.states().index.size());
        assertEquals(THREADS * HELD_PER_THREAD, pool.stats().released());
        pool.close();
        assertEquals(0, pool.states().index.size(), "every destroyed object leaves the index");
        assertBalanced(pool);
    }

    private static void await(CyclicBarrier b) {
        try {
            b.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException | BrokenBarrierException | java.util.concurrent.TimeoutException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void indexFollowsCreateAndDestroyThroughChurn() {
        BoundedPool<Tracked> pool = (BoundedPool<Tracked>) objects.builder().maxTotal(1_000)
                .validate(x -> x.id % 3 != 0).build();
        List<Tracked> held = new ArrayList<>();
        for (int round = 0; round < 50; round++) {
            for (int i = 0; i < 200; i++) {
                held.add(pool.acquire()); // every third object fails validation when reused
            }
            Collections.reverse(held);
            for (Tracked x : held) {
                pool.release(x);
            }
            held.clear();
            assertEquals(pool.live(), pool.states().index.size(), "round " + round);
        }
        pool.close();
        assertEquals(0, pool.states().index.size());
    }

    @Test
    void releaseOfAnObjectDestroyedEarlierIsRejectedAsForeign() {
        BoundedPool<Tracked> pool = (BoundedPool<Tracked>) objects.builder().maxTotal(10)
                .reset(x -> { throw new IllegalStateException("broken"); }).build();
        Tracked a = pool.acquire();
        Tracked b = pool.acquire();
        pool.release(a); // the reset hook throws: a is destroyed, not pooled
        assertEquals(1, pool.stats().dropped());
        assertThrows(IllegalArgumentException.class, () -> pool.release(a));
        pool.release(b);
        assertEquals(0, pool.states().index.size());
        pool.close();
    }
}
