package io.github.stripedpool;

/**
 * {@link Stripe}'s fields without its padding, for {@link FalseSharingBenchmark} only: no
 * padding superclass, no tail padding, no {@code @Contended}, arrays without padding elements.
 * The arrays are attached after construction so that a benchmark can allocate two instances back
 * to back: the worst neighbourhood a stripe can have, which padding must make harmless.
 */
final class UnpaddedStripe {
    int hint;
    int capacity;
    Object[] items;
    int[] stamps;
    long[] counts;

    void attachArrays(int capacity) {
        this.capacity = capacity;
        this.items = new Object[capacity];
        this.stamps = new int[capacity];
        this.counts = new long[Counts.SIZE];
    }
}
