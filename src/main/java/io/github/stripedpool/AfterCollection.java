package io.github.stripedpool;

/**
 * A pool that the {@link AgingClock} tells of each garbage collection: every unbounded pool
 * (aging, and trimming when the heap is short), and every bounded pool (trimming, if built with a
 * {@link PoolBuilder#trimAboveHeap(double) trimAboveHeap} below 1, and giving back the places of
 * leaked objects when none is left). The clock
 * holds it weakly and calls it on the pool's lane, one call at a time.
 */
interface AfterCollection {
    /** After a collection the clock saw at {@code now} ({@link System#nanoTime()}); on the pool's lane. */
    void onGarbageCollection(long now);

    /** The pool's name, for the lane's job names. */
    String name();

    /** The pool's aging or trimming state, for a test's failure report. */
    String describeAging();
}
