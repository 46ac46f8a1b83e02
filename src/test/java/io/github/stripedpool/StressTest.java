package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several threads acquire and release millions of times through a small pool, so that private
 * slots, stealing, drops over {@code maxIdle}, aging at every collection and stats snapshots all
 * happen at once. Every object carries an owner set by compare-and-set while it is held: a
 * failed CAS means two threads held it at once. Every destroy is counted per object, so "exactly
 * once" is checked object by object, not only in total.
 */
@Timeout(120)
class StressTest {
    private static final int WORKERS = 4;
    private static final int CYCLES_PER_WORKER = 2_000_000;
    /** Smaller than what the workers hold at their peak, so releases find the pool full. */
    private static final int MAX_IDLE = 6;

    private final Tracked.Factory objects = new Tracked.Factory();
    private final ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();

    private Pool<Tracked> stressedPool(String name) {
        return objects.builder().maxIdle(MAX_IDLE).agingInterval(Duration.ZERO).name(name).build();
    }

    @Test
    void manyThreadsNeverShareAnObjectAndEveryDropIsDestroyedOnce() throws InterruptedException {
        Pool<Tracked> pool = stressedPool("stress");
        AtomicLong cycles = new AtomicLong();
        long t0 = System.nanoTime();
        Background background = new Background(pool);
        try {
            runWorkers(pool, w -> {
                Holder h = new Holder(pool, w);
                for (int i = 0; i < CYCLES_PER_WORKER && failures.isEmpty(); i++) {
                    h.cycle();
                }
                h.releaseAll();
                cycles.addAndGet(h.cycles);
            });
        } finally {
            background.stop();
        }
        assertTrue(failures.isEmpty(), () -> String.join("\n", failures));

        Quiescent q = quiescent(pool);
        PoolStats s = q.stats;
        System.out.printf("stress: %d cycles by %d threads in %d ms: %s%n", cycles.get(), WORKERS,
                TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0), s);
        assertEquals(0, s.inUse(), s::toString);
        assertEquals(s.created(), objects.made.size(), s::toString);
        assertEquals(s.dropped(), q.destroyed, "dropped objects vs destroy calls: " + s);
        assertEquals(0, q.destroyedTwice, "objects destroyed twice");
        assertEquals(s.idle(), q.neverDestroyed, "idle objects vs objects never destroyed: " + s);
        assertTrue(s.stolenHits() > 0, "the load should make threads steal: " + s);
        assertTrue(s.dropped() > 0, "the load should overflow maxIdle: " + s);

