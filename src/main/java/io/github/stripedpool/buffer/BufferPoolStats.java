package io.github.stripedpool.buffer;

import io.github.stripedpool.PoolStats;

/**
 * A snapshot of a {@link BufferPool}'s counters: one {@link PoolStats} per size class, the idle
 * bytes against the budget, and the oversized buffers it handed out and took back. The classes
 * are read one after the other, so the snapshot is not atomic across classes.
 */
public final class BufferPoolStats {
    private final String name;
    private final String kind;
    private final SizeClasses sizes;
    private final PoolStats[] classes;
    private final PoolStats oversized;
    private final long trims;

    BufferPoolStats(String name, String kind, SizeClasses sizes, PoolStats[] classes, PoolStats oversized,
            long trims) {
        this.name = name;
        this.kind = kind;
        this.sizes = sizes;
        this.classes = classes;
        this.oversized = oversized;
        this.trims = trims;
    }

    /**
     * Garbage collections after which the heap was fuller than the pool's
     * {@linkplain BufferPoolBuilder#trimAboveHeap(double) threshold}, and the pool gave idle
     * buffers back at once. Each class checks and trims on its own, on the library's background
     * worker, after each collection; this is the count of the class that trimmed least, so a
     * trim counts here once every class has done it.
     *
     * @return trims since the pool was built
     */
    public long trims() {
        return trims;
    }

    /**
     * The pool's name.
     *
     * @return the name of the buffer pool
     */
    public String name() {
        return name;
    }

    /**
     * The most bytes the pool keeps in idle buffers.
     *
     * @return the budget, in bytes
     */
    public long budget() {
        return sizes.budget();
    }

    /**
     * The bytes held in idle buffers: the sum over the classes of idle buffers times the class
     * size. Never above {@link #budget()}.
     *
     * @return idle bytes
     */
    public long idleBytes() {
        long sum = 0;
        for (int i = 0; i < classes.length; i++) {
            sum += (long) classes[i].idle() * sizes.size(i);
        }
        return sum;
    }

    /**
     * The number of size classes.
     *
     * @return from 1 (the smallest class is the largest) to 217 (8 classes per doubling from 8
     *         bytes to 1 GiB): (log2 of the largest class size - log2 of the smallest) times the
     *         classes per doubling, plus one
     */
    public int classCount() {
        return classes.length;
    }

    /**
     * The size of the buffers of a class.
     *
     * @param index from 0 (the smallest class) to {@code classCount() - 1}
     * @return the class size in bytes
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int classSize(int index) {
        return sizes.size(java.util.Objects.checkIndex(index, classes.length));
    }

    /**
     * The most idle buffers a class keeps: for every class, as many as the budget holds of one
     * buffer of each class, and one more for each of the smallest classes that what is left of
     * the budget covers, in turn (see {@link BufferPoolBuilder#budget(long)}); at most 65,536.
     *
     * @param index from 0 (the smallest class) to {@code classCount() - 1}
     * @return the cap on the class's idle buffers; 0 if the budget leaves it none
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public int classKeeps(int index) {
        return sizes.keep(java.util.Objects.checkIndex(index, classes.length));
    }

    /**
     * The counters of one class's pool: hits, misses (buffers allocated), dropped buffers...
     * Its {@link PoolStats#idleCapacity()} is that pool's own cap, which for a class the budget
     * leaves no buffer is 1 (the pool is built to keep none: every release drops): read the
     * class's cap with {@link #classKeeps(int)}.
     *
     * @param index from 0 (the smallest class) to {@code classCount() - 1}
     * @return that class's snapshot
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     */
    public PoolStats classStats(int index) {
        return classes[java.util.Objects.checkIndex(index, classes.length)];
    }

    /**
     * The snapshot of the pool that hands out the buffers above the largest class and drops them
     * at their release (named after this pool with {@code "-oversized"} appended): its leaks
     * ({@link PoolStats#leaks()}), the buffers it dropped, its hook failures. It keeps no idle
     * buffer.
     *
     * @return the oversized buffers' snapshot
     */
    public PoolStats oversizedStats() {
        return oversized;
    }

    /**
     * Requests above the largest class, served by a buffer that is not pooled.
     *
     * @return how many oversized buffers the pool allocated
     */
    public long oversizedAcquired() {
        return oversized.acquired();
    }

    /**
     * Buffers above the largest class given back (released, or their lease closed or
     * invalidated), and dropped (freed at once if direct).
     *
     * @return how many oversized buffers the pool dropped when they came back
     */
    public long oversizedReleased() {
        return oversized.released();
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("Buffer pool '").append(name).append("' (").append(kind)
                .append("): ").append(idleBytes()).append(" idle bytes of ").append(budget())
                .append(" | oversized: acquired ").append(oversized.acquired()).append(", released ")
                .append(oversized.released()).append(" | trims ").append(trims);
        for (int i = 0; i < classes.length; i++) {
            sb.append("\n  ").append(classes[i]);
        }
        return sb.toString();
    }
}
