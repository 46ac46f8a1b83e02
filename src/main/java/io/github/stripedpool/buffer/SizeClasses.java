package io.github.stripedpool.buffer;

/**
 * The size classes of a buffer pool, and how many idle buffers each may keep under the budget.
 * Immutable.
 *
 * <p>Classes: the powers of two from the smallest to the largest, and between each two,
 * {@code steps - 1} more, evenly spaced ({@code steps} a power of two, 1 to 8). With 4 steps,
 * 1024, 1280, 1536, 1792, 2048, 2560...: a request is given at most a quarter more than it asked
 * for, against up to twice with powers of two alone. Class {@code i} lies in doubling
 * {@code i / steps} above the smallest, at step {@code i % steps} of it; the arithmetic below is
 * shifts and masks only.
 *
 * <p>Budget split: every class keeps the same number of buffers, {@code each = budget / S}
 * (rounded down), where {@code S} is the sum of the class sizes; what is left,
 * {@code budget - each * S}, less than {@code S}, gives one more buffer to each class in turn from
 * the smallest, as long as its size fits in what is still left. The idle bytes are at most
 * {@code sum(keep[i] * size[i]) <= budget} by construction, and the underlying pools never hold
 * more than their {@code maxIdle}, so the budget holds at every instant.
 *
 * <p>Equal counts rather than equal bytes. A burst of {@code N} requests at once holds at most
 * {@code N} buffers of any one class, whatever its sizes: a budget of {@code N * S} keeps all of
 * them, where a split by bytes keeps {@code budget / n / size} of a class, few of the largest,
 * whose buffers are then dropped at each burst's end and made again, the costliest bytes to
 * churn (in HeadroomBenchmark's short G1 heap that churn halved the throughput). The bytes a
 * split by count lets the largest class keep are a cap, not an allocation: a class keeps only
 * what was released to it. And a split by bytes gives the smallest classes counts nobody holds
 * at once (23,831 buffers of 64 bytes for the default 16 MiB), each with a slot reserved in its
 * pool. Netty's thread caches, Jetty's buckets and .NET's {@code ArrayPool} bound each class by a
 * count too.
 */
final class SizeClasses {
    /**
     * The most idle buffers a class keeps, whatever the budget: 65,536. Each class's pool
     * reserves a slot (about 8 bytes) per buffer it may keep, so this bounds what a budget
     * given as "no limit" ({@code Long.MAX_VALUE}) reserves to about half a megabyte per class; at the
     * engine's own cap on {@code maxIdle} (2<sup>24</sup>) it was 128 MiB per class, and the 11
     * default classes did not fit a 1 GiB heap. Reached only with budgets of 65,536 times the
     * sum of the class sizes (8 GiB for the default classes) or with classes of a few bytes.
     */
    static final int MAX_KEEP = 1 << 16;

    /**
     * Largest size a request may ask for: the largest array the JVM allocates on every
     * collector (a few bytes under {@code Integer.MAX_VALUE}, which it refuses).
     */
    static final int MAX_REQUEST = Integer.MAX_VALUE - 8;

    private final int minShift;
    /** log2 of the steps per doubling. */
    private final int stepShift;
    private final int[] keep;
    private final long budget;

    SizeClasses(int minClass, int maxClass, long budget) {
        this(minClass, maxClass, 1, budget);
    }

    /** {@code steps}: a power of two from 1 to 8, at most {@code minClass}. */
    SizeClasses(int minClass, int maxClass, int steps, long budget) {
        this.minShift = Integer.numberOfTrailingZeros(minClass);
        this.stepShift = Integer.numberOfTrailingZeros(steps);
        int n = ((Integer.numberOfTrailingZeros(maxClass) - minShift) << stepShift) + 1;
        this.keep = new int[n];
        this.budget = budget;
        long sum = 0;
        for (int i = 0; i < n; i++) {
            sum += size(i);
        }
        long each = Math.min(budget / sum, MAX_KEEP);
        long left = budget - each * sum;
        for (int i = 0; i < n; i++) {
            keep[i] = (int) each;
            if (each < MAX_KEEP && size(i) <= left) {
                keep[i]++;
                left -= size(i);
            }
        }
    }