        pool.close();
        s = assertBalanced(pool);
        assertEquals(s.created(), s.dropped(), s::toString);
        assertEquals(s.created(), objects.destroyed.get(), "after close every object is destroyed");
        assertTrue(objects.neverDestroyed().isEmpty(), () -> "never destroyed: " + objects.neverDestroyed());
        assertTrue(objects.destroyedTwice().isEmpty(), () -> "destroyed twice: " + objects.destroyedTwice());
    }

    @Test
    void closeWhileThreadsStillReleaseDestroysEveryObjectExactlyOnce() throws InterruptedException {
        for (int round = 0; round < 5; round++) {
            objects.made.clear();
            objects.destroyed.set(0);
            Pool<Tracked> pool = stressedPool("stress-close-" + round);
            AtomicLong progress = new AtomicLong();
            long closeAfter = 50_000 + 50_000L * round;
            CountDownLatch closed = new CountDownLatch(1);
            Thread closer = new Thread(() -> {
                while (progress.get() < closeAfter && failures.isEmpty()) {
                    Thread.onSpinWait();
                }
                pool.close();
                closed.countDown();
            }, "closer");
            closer.start();
            Background background = new Background(pool);
            try {
                runWorkers(pool, w -> {
                    Holder h = new Holder(pool, w);
                    try {
                        while (failures.isEmpty()) {
                            h.cycle();
                            progress.incrementAndGet();
                        }
                    } catch (PoolClosedException expected) {
                        // the pool closed under this thread: give back what it holds, as callers do
                    } finally {
                        h.releaseAll();
                    }
                });
            } finally {
                background.stop();
            }
            closer.join();
            assertTrue(closed.getCount() == 0, "close() did not complete");
            assertTrue(failures.isEmpty(), () -> String.join("\n", failures));

            PoolStats s = assertBalanced(pool);
            System.out.printf("close under load, round %d, closed after %d cycles: %s%n", round,
                    progress.get(), s);
            assertEquals(0, s.idle(), s::toString);
            assertEquals(0, s.inUse(), s::toString);
            assertEquals(s.created(), s.dropped(), s::toString);
            assertEquals(s.created(), objects.made.size(), s::toString);
            assertEquals(s.created(), objects.destroyed.get(), "every object destroyed once: " + s);
            assertTrue(objects.neverDestroyed().isEmpty(), () -> "never destroyed: " + objects.neverDestroyed());
            assertTrue(objects.destroyedTwice().isEmpty(), () -> "destroyed twice: " + objects.destroyedTwice());
        }
    }

    /** Stats and the objects' own records, read with no aging cycle in between. */
    private static final class Quiescent {
        PoolStats stats;
        int destroyed;
        int neverDestroyed;
        int destroyedTwice;
    }

    /**
     * Reads the pool of finished workers. The aging thread may still drop objects (a collection
     * can come at any time) between the reads; stats() excludes aging while it runs, so equal
     * cycle counts in the snapshots taken before and after make all the reads agree.
     */
    private Quiescent quiescent(Pool<Tracked> pool) {
        for (;;) {
            Quiescent q = new Quiescent();
            PoolStats before = pool.stats();
            q.destroyed = objects.destroyed.get();
            q.neverDestroyed = objects.neverDestroyed().size();
            q.destroyedTwice = objects.destroyedTwice().size();
            q.stats = assertBalanced(pool);
            if (before.agingCycles() == q.stats.agingCycles()) {
                return q;
            }
        }
    }

    /** One worker's objects: it holds from 1 to 1 + worker objects at a time. */
    private final class Holder {
        private final Pool<Tracked> pool;
        private final int most;
        private final Tracked[] held;
        private int count;
        long cycles;

        Holder(Pool<Tracked> pool, int worker) {
            this.pool = pool;
            this.most = 1 + worker;
            this.held = new Tracked[most];
        }

        void cycle() {
            ThreadLocalRandom r = ThreadLocalRandom.current();
            int want = 1 + r.nextInt(most);
            while (count < want) {
                Tracked x = take(pool.acquire()); // before count moves: acquire may throw
                held[count++] = x;
            }
            // Release a random one of those held, and sometimes all of them.
            if (r.nextInt(8) == 0) {
                releaseAll();
            } else {
                int i = r.nextInt(count);
                Tracked x = held[i];
                held[i] = held[--count];
                held[count] = null;
                give(x);
            }
            cycles++;
        }

        void releaseAll() {
            while (count > 0) {
                Tracked x = held[--count];
                held[count] = null;
                give(x);
            }
        }

        private Tracked take(Tracked x) {
            Thread me = Thread.currentThread();
            if (!x.owner.compareAndSet(null, me)) {
                failures.add(me.getName() + " acquired " + x + " while " + x.owner.get() + " holds it");
            }
            if (x.destroys.get() != 0) {
                failures.add(me.getName() + " acquired " + x + ", which was destroyed");
            }
            if (x.payload != null) {
                failures.add(me.getName() + " acquired " + x + " not reset: " + x.payload);
            }
            x.payload = me.getName();
            return x;
        }

        private void give(Tracked x) {
            Thread me = Thread.currentThread();
            if (!x.owner.compareAndSet(me, null)) {
                failures.add(me.getName() + " released " + x + " but it belongs to " + x.owner.get());
            }
            pool.release(x);
        }
    }

    private interface Work {
        void run(int worker) throws Exception;
    }

    private void runWorkers(Pool<Tracked> pool, Work work) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        for (int w = 0; w < WORKERS; w++) {
            int worker = w;
            Thread t = new Thread(() -> {
                try {
                    start.await();
                    work.run(worker);
                } catch (Throwable e) {
                    failures.add(Thread.currentThread().getName() + " failed: " + e);
                    e.printStackTrace();
                }
            }, pool.name() + "-worker-" + w);
            threads.add(t);
            t.start();
        }
        start.countDown();
        for (Thread t : threads) {
            t.join();
        }
    }

    /**
     * While the workers run: provokes collections, so that the pool ages (it ages at every
     * collection) concurrently with acquires and releases, and takes stats snapshots, which visit
     * every slot. The pacing pause only spaces the collections out; nothing waits on it.
     */
    private final class Background {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final Thread thread;

        Background(Pool<Tracked> pool) {
            thread = new Thread(() -> {
                while (!stop.get()) {
                    System.gc();
                    PoolStats s = pool.stats();
                    if (s.idle() > s.idleCapacity()) {
                        failures.add("idle above maxIdle: " + s);
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
                }
            }, "collections");
            thread.start();
        }

        void stop() throws InterruptedException {
            stop.set(true);
            thread.join();
        }
    }
}
