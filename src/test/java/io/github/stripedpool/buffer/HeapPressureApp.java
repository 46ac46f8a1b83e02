package io.github.stripedpool.buffer;

import io.github.stripedpool.Pool;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Run by {@link HeapTrimTest} in a child JVM with a 64 MiB heap: collections with a nearly
 * empty heap leave the idle objects alone; with the heap filled to about 90 % by live arrays,
 * the next collections give them back. Pools: a buffer pool and an object pool at the default
 * threshold (0.85: 90 % is the soft level, two collections empty them), a bounded pool trimming
 * at 0.85 down to its minIdle, a bounded pool at its default (no trimming), and, built once the
 * heap is full, an object pool at 0.5 (90 % is its hard level: its first trim empties it).
 * Prints what each phase ended with, one line per pool.
 */
public final class HeapPressureApp {
    private static final int OBJECTS = 20;

    private HeapPressureApp() {
    }

    public static void main(String[] args) {
        AtomicInteger boundedDestroyed = new AtomicInteger();
        try (BufferPool<byte[]> buffers = BufferPool.bytes().build();
                Pool<byte[]> objects = Pool.builder(() -> new byte[1024]).name("objects").build();
                Pool<byte[]> bounded = Pool.builder(() -> new byte[1024]).maxTotal(OBJECTS).minIdle(2)
                        .trimAboveHeap(0.85).destroy(x -> boundedDestroyed.incrementAndGet())
                        .name("bounded").build();
                Pool<byte[]> boundedKept = Pool.builder(() -> new byte[1024]).maxTotal(OBJECTS)
                        .name("boundedKept").build()) {
            HeapTrimTest.fill(buffers, 20);
            for (Pool<byte[]> p : List.of(objects, bounded, boundedKept)) {
                fill(p);
            }
            for (int i = 0; i < 5; i++) {
                System.gc();
            }
            System.out.println("calm: trims " + buffers.stats().trims() + ", idle " + buffers.stats().idleBytes());
            for (Pool<byte[]> p : List.of(objects, bounded, boundedKept)) {
                System.out.println("calm " + p.name() + ": trims " + p.stats().trims() + ", idle " + p.stats().idle());
            }
            List<byte[]> live = new ArrayList<>();
            long max = Runtime.getRuntime().maxMemory();
            while (used() < 0.9 * max) {
                live.add(new byte[256 * 1024]);
            }
            // Aging never by time, so that only trims drop its objects. Each destroy records how
            // many trims the pool had counted (a trim counts once done). Built before a settling
            // collection, and filled once that collection's trims are seen done: an eden left
            // nearly full by the filling could otherwise collect while the pool is filled, and a
            // trim of a pool registered while the clock was still handing out the last
            // collection's jobs could run while its objects are held; either would count a trim
            // that could drop nothing.
            AtomicReference<Pool<byte[]>> hardRef = new AtomicReference<>();
            AtomicLong hardTrimsAtDestroy = new AtomicLong(-1);
            AtomicInteger hardDestroyed = new AtomicInteger();
            Pool<byte[]> hard = Pool.builder(() -> new byte[1024]).trimAboveHeap(0.5)
                    .agingInterval(ChronoUnit.FOREVER.getDuration()).destroy(x -> {
                        hardDestroyed.incrementAndGet();
                        hardTrimsAtDestroy.accumulateAndGet(hardRef.get().stats().trims(), Math::max);
                    }).name("hard").build();
            hardRef.set(hard);
            long settled = objects.stats().trims();
            long hardSettled = hard.stats().trims();
            System.gc();
            awaitChange(() -> objects.stats().trims(), settled);
            awaitChange(() -> hard.stats().trims(), hardSettled);
            // A collection while the objects are filled in (the heap is nearly full: any
            // allocation may start one) runs a trim while some are held, which drops those
            // already back and counts a trim before the rest are idle. Then fill again, until a
            // fill that no trim ran beside: from then on all are idle, and the first trim must
            // drop them all.
            long hardIdleFrom;
            int hardDestroyedBefore;
            for (int attempt = 1; ; attempt++) {
                long before = hard.stats().trims();
                int destroyedBefore = hardDestroyed.get();
                fill(hard);
                hardIdleFrom = hard.stats().trims();
                hardDestroyedBefore = hardDestroyed.get();
                if (hardIdleFrom == before && hardDestroyedBefore == destroyedBefore || attempt == 20) {
                    break;
                }
            }
            long deadline = System.nanoTime() + 20_000_000_000L;
            while ((buffers.stats().trims() == 0 || buffers.stats().idleBytes() != 0
                    || objects.stats().idle() != 0 || hard.stats().idle() != 0 || bounded.stats().idle() != 2)
                    && System.nanoTime() < deadline) {
                long seen = hard.stats().trims();
                System.gc();
                awaitChange(() -> hard.stats().trims(), seen);
            }
            System.out.println("pressed: trims " + buffers.stats().trims() + ", idle " + buffers.stats().idleBytes());
            for (Pool<byte[]> p : List.of(objects, hard, bounded, boundedKept)) {
                System.out.println("pressed " + p.name() + ": trims " + p.stats().trims() + ", idle " + p.stats().idle());
            }
            hard.close();
            System.out.println("hard: destroyed " + (hardDestroyed.get() - hardDestroyedBefore) + ", the last with "
                    + (hardTrimsAtDestroy.get() - hardIdleFrom) + " trims counted since its objects were idle");
            System.out.println("bounded: destroyed " + boundedDestroyed.get());
            byte[][] again = new byte[OBJECTS][];
            for (int i = 0; i < OBJECTS; i++) {
                again[i] = bounded.acquire(java.time.Duration.ofSeconds(5)); // its capacity came back
            }
            for (byte[] x : again) {
                bounded.release(x);
            }
            System.out.println("bounded: acquired its whole cap again");
            System.out.println("live arrays: " + live.size());
        }
    }

    /** Releases {@value #OBJECTS} objects, held together so that all are new. */
    private static void fill(Pool<byte[]> pool) {
        List<byte[]> held = new ArrayList<>();
        for (int i = 0; i < OBJECTS; i++) {
            held.add(pool.acquire());
        }
        held.forEach(pool::release);
    }

    /** Waits up to 2 s for {@code figure} to move from {@code seen}: a trim runs on a worker. */
    private static void awaitChange(LongSupplier figure, long seen) {
        long until = System.nanoTime() + 2_000_000_000L;
        while (figure.getAsLong() == seen && System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    private static long used() {
        System.gc();
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