    int count() {
        return keep.length;
    }

    int size(int index) {
        int base = 1 << (minShift + (index >>> stepShift));
        return base + (index & ((1 << stepShift) - 1)) * (base >>> stepShift);
    }

    int maxSize() {
        return size(keep.length - 1);
    }

    /** How many idle buffers class {@code index} may keep; 0 if the budget leaves it none. */
    int keep(int index) {
        return keep[index];
    }

    long budget() {
        return budget;
    }

    /** log2 of the smallest class: for {@link #classFor} and {@link #classOf}. */
    int minShift() {
        return minShift;
    }

    /** log2 of the classes per doubling: for {@link #classFor} and {@link #classOf}. */
    int stepShift() {
        return stepShift;
    }

    /**
     * The class that serves a request of {@code size} bytes: the smallest class at least that
     * large, or {@link #count()} if none is.
     *
     * @throws IllegalArgumentException if {@code size} is negative or above {@link #MAX_REQUEST}
     */
    int indexFor(int size, String poolName) {
        int i = classFor(size, minShift, stepShift, keep.length);
        if (i < 0) {
            throw new IllegalArgumentException("buffer pool '" + poolName + "': cannot acquire "
                    + size + " bytes: ask for 0 to " + MAX_REQUEST + " bytes (the largest array "
                    + "the JVM can make); requests above " + maxSize() + " bytes get a buffer "
                    + "that is not pooled");
        }
        return i;
    }

    /**
     * {@link #indexFor}'s arithmetic from the classes' shape alone, -1 for a size out of range.
     * Static, so that a buffer pool can keep the shape in fields of its own and find a class
     * without first loading this object: the class index is on the critical path of every
     * acquire and release (the class pool's lookup waits for it), and each load before it shows.
     */
    static int classFor(int size, int minShift, int stepShift, int count) {
        if (size <= 1 << minShift) {
            return size < 0 ? -1 : 0;
        }
        if (size > MAX_REQUEST) {
            return -1;
        }
        // x lies in the doubling [2^h, 2^(h+1)), whose steps are 2^(h - stepShift) bytes wide
        // (h >= minShift >= stepShift); the class is the step above x.
        int x = size - 1;
        int h = 31 - Integer.numberOfLeadingZeros(x);
        int k = ((x - (1 << h)) >>> (h - stepShift)) + 1;
        return Math.min(((h - minShift) << stepShift) + k, count);
    }

    /**
     * The class of a released buffer of {@code capacity} bytes, at most the largest class size.
     *
     * @throws IllegalArgumentException if {@code capacity} is not one of the class sizes
     */
    int indexOf(int capacity, String poolName) {
        int i = classOf(capacity, minShift, stepShift, keep.length);
        if (i < 0) {
            throw new IllegalArgumentException("buffer pool '" + poolName + "' was given a buffer of "
                    + capacity + " bytes, which is none of its class sizes (" + size(0) + " to "
                    + maxSize() + ", powers of two" + (stepShift == 0 ? ""
                    : " and " + ((1 << stepShift) - 1) + " evenly spaced sizes between each two")
                    + "): release only buffers that this pool handed out");
        }
        return i;
    }

    /** {@link #indexOf}'s arithmetic, as {@link #classFor}'s: -1 if not a class size. */
    static int classOf(int capacity, int minShift, int stepShift, int count) {
        int h = 31 - Integer.numberOfLeadingZeros(capacity);
        if (capacity > 0 && h >= minShift) {
            int offset = capacity - (1 << h);
            int stepBits = h - stepShift;
            int i = ((h - minShift) << stepShift) + (offset >>> stepBits);
            if ((offset & ((1 << stepBits) - 1)) == 0 && i < count) {
                return i;
            }
        }
        return -1;
    }
}
