package io.github.stripedpool;

/**
 * How hard a pool gives idle objects back after a garbage collection, from how full the
 * collection left the heap ({@link PoolBuilder#trimAboveHeap(double)}). Read on the pool's
 * background lane after each collection the {@link AgingClock} sees, never on acquire or
 * release, by the pool's {@link TrimGate}, which also holds a trim back until what the last one
 * dropped has been collected.
 *
 * <p>Measure. The fullness {@link HeapReadings} recorded when the clock saw the collection:
 * the collector's own figures, at the end of a stop-the-world pause or after a concurrent
 * collector's last cycles, against {@link Runtime#maxMemory()}; {@code Runtime}'s figures where
 * the collector's cannot be had. A JVM without a heap limit
 * ({@code maxMemory == Long.MAX_VALUE}) never trims.
 *
 * <p>Levels. Above the threshold, {@link #SOFT}: an unbounded pool runs an aging cycle at once
 * (the objects idle through the last cycle go, the others become the next to go); above halfway
 * from the threshold to a full heap, {@link #HARD}: two cycles, every idle object goes. A
 * bounded pool destroys its idle objects beyond {@code minIdle} at either level: its objects are
 * few and its owner chose to trim them.
 *
 * <p>Concurrency. Stateless; each pool counts its own trims.
 */
final class HeapTrim {
    /** The heap is at or below the threshold: nothing to do. */
    static final int NONE = 0;
    /** Above the threshold. */
    static final int SOFT = 1;
    /** Above halfway from the threshold to a full heap. */
    static final int HARD = 2;

    /** Default threshold of an unbounded pool: a heap still 85 % full after a collection. */
    static final double DEFAULT_UNBOUNDED = 0.85;
    /** The threshold that never trims: no heap is fuller than itself. */
    static final double NEVER = 1.0;

    private HeapTrim() {
    }

    /**
     * How full a heap of {@code used} of {@code max} bytes is, from 0 to 1; NaN if it has no
     * limit ({@code max} unknown or {@code Long.MAX_VALUE}), which never trims.
     */
    static double fraction(long used, long max) {
        if (max <= 0 || max == Long.MAX_VALUE) {
            return Double.NaN;
        }
        return Math.max(0, Math.min(1, (double) used / max));
    }

    /** The level for a heap {@code full} (a fraction of the maximum; NaN: no limit) after a collection. */
    static int level(double threshold, double full) {
        if (threshold >= NEVER || !(full > threshold)) {
            return NONE;
        }
        return full > threshold + (1 - threshold) / 2 ? HARD : SOFT;
    }

    /** Checks a threshold given to a builder; returns it. */
    static double check(double fraction) {
        if (!(fraction >= 0 && fraction <= 1)) {
            throw new IllegalArgumentException("trimAboveHeap must be a fraction of the maximum heap from 0 "
                    + "to 1 (such as 0.85; 1 never trims), got " + fraction);
        }
        return fraction;
    }
}
