package io.github.stripedpool.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Waits in nanoseconds, counted in log-linear buckets (eight per power of two, so a percentile is
 * within 12.5 % of the true value, read conservatively from the bucket's upper end), and the
 * exact maximum. Safe for any number of recording threads; a reader reads after they stopped.
 */
final class WaitHistogram {
    private static final int SUB = 8;
    private static final int BUCKETS = 64 * SUB;
    private final AtomicLongArray counts = new AtomicLongArray(BUCKETS);
    private final AtomicLong total = new AtomicLong();
    private final AtomicLong max = new AtomicLong();

    static int bucket(long v) {
        if (v < SUB) {
            return (int) Math.max(0, v);
        }
        int e = 63 - Long.numberOfLeadingZeros(v); // >= 3
        int sub = (int) (v >>> (e - 3)) & (SUB - 1);
        return (e - 2) * SUB + sub;
    }

    /** The largest value that falls in bucket {@code b}. */
    static long upperBound(int b) {
        if (b < SUB) {
            return b;
        }
        int e = b / SUB + 2;
        long sub = b % SUB;
        return ((SUB + sub + 1) << (e - 3)) - 1;
    }

    void record(long nanos) {
        counts.incrementAndGet(bucket(nanos));
        total.incrementAndGet();
        max.accumulateAndGet(nanos, Math::max);
    }

    long count() {
        return total.get();
    }

    long max() {
        return max.get();
    }

    /** The wait that a share {@code q} of the recorded waits did not exceed; 0 with none. */
    long percentile(double q) {
        long n = total.get();
        if (n == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(q * n);
        long seen = 0;
        for (int b = 0; b < BUCKETS; b++) {
            seen += counts.get(b);
            if (seen >= rank) {
                return Math.min(upperBound(b), max.get());
            }
        }
        return max.get();
    }
}
