package io.github.stripedpool.buffer;

/**
 * The size classes of a buffer pool, powers of two from the smallest to the largest, and how
 * many idle buffers each may keep under the budget. Immutable.
 *
 * <p>Budget split: each of the {@code n} classes gets an equal share, {@code budget / n} bytes
 * (rounded down), and keeps {@code share / size} buffers (rounded down). The idle bytes are at
 * most {@code sum(keep[i] * size[i]) <= n * share <= budget}, and the underlying pools never
 * hold more than their {@code maxIdle}, so the budget holds at every instant. Equal bytes rather
 * than equal counts: a count split would give the largest class nearly all of the bytes, while
 * small buffers are the ones asked for most often.
 */
final class SizeClasses {
    /** The underlying pools' cap on {@code maxIdle}: {@code PoolBuilder} accepts no more. */
    static final int MAX_KEEP = 1 << 24;

    /**
     * Largest size a request may ask for: the largest array the JVM allocates on every
     * collector (a few bytes under {@code Integer.MAX_VALUE}, which it refuses).
     */
    static final int MAX_REQUEST = Integer.MAX_VALUE - 8;

    private final int minShift;
    private final int[] keep;
    private final long budget;

    SizeClasses(int minClass, int maxClass, long budget) {
        this.minShift = Integer.numberOfTrailingZeros(minClass);
        int n = Integer.numberOfTrailingZeros(maxClass) - minShift + 1;
        this.keep = new int[n];
        this.budget = budget;
        long share = budget / n;
        for (int i = 0; i < n; i++) {
            keep[i] = (int) Math.min(share / size(i), MAX_KEEP);
        }
    }

    int count() {
        return keep.length;
    }

    int size(int index) {
        return 1 << (minShift + index);
    }

    int maxSize() {
        return size(keep.length - 1);
    }

    /** How many idle buffers class {@code index} may keep; 0 if its share holds none. */
    int keep(int index) {
        return keep[index];
    }

    long budget() {
        return budget;
    }

    /**
     * The class that serves a request of {@code size} bytes: the smallest class at least that
     * large, or {@link #count()} if none is.
     *
     * @throws IllegalArgumentException if {@code size} is negative or above {@link #MAX_REQUEST}
     */
    int indexFor(int size, String poolName) {
        if (size < 0 || size > MAX_REQUEST) {
            throw new IllegalArgumentException("buffer pool '" + poolName + "': cannot acquire "
                    + size + " bytes: ask for 0 to " + MAX_REQUEST + " bytes (the largest array "
                    + "the JVM can make); requests above " + maxSize() + " bytes get a buffer "
                    + "that is not pooled");
        }
        if (size <= 1 << minShift) {
            return 0;
        }
        // The bits of size - 1 are log2 of the next power of two at or above size.
        return Math.min((32 - Integer.numberOfLeadingZeros(size - 1)) - minShift, keep.length);
    }

    /**
     * The class of a released buffer of {@code capacity} bytes, at most the largest class size.
     *
     * @throws IllegalArgumentException if {@code capacity} is not one of the class sizes
     */
    int indexOf(int capacity, String poolName) {
        int i = Integer.numberOfTrailingZeros(capacity) - minShift;
        if (Integer.bitCount(capacity) != 1 || i < 0) {
            throw new IllegalArgumentException("buffer pool '" + poolName + "' was given a buffer of "
                    + capacity + " bytes, which is none of its class sizes (" + size(0) + " to "
                    + maxSize() + ", powers of two): release only buffers that this pool handed out");
        }
        return i;
    }
}
