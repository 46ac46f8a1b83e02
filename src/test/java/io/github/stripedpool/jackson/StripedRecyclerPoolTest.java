package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.PoolBuilder;
import io.github.stripedpool.PoolStats;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The pool as Jackson uses it: round trips, the linking contract, counts, clear, settings. */
@Timeout(60)
class StripedRecyclerPoolTest {
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final List<StripedRecyclerPool> pools = new ArrayList<>();

    @AfterEach
    void closePools() {
        pools.forEach(p -> p.pool().close());
    }

    /** A pool of {@link ExclusiveRecycler}s, closed after the test. */
    private StripedRecyclerPool exclusive(Consumer<? super PoolBuilder<BufferRecycler>> settings) {
        StripedRecyclerPool p = new StripedRecyclerPool(() -> new ExclusiveRecycler(violations), settings);
        pools.add(p);
        return p;
    }

    private StripedRecyclerPool tracked(StripedRecyclerPool p) {
        pools.add(p);
        return p;
    }

    @Test
    void roundTripsOnPlatformThreadsUseEachRecyclerExclusivelyAndGiveEveryOneBack() throws Exception {
        StripedRecyclerPool pool = exclusive(b -> b.name("json-platform"));
        ObjectMapper mapper = Documents.mapper(pool);
        int threads = 4;
        int trips = 300;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> sizes = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long first = t * (long) trips;
                sizes.add(executor.submit(() -> {
                    int size = 0;
                    for (int i = 0; i < trips; i++) {
                        size = Documents.roundTrip(mapper, first + i);
                    }
                    return size;
                }));
            }
            for (Future<Integer> f : sizes) {
                int size = f.get();
                assertTrue(size > 1024 && size < 4096, "the document should be 1-4 KB, is " + size);
            }
        } finally {
            executor.shutdownNow();
        }
        PoolStats s = pool.stats();
        assertTrue(violations.isEmpty(), "recyclers used by two threads at once: " + violations);
        // writeValueAsBytes and readValue take a recycler each
        assertTrue(s.acquired() >= 2L * threads * trips, "Jackson did not use the pool: " + s);
        assertEquals(s.acquired(), s.released(), "every recycler must come back: " + s);
        assertEquals(0, s.inUse(), s.toString());
        assertTrue(s.created() <= 4L * threads, "one recycler per thread in use should do: " + s);
    }

    @Test
    void releaseToPoolUnlinksTheRecyclerAndTheSameThreadGetsItBack() {
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool());
        BufferRecycler r = pool.acquireAndLinkPooled();
        assertTrue(r.isLinkedWithPool());
        r.releaseToPool();
        assertFalse(r.isLinkedWithPool(), "releaseToPool must unlink");
        assertEquals(1, pool.pooledCount());
        BufferRecycler again = pool.acquireAndLinkPooled();
        assertSame(r, again, "a platform thread takes back its own recycler");
        again.releaseToPool();
        assertEquals(1, pool.stats().created());
    }

    @Test
    void aRecyclerStillLinkedIsRefusedAndNotPooled() {
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool());
        BufferRecycler r = pool.acquireAndLinkPooled();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> pool.releasePooled(r));
        assertTrue(e.getMessage().contains("releaseToPool()"), e.getMessage());
        assertEquals(0, pool.pooledCount(), "a linked recycler must not be pooled");
        r.releaseToPool();
        assertEquals(1, pool.pooledCount());
        assertThrows(NullPointerException.class, () -> pool.releasePooled(null));
    }

    @Test
    void aRecyclerIsNeverLinkedToTwoPools() {
        StripedRecyclerPool a = tracked(StripedRecyclerPool.newPool(b -> b.name("json-a")));
        StripedRecyclerPool b = tracked(StripedRecyclerPool.newPool(x -> x.name("json-b")));
        BufferRecycler r = a.acquireAndLinkPooled();
        assertThrows(IllegalStateException.class, () -> r.withPool(b), "Jackson links a recycler once");
        r.releaseToPool();
        for (int i = 0; i < 1000; i++) {
            BufferRecycler fromA = a.acquireAndLinkPooled();
            BufferRecycler fromB = b.acquireAndLinkPooled();
            assertNotSame(fromA, fromB);
            fromB.releaseToPool();
            fromA.releaseToPool();
        }
        assertEquals(1, a.stats().created());
        assertEquals(1, b.stats().created());
        assertEquals(a.stats().acquired(), a.stats().released());
        assertEquals(b.stats().acquired(), b.stats().released());
    }

    @Test
    void aForeignRecyclerIsPooledByDefaultAndRefusedUnderParanoidLeakDetection() {
        StripedRecyclerPool plain = tracked(StripedRecyclerPool.newPool());
        plain.releasePooled(new BufferRecycler());
        assertEquals(1, plain.pooledCount(), "an unbounded pool without leak detection pools it");
        StripedRecyclerPool paranoid = tracked(StripedRecyclerPool.newPool(
                b -> b.leakDetection(LeakDetection.PARANOID)));
        assertThrows(IllegalArgumentException.class, () -> paranoid.releasePooled(new BufferRecycler()));
        assertEquals(0, paranoid.pooledCount());
    }

    @Test
    void pooledCountTellsTheIdleRecyclersAndClearDropsThemButNotTheOnesInUse() {
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool());
        List<BufferRecycler> held = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            held.add(pool.acquireAndLinkPooled());
        }
        assertEquals(0, pool.pooledCount());
        BufferRecycler inUse = held.remove(5);
        held.forEach(BufferRecycler::releaseToPool);
        assertEquals(5, pool.pooledCount());
        assertTrue(pool.clear());
        assertEquals(0, pool.pooledCount(), "clear() must drop every idle recycler: " + pool.stats());
        assertEquals(5, pool.stats().invalidated());
        inUse.releaseToPool();
        assertEquals(1, pool.pooledCount(), "the recycler in use comes back after clear()");
        assertEquals(pool.stats().acquired(), pool.stats().released());
        pool.pool().close();
        assertTrue(pool.clear(), "clear() of a closed pool has nothing to do");
    }

    /**
     * A pool closed while clear() runs (by another thread at shutdown; here, deterministically,
     * by the destroy hook of the first recycler clear() drops) has nothing left to clear: clear()
     * returns true rather than throw the closed pool's exception into Jackson.
     */
    @Test
    void clearOfAPoolClosedMeanwhileReturnsTrue() {
        java.util.concurrent.atomic.AtomicReference<StripedRecyclerPool> self =
                new java.util.concurrent.atomic.AtomicReference<>();
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool(
                b -> b.destroy(r -> self.get().pool().close())));
        self.set(pool);
        List<BufferRecycler> held = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            held.add(pool.acquireAndLinkPooled());
        }
        held.forEach(BufferRecycler::releaseToPool);
        assertEquals(3, pool.pooledCount());
        assertTrue(pool.clear());
        assertTrue(pool.pool().isClosed());
        assertEquals(0, pool.pooledCount(), pool.stats().toString());
    }

    @Test
    void clearStopsAtTheFirstRecyclerItWouldHaveToCreate() {
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool());
        assertTrue(pool.clear());
        assertEquals(0, pool.stats().created(), "clear() of an empty pool creates nothing");
        BufferRecycler r = pool.acquireAndLinkPooled();
        r.releaseToPool();
        assertTrue(pool.clear());
        assertTrue(pool.clear());
        assertEquals(1, pool.stats().created(), pool.stats().toString());
    }

    /**
     * Jackson's {@code RecyclerPool.clear()}: true only if every pooled recycler was dropped.
     * Five recyclers idle in a live worker's private slot and spare entries are out of the
     * caller's reach: clear() drops none of them and says so; the one recycler it made on finding
     * none within reach is dropped too, and counted as created, missed and invalidated. With the
     * worker's recyclers and one in the caller's own slot, it drops the caller's, stops at the
     * first it would have to make, and says false again.
     */
    @Test
    void clearReturnsFalseWhenRecyclersIdleInOtherThreadsSlotsStay() throws Exception {
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool());
        java.util.concurrent.CountDownLatch released = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        Thread worker = new Thread(() -> {
            List<BufferRecycler> held = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                held.add(pool.acquireAndLinkPooled());
            }
            held.forEach(BufferRecycler::releaseToPool);
            released.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        worker.start();
        try {
            released.await();
            assertEquals(5, pool.pooledCount());
            assertFalse(pool.clear(), "five recyclers stay pooled in the worker's slot: " + pool.stats());
            assertEquals(5, pool.pooledCount(), pool.stats().toString());
            PoolStats s = pool.stats();
            assertEquals(6, s.created(), "the one made on finding none within reach: " + s);
            assertEquals(1, s.invalidated(), s.toString());

            pool.acquireAndLinkPooled().releaseToPool(); // a new recycler, in the caller's own slot
            assertEquals(6, pool.pooledCount());
            assertEquals(7, pool.stats().created(), pool.stats().toString());
            assertFalse(pool.clear(), pool.stats().toString());
            assertEquals(5, pool.pooledCount(), "the caller's own recycler is dropped: " + pool.stats());
            assertEquals(8, pool.stats().created(), pool.stats().toString());
            assertEquals(3, pool.stats().invalidated(), pool.stats().toString());
        } finally {
            done.countDown();
            worker.join();
        }
    }

    @Test
    void settingsStartFromTheDefaultsAndABoundedPoolIsRefused() {
        StripedRecyclerPool defaults = tracked(StripedRecyclerPool.newPool());
        assertEquals(StripedRecyclerPool.DEFAULT_NAME, defaults.pool().name());
        assertEquals(StripedRecyclerPool.DEFAULT_MAX_IDLE, defaults.stats().idleCapacity());
        assertEquals(0, defaults.stats().maxTotal());
        assertEquals("StripedRecyclerPool[jackson-recyclers]", defaults.toString());
        StripedRecyclerPool named = tracked(StripedRecyclerPool.newPool(b -> b.name("api-json").maxIdle(8)));
        assertEquals("api-json", named.stats().name());
        assertEquals(8, named.stats().idleCapacity());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StripedRecyclerPool.newPool(b -> b.maxTotal(4)));
        assertTrue(e.getMessage().contains("maxIdle"), e.getMessage());
        assertThrows(NullPointerException.class, () -> StripedRecyclerPool.newPool(null));
    }

    @Test
    void aSerializedPoolComesBackAsANewEmptyPoolWithTheSameName() throws Exception {
        StripedRecyclerPool pool = tracked(StripedRecyclerPool.newPool(b -> b.name("json-serial")));
        pool.acquireAndLinkPooled().releaseToPool();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(pool);
        }
        Object read;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            read = in.readObject();
        }
        StripedRecyclerPool copy = tracked(assertInstanceOf(StripedRecyclerPool.class, read));
        assertNotSame(pool.pool(), copy.pool());
        assertEquals("json-serial", copy.pool().name());
        assertEquals(0, copy.pooledCount());
        Documents.roundTrip(Documents.mapper(copy), 1);
        assertEquals(1, copy.pooledCount());
    }
}
