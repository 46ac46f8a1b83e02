package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.Lease;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Many threads at once: no buffer reaches two of them, and the idle bytes stay in the budget. */
class BufferPoolConcurrencyTest {
    private static final int THREADS = 8;

    /** Runs {@code body(threadIndex)} on {@link #THREADS} threads started together; rethrows the first failure. */
    private static void onThreads(ThreadBody body) throws InterruptedException {
        CountDownLatch start = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int id = t;
            Thread th = new Thread(() -> {
                try {
                    start.await();
                    body.run(id);
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "buffer-test-" + t);
            th.start();
            threads.add(th);
        }
        start.countDown();
        for (Thread th : threads) {
            th.join(60_000);
            assertTrue(!th.isAlive(), th.getName() + " did not finish");
        }
        if (failure.get() != null) {
            throw new AssertionError("a thread failed", failure.get());
        }
    }

    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    /** Acquired and released, or leased and the leases closed; oversized buffers among them. */
    @ParameterizedTest(name = "leases: {0}")
    @ValueSource(booleans = {false, true})
    void noBufferIsHeldByTwoThreadsAtOnce(boolean leases) throws InterruptedException {
        Set<Object> held = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        try (BufferPool<ByteBuffer> pool = BufferPool.heapBuffers().maxClassSize(4096).build()) {
            onThreads(t -> {
                SplittableRandom random = new SplittableRandom(t);
                List<ByteBuffer> mine = new ArrayList<>();
                Map<ByteBuffer, Lease<ByteBuffer>> leaseOf = new IdentityHashMap<>();
                for (int i = 0; i < 20_000; i++) {
                    if (mine.size() < 4 && (mine.isEmpty() || random.nextBoolean())) {
                        int n = random.nextInt(5000);
                        ByteBuffer b;
                        if (leases) {
                            Lease<ByteBuffer> l = pool.lease(n);
                            b = l.get();
                            leaseOf.put(b, l);
                        } else {
                            b = pool.acquire(n);
                        }
                        if (!held.add(b)) {
                            fail("buffer handed to two threads at once");
                        }
                        // A stamp of this thread in every long: another holder would overwrite it.
                        long stamp = ((long) t << 32) | i;
                        for (int at = 0; at + 8 <= b.limit(); at += 8) {
                            b.putLong(at, stamp);
                        }
                        b.position(0).mark(); // keeps the stamp in the mark field's reach
                        mine.add(b);
                    } else {
                        ByteBuffer b = mine.remove(random.nextInt(mine.size()));
                        long stamp = b.limit() >= 8 ? b.getLong(0) : 0;
                        for (int at = 0; at + 8 <= b.limit(); at += 8) {
                            assertEquals(stamp, b.getLong(at), "a buffer was written by another thread");
                        }
                        assertTrue(held.remove(b));
                        giveBack(pool, b, leaseOf);
                    }
                }
                for (ByteBuffer b : mine) {
                    held.remove(b);
                    giveBack(pool, b, leaseOf);
                }
            });
            BufferPoolStats s = pool.stats();
            for (int i = 0; i < s.classCount(); i++) {
                assertEquals(0, s.classStats(i).inUse(), s.toString());
            }
            assertEquals(s.oversizedAcquired(), s.oversizedReleased());
            assertTrue(s.oversizedAcquired() > 0, "the oversized path was not taken: " + s);
        }
    }

    /** Closes the buffer's lease if it has one, else releases it. */
    private static void giveBack(BufferPool<ByteBuffer> pool, ByteBuffer b, Map<ByteBuffer, Lease<ByteBuffer>> leaseOf) {
        Lease<ByteBuffer> l = leaseOf.remove(b);
        if (l != null) {
            l.close();
        } else {
            pool.release(b);
        }
    }

    @Test
    void idleBytesNeverExceedTheBudget() throws InterruptedException {
        long budget = 256 * 1024;
        try (BufferPool<byte[]> pool = BufferPool.bytes().maxClassSize(16 * 1024).budget(budget).build()) {
            BufferPoolStats empty = pool.stats();
            long capacity = 0;
            for (int i = 0; i < empty.classCount(); i++) {
                capacity += (long) empty.classKeeps(i) * empty.classSize(i);
                assertTrue(empty.classKeeps(i) > 0, "class " + empty.classSize(i) + " keeps none");
            }
            assertTrue(capacity <= budget, "the shares add up to " + capacity + ", over " + budget);
            AtomicLong worst = new AtomicLong();
            AtomicLong released = new AtomicLong();
            Thread watcher = new Thread(() -> {
                while (!Thread.currentThread().isInterrupted()) {
                    worst.accumulateAndGet(pool.stats().idleBytes(), Math::max);
                }
            });
            watcher.start();
            try {
                onThreads(t -> {
                    SplittableRandom random = new SplittableRandom(100 + t);
                    for (int round = 0; round < 20; round++) {
                        // Hold many at once, then give them all back: each round releases more
                        // than the whole budget, from every thread together.
                        List<byte[]> mine = new ArrayList<>();
                        long bytes = 0;
                        while (bytes < 2 * budget) {
                            byte[] b = pool.acquire(1 + random.nextInt(16 * 1024));
                            bytes += b.length;
                            mine.add(b);
                        }
                        for (byte[] b : mine) {
                            pool.release(b);
                        }
                        released.addAndGet(bytes);
                        worst.accumulateAndGet(pool.stats().idleBytes(), Math::max);
                    }
                });
            } finally {
                watcher.interrupt();
                watcher.join();
            }
            long idle = pool.stats().idleBytes();
            assertTrue(released.get() > 100 * budget, "released only " + released.get());
            assertTrue(idle <= budget, "idle " + idle + " > budget " + budget);
            assertTrue(worst.get() <= budget, "idle reached " + worst.get() + " > budget " + budget);
            // The budget is used, not merely respected by keeping nothing.
            assertTrue(idle >= budget / 4, "idle " + idle + " of " + budget + ": " + pool.stats());
        }
    }

    @Test
    void aBudgetTooSmallForAClassKeepsNoneOfIt() {
        // 4 classes (64 .. 512) adding up to 960 bytes: 512 bytes keep one each of 64, 128 and 256.
        try (BufferPool<byte[]> pool = BufferPool.bytes().maxClassSize(512).budget(512).build()) {
            BufferPoolStats s = pool.stats();
            assertEquals(List.of(1, 1, 1, 0), List.of(s.classKeeps(0), s.classKeeps(1), s.classKeeps(2), s.classKeeps(3)));
            List<byte[]> all = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                all.add(pool.acquire(512));
                all.add(pool.acquire(64));
            }
            all.forEach(pool::release);
            s = pool.stats();
            assertEquals(0, s.classStats(3).idle());
            assertEquals(1, s.classStats(0).idle(), s.toString());
            assertTrue(s.idleBytes() <= 512, s.toString());
        }
        try (BufferPool<byte[]> none = BufferPool.bytes().budget(0).build()) {
            byte[] b = none.acquire(64);
            none.release(b);
            assertEquals(0, none.stats().idleBytes());
            assertEquals(1, none.stats().classStats(0).notRetained());
        }
    }
}
