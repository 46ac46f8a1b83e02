package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The spare entries behind a private slot, here without a destroy hook (plain takes and puts;
 * {@link SpareEntryExactTest} runs every test again with one): a thread that holds up to
 * {@code PrivateSlot.SPARES + 1} objects at once keeps them all in its slot. Each test attacks
 * one of their promises: a second release of any idle object is refused on every path, every
 * entry is counted idle, ages out like the slot's object, is forgotten at close and goes back to
 * the stripes when its thread dies; entries that aging emptied below full ones are skipped; the
 * entries never take the pool over {@code maxIdle}.
 */
class SpareEntryTest {
    /** The most objects a thread keeps in its slot: the slot's own and one per spare entry. */
    private static final int MAGAZINE = PrivateSlot.SPARES + 1;

    final Tracked.Factory objects = new Tracked.Factory();

    /** The builder of every pool of these tests. */
    PoolBuilder<Tracked> builder() {
        return Pool.builder(objects::create);
    }

    UnboundedPool<Tracked> pool(String name) {
        return engine(builder().agingInterval(MANUAL_AGING), name);
    }

    /** Holds {@code k} objects, releases them in reverse; returns them in acquisition order. */
    static Tracked[] holdAndRelease(Pool<Tracked> pool, int k) {
        Tracked[] held = new Tracked[k];
        for (int i = 0; i < k; i++) {
            held[i] = pool.acquire();
        }
        for (int i = k - 1; i >= 0; i--) {
            pool.release(held[i]);
        }
        return held;
    }

    /** The calling thread's slot in {@code pool}. */
    static PrivateSlot callersSlot(UnboundedPool<?> pool) {
        return pool.registry.stream().filter(x -> x.owner == Thread.currentThread()).findFirst().orElseThrow();
    }

    static int idleInStripes(UnboundedPool<?> pool) {
        int n = 0;
        for (Stripe st : pool.stripes()) {
            n += st.countIdle();
        }
        return n;
    }

    @ParameterizedTest(name = "{0} held at once")
    @ValueSource(ints = {2, 3, 4, 5, 8})
    void upToEightHeldObjectsCycleThroughTheSlotWithoutTheStripes(int k) {
        try (UnboundedPool<Tracked> pool = pool("spare-cycle-" + k)) {
            for (int i = 0; i < 1_000; i++) {
                holdAndRelease(pool, k);
            }
            PoolStats s = pool.stats();
            assertEquals(k, s.created(), s::toString);
            assertEquals(k, s.idle(), s::toString);
            assertEquals(0, s.homeHits() + s.stolenHits() + s.victimHits(), s::toString);
            assertEquals(0, idleInStripes(pool));
            assertBalanced(pool);
        }
    }

    @Test
    void oneObjectMoreThanTheSlotKeepsGoesThroughTheStripes() {
        try (UnboundedPool<Tracked> pool = pool("spare-overflow")) {
            int cycles = 1_000;
            for (int i = 0; i < cycles; i++) {
                holdAndRelease(pool, MAGAZINE + 1);
            }
            PoolStats s = pool.stats();
            assertEquals(MAGAZINE + 1, s.created(), s::toString);
            assertEquals(MAGAZINE + 1, s.idle(), s::toString);
            assertEquals(cycles - 1, s.homeHits() + s.stolenHits() + s.victimHits(), s::toString);
            assertEquals(1, idleInStripes(pool));
            assertBalanced(pool);
        }
    }

    /** Every object idle in the slot, whichever entry holds it, is refused a second release. */
    @Test
    void aSecondReleaseOfAnyIdleObjectIsRefusedWhetherTheSlotIsFullOrEmpty() {
        try (UnboundedPool<Tracked> pool = pool("spare-twice")) {
            Tracked[] held = holdAndRelease(pool, MAGAZINE);
            for (Tracked x : held) {
                assertThrows(IllegalStateException.class, () -> pool.release(x), "the slot is full");
            }
            Tracked first = pool.acquire(); // empties the slot's own entry: the fast path could now put
            assertSame(held[MAGAZINE - 1], first, "the last released is the first acquired");
            for (Tracked x : held) {
                if (x != first) {
                    assertThrows(IllegalStateException.class, () -> pool.release(x), "the slot is empty");
                }
            }
            pool.release(first);
            Map<Tracked, Boolean> seen = new IdentityHashMap<>();
            List<Tracked> again = new ArrayList<>();
            for (int i = 0; i < MAGAZINE; i++) {
                Tracked x = pool.acquire();
                assertEquals(null, seen.put(x, true), "each object was pooled once only");
                again.add(x);
            }
            for (int i = again.size() - 1; i >= 0; i--) {
                pool.release(again.get(i));
            }
            assertEquals(MAGAZINE, pool.stats().created());
            assertBalanced(pool);
        }
    }

