package io.github.stripedpool;

import java.lang.ref.WeakReference;

/**
 * Run by {@link HeapReadingsTest} in a child JVM with a heap too large to fill: builds a pool and
 * waits for the aging clock to look up the collector, with no collection to prompt it (a weak
 * reference of its own, cleared by any collection, tells). Prints whether the lookup was done,
 * and whether a collection ran first.
 */
public final class LookUpAtStartApp {
    private LookUpAtStartApp() {
    }

    public static void main(String[] args) throws InterruptedException {
        WeakReference<Object> collected = new WeakReference<>(new Object());
        try (Pool<Object> pool = Pool.builder(Object::new).build()) {
            pool.release(pool.acquire());
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!HeapReadings.AFTER_COLLECTIONS.lookedUp() && System.nanoTime() - deadline < 0) {
                Thread.sleep(5); // a poll with a deadline: nothing here decides an outcome by time
            }
            System.out.println("looked up: " + HeapReadings.AFTER_COLLECTIONS.lookedUp()
                    + ", after a collection: " + (collected.get() == null));
        }
    }
}
