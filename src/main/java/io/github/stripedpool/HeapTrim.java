package io.github.stripedpool;

/**
 * Drops an unbounded pool's idle objects at once after a collection that left the heap fuller
 * than a threshold, instead of at the next two aging cycles.
 *
 * <p>Not public API: {@link io.github.stripedpool.buffer.BufferPool} sets it on its class pools
 * through {@link #dropIdleAboveHeap} and reads {@link #trims}, both found once by a method
 * handle lookup inside this module (the buffer package is in the same module, which opens its
 * packages to itself). The check runs on the pool's background lane after each collection the
 * {@link AgingClock} sees, never on acquire or release.
 *
 * <p>Measure. After a collection, {@code (totalMemory - freeMemory) / maxMemory} from
 * {@link Runtime}: available on every runtime, {@code java.management} or not. It also counts
 * what was allocated between the collection and the check (milliseconds of allocation); the
 * error makes a trim a little early, never missed. A JVM without a heap limit
 * ({@code maxMemory == Long.MAX_VALUE}) never trims.
 *
 * <p>Concurrency. Stateless; the count of trims lives in each pool's {@link UnboundedAging}.
 */
final class HeapTrim {
    /** A threshold above any heap fraction: no trimming, the default of every pool. */
    static final double NEVER = 2.0;

    private HeapTrim() {
    }

    /** Whether the heap is fuller than {@code threshold} (a fraction of the maximum heap). */
    static boolean above(double threshold) {
        if (threshold > 1) {
            return false;
        }
        Runtime r = Runtime.getRuntime();
        long max = r.maxMemory();
        return max != Long.MAX_VALUE && r.totalMemory() - r.freeMemory() > threshold * max;
    }

    /**
     * Makes the pool {@code b} builds drop every idle object after a collection that leaves
     * the heap fuller than {@code fraction} of its maximum. Bounded pools ignore it.
     */
    static <T> PoolBuilder<T> dropIdleAboveHeap(PoolBuilder<T> b, double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("the heap fraction must be from 0 to 1, got " + fraction);
        }
        b.trimAboveHeap = fraction;
        return b;
    }

    /** Collections after which {@code pool} dropped every idle object; 0 for a bounded pool. */
    static long trims(Pool<?> pool) {
        Pool<?> p = pool instanceof LeakDetectingPool ? ((LeakDetectingPool<?>) pool).delegate() : pool;
        return p instanceof UnboundedPool ? ((UnboundedPool<?>) p).trims() : 0;
    }
}