    /**
     * Every fill (k objects) and every depth (d of them taken, released and taken again, which
     * moves the slot between its fast and checked paths): a second release of each object still
     * idle is refused, whichever entry holds it.
     */
    @Test
    void aSecondReleaseIsRefusedAtEveryFillAndEveryDepth() {
        for (int k = 2; k <= MAGAZINE; k++) {
            for (int d = 1; d < k; d++) {
                try (UnboundedPool<Tracked> pool = pool("spare-twice-" + k + "-" + d)) {
                    Tracked[] all = holdAndRelease(pool, k);
                    Tracked[] taken = new Tracked[d];
                    for (int round = 0; round < 2; round++) {
                        for (int i = 0; i < d; i++) {
                            taken[i] = pool.acquire();
                        }
                        if (round == 0) {
                            for (int i = d - 1; i >= 0; i--) {
                                pool.release(taken[i]);
                            }
                        }
                    }
                    Map<Tracked, Boolean> out = new IdentityHashMap<>();
                    for (Tracked x : taken) {
                        out.put(x, true);
                    }
                    for (Tracked x : all) {
                        if (!out.containsKey(x)) {
                            int fill = k;
                            int depth = d;
                            assertThrows(IllegalStateException.class, () -> pool.release(x),
                                    () -> x + " idle, " + fill + " filled, " + depth + " taken");
                        }
                    }
                    for (int i = d - 1; i >= 0; i--) {
                        pool.release(taken[i]);
                    }
                    assertEquals(k, pool.stats().created());
                    assertEquals(k, pool.stats().idle());
                    assertBalanced(pool);
                }
            }
        }
    }

    @Test
    void idleSpareEntriesAgeOutWhileTheSlotKeepsCycling() {
        try (UnboundedPool<Tracked> pool = pool("spare-aging")) {
            holdAndRelease(pool, MAGAZINE);
            for (int cycle = 0; cycle < 3; cycle++) {
                pool.release(pool.acquire()); // the slot's object only: the spare entries sit idle
                forceAgingCycle(pool);
            }
            PoolStats s = pool.stats();
            assertEquals(1, s.idle(), s::toString);
            assertEquals(MAGAZINE - 1, s.dropped(), s::toString);
            assertBalanced(pool);
        }
    }

    /**
     * Aging empties every spare entry of a thread that went back to one object at a time: its
     * releases go back to the fast path, which full entries close. They stayed on the checked
     * path for good, since only a take from a spare entry, which such a thread never makes again,
     * saw the entries empty.
     */
    @Test
    void aThreadBackToOneObjectAfterAgingEmptiedItsSpareEntriesReleasesOnTheFastPathAgain() {
        try (UnboundedPool<Tracked> pool = pool("spare-emptied")) {
            holdAndRelease(pool, MAGAZINE);
            PrivateSlot s = callersSlot(pool);
            assertEquals(PrivateSlot.NO_FAST_PUT, s.fastPut, "precondition: full entries close the fast path");
            for (int cycle = 0; cycle < 3; cycle++) {
                pool.release(pool.acquire()); // the slot's object only: the spare entries sit idle
                forceAgingCycle(pool);
            }
            assertEquals(MAGAZINE - 1, pool.stats().dropped(), "precondition: aging emptied every entry");
            pool.release(pool.acquire());
            assertEquals(s.fastPutOnPermit, s.fastPut, "the release fast path stayed closed");
            assertEquals(0, s.spareTop);
            holdAndRelease(pool, 3); // the entries fill again
            assertEquals(1 + 2, pool.stats().idle(), pool.stats()::toString);
            assertBalanced(pool);
        }
    }

    /**
     * Aging empties the bottom entries while the thread keeps cycling the top ones: the owner's
     * next takes skip the holes, nothing is handed out twice and the accounting holds.
     */
    @Test
    void entriesEmptiedByAgingBelowFullOnesAreSkipped() {
        try (UnboundedPool<Tracked> pool = pool("spare-holes")) {
            holdAndRelease(pool, MAGAZINE);
            for (int cycle = 0; cycle < 3; cycle++) {
                holdAndRelease(pool, 3); // the slot's object and the two top entries move
                forceAgingCycle(pool);
            }
            PoolStats aged = pool.stats();
            assertEquals(3, aged.idle(), aged::toString);
            assertEquals(MAGAZINE - 3, aged.dropped(), aged::toString);
            Tracked[] held = new Tracked[MAGAZINE];
            Map<Tracked, Boolean> seen = new IdentityHashMap<>();
            for (int i = 0; i < MAGAZINE; i++) {
                held[i] = pool.acquire();
                assertEquals(null, seen.put(held[i], true), "an object handed out twice");
            }
            PoolStats s = pool.stats();
            assertEquals(MAGAZINE + MAGAZINE - 3, s.created(), s::toString);
            for (int i = MAGAZINE - 1; i >= 0; i--) {
                pool.release(held[i]);
            }
            assertEquals(MAGAZINE, pool.stats().idle(), () -> pool.stats().toString());
            assertBalanced(pool);
        }
    }

