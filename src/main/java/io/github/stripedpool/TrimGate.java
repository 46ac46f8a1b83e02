package io.github.stripedpool;

/**
 * Decides, after each garbage collection, whether one pool trims: the heap's level
 * ({@link HeapTrim}), held back for {@link #HOLD_NANOS} after a trim that dropped objects.
 *
 * <p>Why a trim is held back. A generational collector's young collections do not reclaim
 * what a trim drops: the pool's idle objects are old, so they stay in the heap, as garbage,
 * until the next old or mixed collection. Until then every young collection leaves the heap as
 * full as the one that trimmed, and a pool that trimmed after each of them would drop every
 * object it made since, all old garbage too, and make them again for its next users. With G1, a
 * heap three quarters full of live data and request buffers in bursts, that churn made a buffer
 * pool slower than plain allocation, with more time in the collector than allocation's
 * (HeadroomBenchmark: 0.81× to 0.84× allocation; with this hold 1.20×, beside 1.39× for the
 * same pool never trimming, in a run of 2 forks). A hold that ended as soon as a collection left
 * the heap a little emptier than at the trim was not enough: the fullness read after young
 * collections varies by more than a trim frees, and the churn went on (0.97× in one run).
 *
 * <p>So a pool drops objects in at most two trims per {@link #HOLD_NANOS}: a pool under lasting
 * pressure still gives its idle objects back, and re-makes at most what it holds per second. A
 * trim that dropped nothing (a first soft trim only marks the idle objects) holds nothing. A
 * soft trim that dropped objects (those already idle for a cycle) has also marked the others;
 * the next trim may finish its work inside the hold, once, at the soft level: it drops the
 * objects that first trim marked if they are still idle, and marks, never drops, those made
 * since, which are what churn would throw away. So a pool whose heap becomes short gives back
 * every object idle at that moment within two collections, whatever it held (a first version
 * held the finishing trim back too: a burst of idle buffers beside one buffer idle for a cycle
 * stayed a second longer), and a hard trim, which drops every idle object at once, needs none.
 *
 * <p>A threshold of 0 trims after every collection, unheld: it says "always", and tests use it
 * to make a trim certain.
 *
 * <p>Concurrency. Not thread-safe: one gate per pool, used one caller at a time, each after the
 * last in a happens-before order: by an unbounded pool under its aging claim
 * ({@link UnboundedAging}), by a bounded pool on its background lane, whose jobs never overlap.
 */
final class TrimGate {
    /** How long a trim that dropped objects holds the next one back: one second. */
    static final long HOLD_NANOS = 1_000_000_000L;

    private final double threshold;
    /** Whether a trim is held back now: since {@link #trimmedAt}. */
    private boolean held;
    /**
     * Whether the next trim, inside the hold, may finish what the soft trim that started it
     * began (see the class comment); cleared when that trim runs.
     */
    private boolean mayFinish;
    /** Whether the level last given is that finishing trim's, which grants no other. */
    private boolean finishing;
    /** When the last trim that dropped objects was. */
    private long trimmedAt;

    TrimGate(double threshold) {
        this.threshold = threshold;
    }

    /** Whether the pool trims at all: then the {@link AgingClock} tells it of collections. */
    boolean trims() {
        return threshold < HeapTrim.NEVER;
    }

    /**
     * The level to trim at now, from the heap as the last collection left it
     * ({@link HeapReadings}): {@link HeapTrim#NONE} while held back.
     */
    int level(long nowNanos) {
        if (!trims()) {
            return HeapTrim.NONE; // no need to read the heap
        }
        double full = HeapReadings.AFTER_COLLECTIONS.fullness();
        if (Double.isNaN(full)) { // none recorded yet (or no heap limit, which Runtime tells again)
            Runtime r = Runtime.getRuntime();
            return level(r.totalMemory() - r.freeMemory(), r.maxMemory(), nowNanos);
        }
        return level(full, nowNanos);
    }

    /**
     * The level to trim at after a collection that left {@code used} of {@code max} bytes
     * full, at {@code nowNanos}: {@link HeapTrim#NONE} while a trim is held back.
     */
    int level(long used, long max, long nowNanos) {
        return level(HeapTrim.fraction(used, max), nowNanos);
    }

    /** As {@link #level(long, long, long)}, for a heap {@code full} (a fraction; NaN: no limit). */
    private int level(double full, long nowNanos) {
        finishing = false; // a trim given before and not followed by trimmed() (it threw) finished nothing
        if (held && nowNanos - trimmedAt < HOLD_NANOS && threshold > 0) {
            if (!mayFinish || HeapTrim.level(threshold, full) == HeapTrim.NONE) {
                return HeapTrim.NONE; // what the last trim dropped may not even be collected yet
            }
            mayFinish = false;
            finishing = true;
            return HeapTrim.SOFT; // drops only what the first trim marked: see the class comment
        }
        held = false;
        mayFinish = false;
        return HeapTrim.level(threshold, full);
    }

    /**
     * The pool ran an aging cycle of its interval, not a trim: it dropped what a trim had marked
     * and marked what was made since, which a finishing trim must then not drop.
     */
    void aged() {
        mayFinish = false;
    }

    /**
     * The pool trimmed at the level {@link #level} gave, at {@code nowNanos}, and dropped
     * {@code dropped} objects: if it dropped any, the next trim is held back. {@code marked}: the
     * trim left the idle objects it did not drop marked, to be dropped by the next (an unbounded
     * pool's soft trim); then that next trim may run inside the hold, once.
     */
    void trimmed(long dropped, long nowNanos, boolean marked) {
        boolean finished = finishing;
        finishing = false;
        if (dropped > 0) {
            held = true;
            trimmedAt = nowNanos;
            mayFinish = marked && !finished;
        }
    }
}
