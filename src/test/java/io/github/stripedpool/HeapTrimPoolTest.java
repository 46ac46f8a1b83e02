package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link PoolBuilder#trimAboveHeap(double)} on object pools, in this JVM: threshold 0 makes
 * every collection trim (a test JVM's heap is far from full, so at the soft level), threshold 1
 * never. The hard level and the default thresholds under a really full heap are checked in a
 * child JVM by {@code buffer.HeapTrimTest}.
 */
class HeapTrimPoolTest {
    @Test
    void theLevelRisesWithTheHeapAndNeverWithoutALimit() {
        long max = 1000;
        assertEquals(HeapTrim.NONE, level(0.85, 850, max));
        assertEquals(HeapTrim.SOFT, level(0.85, 851, max));
        assertEquals(HeapTrim.SOFT, level(0.85, 925, max));
        assertEquals(HeapTrim.HARD, level(0.85, 926, max));
        assertEquals(HeapTrim.HARD, level(0.85, max, max));
        assertEquals(HeapTrim.SOFT, level(0, 1, max));
        assertEquals(HeapTrim.NONE, level(0, 0, max));
        assertEquals(HeapTrim.HARD, level(0, 501, max));
        for (long used : new long[] {0, 1, max, Long.MAX_VALUE}) {
            assertEquals(HeapTrim.NONE, level(1, used, max), "threshold 1 never trims");
            assertEquals(HeapTrim.NONE, level(0, used, Long.MAX_VALUE), "no heap limit");
        }
        assertEquals(HeapTrim.NONE, new TrimGate(1).level(System.nanoTime()), "threshold 1 never trims, whatever the heap");
    }

    @Test
    void theThresholdIsAFractionOfTheHeapAndDefaultsByEngine() {
        for (double bad : new double[] {-0.1, -Double.MIN_VALUE, Math.nextUp(1.0), Double.NaN,
                Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Pool.builder(Object::new).trimAboveHeap(bad));
            assertTrue(e.getMessage().contains("from 0 to 1") && e.getMessage().contains(String.valueOf(bad)),
                    e.getMessage());
        }
        assertEquals(HeapTrim.DEFAULT_UNBOUNDED, Pool.builder(Object::new).trimThreshold());
        assertEquals(HeapTrim.NEVER, Pool.builder(Object::new).maxTotal(1).trimThreshold());
        assertEquals(0.5, Pool.builder(Object::new).maxTotal(1).trimAboveHeap(0.5).trimThreshold());
        for (double ok : new double[] {0, 1, 0.5}) {
            Pool.builder(Object::new).trimAboveHeap(ok).build().close();
            Pool.builder(Object::new).maxTotal(2).trimAboveHeap(ok).build().close();
        }
    }

    @Test
    void anUnboundedPoolGivesEveryIdleObjectBackWithinTwoTrimsAndDestroysEachOnce() {
        Map<Object, AtomicInteger> destroyed = new ConcurrentHashMap<>();
        // Aging never by time: only trims drop anything here.
        try (Pool<Object> pool = Pool.builder(Object::new).trimAboveHeap(0)
                .agingInterval(ChronoUnit.FOREVER.getDuration())
                .destroy(x -> destroyed.computeIfAbsent(x, k -> new AtomicInteger()).incrementAndGet())
                .name("trim-unbounded").build();
                Pool<Object> never = Pool.builder(Object::new).trimAboveHeap(1)
                        .agingInterval(ChronoUnit.FOREVER.getDuration()).name("trim-never").build()) {
            List<Object> objects = fill(pool, 20);
            fill(never, 20);
            assertEquals(20, pool.stats().idle());
            TrimPolling.collectUntil(() -> pool.stats().trims(), pool.stats().trims() + 2, () -> pool.stats().toString());
            PoolStats s = pool.stats();
            assertEquals(0, s.idle(), s.toString());
            assertEquals(20, s.dropped(), s.toString());
            for (Object x : objects) {
                assertEquals(1, destroyed.get(x).get(), "destroyed once");
            }
            assertEquals(0, never.stats().trims(), never.stats().toString());
            assertEquals(20, never.stats().idle(), never.stats().toString());
            assertTrue(s.toString().contains("| trims " + s.trims() + " |"), s.toString());
        }
    }

    @Test
    void aBoundedPoolTrimsDownToMinIdleAndGetsItsCapacityBack() {
        AtomicInteger destroyed = new AtomicInteger();
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(8).minIdle(2).trimAboveHeap(0)
                .destroy(x -> destroyed.incrementAndGet()).name("trim-bounded").build();
                Pool<Object> kept = Pool.builder(Object::new).maxTotal(8).name("trim-bounded-default").build()) {
            fill(pool, 8);
            fill(kept, 8);
            assertEquals(8, pool.stats().idle());
            TrimPolling.collectUntil(() -> pool.stats().trims(), pool.stats().trims() + 1, () -> pool.stats().toString());
            assertEquals(2, pool.stats().idle(), pool.stats().toString());
            assertEquals(6, destroyed.get());
            assertEquals(0, kept.stats().trims(), "a bounded pool does not trim by default");
            assertEquals(8, kept.stats().idle());
            fill(pool, 8); // the whole cap again: the trimmed objects' capacity came back
            assertEquals(0, pool.stats().timeouts());
        }
    }

    /**
     * The wiring of {@link TrimGate} into both engines, with the collections reported by hand at
     * clock readings far ahead of the real clock (so that a real collection, reported with the
     * real clock, finds every trim held back once one dropped objects): a trim that dropped
     * objects holds the next for {@link TrimGate#HOLD_NANOS}, and the pool trims again after it.
     * A threshold just above 0 makes every collection trim, soft or hard as the heap stands.
     */
    @Test
    void aTrimThatDroppedObjectsHoldsTheNextBackForTheHoldInBothEngines() {
        long t = System.nanoTime() + 1000 * TrimGate.HOLD_NANOS;
        long hold = TrimGate.HOLD_NANOS;
        UnboundedPool<Object> unbounded = PoolAssertions.engine(Pool.builder(Object::new)
                .trimAboveHeap(Double.MIN_VALUE).agingInterval(ChronoUnit.FOREVER.getDuration()), "held-unbounded");
        try (unbounded) {
            fill(unbounded, 20);
            unbounded.onGarbageCollection(t);
            unbounded.onGarbageCollection(t + 1); // a soft trim drops on the second
            assertEquals(0, unbounded.stats().idle(), unbounded.stats().toString());
            fill(unbounded, 20);
            unbounded.onGarbageCollection(t + 2);
            unbounded.onGarbageCollection(t + hold - 1);
            assertEquals(20, unbounded.stats().idle(), "held back within the hold: " + unbounded.stats());
            unbounded.onGarbageCollection(t + hold + 1);
            unbounded.onGarbageCollection(t + hold + 2);
            assertEquals(0, unbounded.stats().idle(), "trimmed again after the hold: " + unbounded.stats());
            assertEquals(40, unbounded.stats().dropped(), unbounded.stats().toString());
        }
        BoundedPool<Object> bounded = BoundedPool.start(Pool.builder(Object::new).maxTotal(8)
                .trimAboveHeap(Double.MIN_VALUE).settings("held-bounded"));
        try (bounded) {
            fill(bounded, 8);
            bounded.maintenance().trimIfHeapShort(t);
            assertEquals(0, bounded.stats().idle(), bounded.stats().toString());
            fill(bounded, 8);
            bounded.maintenance().trimIfHeapShort(t + 1);
            bounded.maintenance().trimIfHeapShort(t + hold - 1);
            assertEquals(8, bounded.stats().idle(), "held back within the hold: " + bounded.stats());
            bounded.maintenance().trimIfHeapShort(t + hold + 1);
            assertEquals(0, bounded.stats().idle(), "trimmed again after the hold: " + bounded.stats());
        }
    }

    /**
     * Idle memory goes back within two collections under pressure, whatever the pool held: here
     * a burst of 20 objects idle beside one already idle for a cycle. The first soft trim drops
     * that one (which starts the hold) and marks the burst; the next collection's trim drops the
     * burst inside the hold. It held the burst back a second longer before; and it is the only
     * trim the hold lets through: objects made after it wait for the hold's end.
     */
    @Test
    void aBurstIdleBesideAnOlderObjectGoesWithinTwoCollections() {
        long t = System.nanoTime() + 1000 * TrimGate.HOLD_NANOS;
        UnboundedPool<Object> pool = PoolAssertions.engine(Pool.builder(Object::new)
                .trimAboveHeap(Double.MIN_VALUE).agingInterval(ChronoUnit.FOREVER.getDuration()), "burst-beside-old");
        try (pool) {
            List<Object> burst = new ArrayList<>();
            for (int i = 0; i < 21; i++) {
                burst.add(pool.acquire());
            }
            pool.release(burst.remove(0));
            pool.onGarbageCollection(t); // marks the one idle object: a trim that dropped nothing
            assertEquals(0, pool.stats().dropped(), pool.stats().toString());
            burst.forEach(pool::release);
            assertEquals(21, pool.stats().idle(), pool.stats().toString());
            pool.onGarbageCollection(t + 1); // drops the older one, marks the burst
            assertEquals(1, pool.stats().dropped(), pool.stats().toString());
            pool.onGarbageCollection(t + 2);
            assertEquals(0, pool.stats().idle(), "the burst is gone at the second collection: " + pool.stats());
            fill(pool, 20);
            pool.onGarbageCollection(t + 3);
            pool.onGarbageCollection(t + TrimGate.HOLD_NANOS);
            assertEquals(20, pool.stats().idle(), "objects made after the finishing trim wait for the hold: "
                    + pool.stats());
        }
    }

    /** Acquires {@code n} objects at once, then releases them all; returns them. */
    private static List<Object> fill(Pool<Object> pool, int n) {
        List<Object> held = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            held.add(pool.acquire(Duration.ofSeconds(10)));
        }
        held.forEach(pool::release);
        return held;
    }

    /** The level for a heap left {@code used} of {@code max} bytes full by a collection. */
    private static int level(double threshold, long used, long max) {
        return HeapTrim.level(threshold, HeapTrim.fraction(used, max));
    }

    /**
     * A bounded pool's trim destroys only the idle objects beyond minIdle, decided from a count
     * taken after it set its candidates aside: acquisitions while its first destroy hook runs
     * (here by the hook itself, until fewer than minIdle are idle) take objects it keeps, and no
     * later destroy of the trim takes one more of the idle objects left.
     */
    @Test
    void aBoundedTrimNeverDestroysTheIdleObjectsMinIdleKeeps() {
        final int minIdle = 2;
        AtomicReference<BoundedPool<Object>> self = new AtomicReference<>();
        AtomicInteger destroyed = new AtomicInteger();
        AtomicInteger idleAfterFirst = new AtomicInteger(-1);
        List<Integer> idleAtLaterDestroys = new CopyOnWriteArrayList<>();
        List<Object> taken = new CopyOnWriteArrayList<>();
        Pool<Object> pool = Pool.builder(Object::new).maxTotal(4).minIdle(minIdle).trimAboveHeap(0)
                .destroy(x -> {
                    BoundedPool<Object> p = self.get();
                    if (destroyed.incrementAndGet() == 1) {
                        while (p.states().countIdle() >= minIdle) { // another borrower, meanwhile
                            taken.add(p.acquire(Duration.ZERO));
                        }
                        idleAfterFirst.set(p.states().countIdle());
                    } else {
                        idleAtLaterDestroys.add(p.states().countIdle());
                    }
                }).name("trim-min-idle").build();
        self.set((BoundedPool<Object>) pool);
        try {
            List<Object> all = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                all.add(pool.acquire());
            }
            all.forEach(pool::release);
            TrimPolling.collectUntil(() -> pool.stats().trims(), 1, () -> pool.stats().toString());
            assertEquals(4 - minIdle, destroyed.get(), "the trim destroys the objects beyond minIdle: " + pool.stats());
            for (int idle : idleAtLaterDestroys) {
                assertTrue(idle >= idleAfterFirst.get(), "with " + idleAfterFirst.get() + " object(s) idle and minIdle "
                        + minIdle + ", the trim destroyed an idle object as well (" + idle + " left idle)");
            }
        } finally {
            taken.forEach(pool::release);
            pool.close();
        }
    }
}