    @Test
    void closeForgetsEverySpareEntrysObject() {
        UnboundedPool<Tracked> pool = pool("spare-close");
        holdAndRelease(pool, MAGAZINE);
        pool.close();
        PoolStats s = pool.stats();
        assertEquals(0, s.idle(), s::toString);
        assertEquals(MAGAZINE, s.dropped(), s::toString);
        assertThrows(PoolClosedException.class, pool::acquire);
    }

    @Test
    void aDeadThreadsSpareEntriesGoBackToTheStripes() throws Exception {
        try (UnboundedPool<Tracked> pool = pool("spare-reap")) {
            Thread t = new Thread(() -> holdAndRelease(pool, MAGAZINE));
            t.start();
            t.join();
            Tracked[] held = new Tracked[MAGAZINE];
            for (int i = 0; i < MAGAZINE; i++) {
                held[i] = pool.acquire(); // this thread's first slot reaps the dead one
                for (int j = 0; j < i; j++) {
                    assertNotSame(held[j], held[i]);
                }
            }
            assertEquals(MAGAZINE, pool.stats().created(), () -> pool.stats().toString());
            for (int i = MAGAZINE - 1; i >= 0; i--) {
                pool.release(held[i]);
            }
            assertBalanced(pool);
        }
    }

    /** The entries borrow their room from maxIdle: a small cap bounds them, whatever k. */
    @ParameterizedTest(name = "maxIdle {0}")
    @ValueSource(ints = {1, 2, 3, 4, 9})
    void theSpareEntriesNeverTakeThePoolOverMaxIdle(int maxIdle) {
        try (UnboundedPool<Tracked> pool = engine(builder()
                .agingInterval(MANUAL_AGING).maxIdle(maxIdle), "spare-max-idle-" + maxIdle)) {
            for (int i = 0; i < 100; i++) {
                holdAndRelease(pool, MAGAZINE + 2);
                PoolStats s = pool.stats();
                assertTrue(s.idle() <= maxIdle, s::toString);
            }
            assertBalanced(pool);
        }
    }

    /** Four threads, each holding eight at once: no object is held by two of them at a time. */
    @Test
    void threadsHoldingSeveralNeverShareAnObject() throws Exception {
        try (UnboundedPool<Tracked> pool = pool("spare-threads")) {
            assertEquals(List.of(), holdInThreads(pool, new int[] {MAGAZINE, MAGAZINE, MAGAZINE, MAGAZINE}, () -> { }));
            assertBalanced(pool);
        }
    }

    /**
     * One thread per entry of {@code held}, each holding that many objects at once, 20,000 times,
     * while this thread runs {@code meanwhile} over and over. Each acquisition is checked: held by
     * no other thread (an owner set by compare-and-set) and never destroyed.
     *
     * @return what the threads threw, empty if nothing
     */
    static List<Throwable> holdInThreads(Pool<Tracked> pool, int[] held, Runnable meanwhile)
            throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
        for (int k : held) {
            Thread th = new Thread(() -> {
                try {
                    for (int i = 0; i < 20_000; i++) {
                        Tracked[] objects = new Tracked[k];
                        for (int j = 0; j < k; j++) {
                            objects[j] = pool.acquire();
                            if (objects[j].destroys.get() != 0) {
                                throw new AssertionError("handed out after its destroy: " + objects[j]);
                            }
                            if (!objects[j].owner.compareAndSet(null, Thread.currentThread())) {
                                throw new AssertionError(objects[j] + " held by two threads");
                            }
                        }
                        for (int j = k - 1; j >= 0; j--) {
                            objects[j].owner.set(null);
                            pool.release(objects[j]);
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            });
            threads.add(th);
            th.start();
        }
        while (threads.stream().anyMatch(Thread::isAlive)) {
            meanwhile.run();
        }
        for (Thread th : threads) {
            th.join();
        }
        return errors;
    }
}
