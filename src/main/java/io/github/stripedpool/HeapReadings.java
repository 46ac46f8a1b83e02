package io.github.stripedpool;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.List;

/**
 * How full the heap is after a garbage collection, as heap-pressure trimming reads it
 * ({@link HeapTrim}): recorded by the {@link AgingClock}'s thread when it sees a collection, read
 * by each pool's trim on its lane.
 *
 * <p>The reading. A stop-the-world collector (Serial, Parallel, G1's pauses) clears the clock's
 * sentinel inside a pause, but the clock reads the heap some time after it, when allocation has
 * refilled part of the young generation: {@code (totalMemory - freeMemory)} from {@link Runtime}
 * then counts that too. Under fast allocation it is not small: with a 128 MiB heap 55 % live,
 * such readings reached 0.86 on Serial and Parallel where no collection had left more than 0.58,
 * and with 65 % live G1's reached the default threshold; pools trimmed that should not have
 * (1 to 5 times in 280 collections). So on such a collector the reading is what the collector
 * reports in use at the end of its last pause ({@code com.sun.management}'s {@code GcInfo}, of
 * module {@code jdk.management}): the sum of the heap's memory pools after the latest
 * collection, read only from a collector bean whose count moved since the last reading
 * ({@code getLastGcInfo} makes an object of a few kilobytes, tens of microseconds). G1's
 * {@code "G1 Concurrent GC"} bean is not read: its pauses (remark, cleanup) collect no young
 * region, and its figures count the eden allocated so far. Where that module is missing, and
 * where the figures cannot be had (a heap too full to make them), the {@code Runtime} reading
 * stands in: it errs towards a fuller heap, so a heap that is really short is trimmed either way.
 * A concurrent collector (ZGC, Shenandoah)
 * clears weak references while the application runs, at the end of its marking, before it frees
 * the garbage it found: {@code Runtime} then counts that garbage and what was allocated during
 * the cycle. With a quarter of a 256 MiB heap live under ZGC (JDK 17), it read 0.32 to 0.98 where
 * the collector's log showed 23 to 26 % after each cycle, and a buffer pool reading the heap
 * that way trims 4 or 5 times in 10 s on a heap three quarters empty. On such a collector the reading is what
 * the collector itself reports in use after its last cycles (the collection usage of the heap's
 * memory pools), and the fullness is the lowest of the last {@link #WINDOW} readings: a cycle
 * that ran while allocation stalled may report a full heap once, but no cycle leaves less in use
 * than the live data, and a heap that is really short is above the threshold in every reading.
 * The price: a short heap is seen {@code WINDOW - 1} collections later, and such a collector runs
 * them back to back when the heap is short.
 *
 * <p>Which collector: from the names of the {@code GarbageCollectorMXBean}s ({@code ZGC ...},
 * {@code Shenandoah ...}), looked up once, on the clock's thread, at the first collection. Where
 * {@code java.management} is not in the runtime (a module path that does not resolve it), every
 * collector is taken as stop-the-world, and read through {@code Runtime}; so is it where the lookup
 * fails (a class of {@code java.management} that could not be initialised while the heap was
 * exhausted cannot be used again), and where it runs out of memory it is tried again at the next
 * collection. This class itself is initialised on a thread that builds a pool
 * ({@link Background#prepare}), never by the clock.
 *
 * <p>Concurrency. {@link #record} is called by one thread at a time (the clock's: the window
 * and {@link #concurrentPools} are its own); {@link #fullness} by any thread, through a volatile
 * field that always holds a whole result.
 */
final class HeapReadings {
    /** Readings whose lowest is the fullness on a concurrent collector. */
    static final int WINDOW = 4;

    /** The readings of the JVM's collections, recorded by the aging clock. */
    static final HeapReadings AFTER_COLLECTIONS = new HeapReadings();

    private final double[] window = new double[WINDOW];
    /** Where the next reading goes in {@link #window}, and how many it holds (at most {@link #WINDOW}). */
    private int next;
    private int filled;
    /**
     * Null until known; then, on a concurrent collector, its heap's memory pools (of
     * {@code java.management}'s type, unnamed here so that this class loads without it); on any
     * other, an empty list.
     */
    private List<?> concurrentPools;
    /**
     * Null until looked up; then the collector bean whose cycles clear no weak reference
     * (generational ZGC's young cycles, {@code "ZGC Minor Cycles"}), of java.management's type,
     * or {@link #NONE}. Clock thread only.
     */
    private Object youngCycles;
    /**
     * Null until looked up; then, on a stop-the-world collector, its {@link Pauses} (whose
     * type, of jdk.management, this class does not name), or {@link #NONE}. Clock thread only.
     */
    private Object pauses;
    private static final Object NONE = new Object();
    private volatile double fullness = Double.NaN;

    /**
     * The fullness after the last collection recorded, from 0 to 1; NaN before the first, or if
     * the heap has no limit (then no pool trims).
     */
    double fullness() {
        return fullness;
    }

    /** Records the heap after a collection the clock has just seen: see {@link #record(long, long, boolean)}. */
    void record() {
        Runtime r = Runtime.getRuntime();
        long max = r.maxMemory();
        List<?> pools = concurrentPools();
        if (!pools.isEmpty()) {
            long used;
            try {
                used = Collectors.afterLastCycles(pools);
            } catch (RuntimeException | OutOfMemoryError e) {
                return; // the last fullness stands
            }
            record(used, max, true);
        } else {
            long used = afterLastPause();
            record(used >= 0 ? used : r.totalMemory() - r.freeMemory(), max, false);
        }
    }

    /**
     * The bytes a stop-the-world collector reported in use at the end of its latest pause, or -1
     * where that is not known (no {@code jdk.management}, no pause reported yet, a heap too full
     * to make the figures). Clock thread only.
     */
    private long afterLastPause() {
        Object p = pauses;
        if (p == null) {
            try {
                p = Pauses.lookUp();
            } catch (LinkageError | RuntimeException e) {
                p = null; // no jdk.management in this runtime, or it refused: Runtime's figures
            } catch (OutOfMemoryError e) {
                return -1; // looked up again at the next collection
            }
            pauses = p = p == null ? NONE : p;
        }
        if (p == NONE) {
            return -1;
        }
        try {
            return Pauses.usedAfterLatest(p);
        } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
            return -1;
        }
    }

    /**
     * Records that a collection left {@code used} of {@code max} bytes in use, as read when it
     * was seen, on a collector that is {@code concurrentCollector} or not. Clock thread only.
     */
    void record(long used, long max, boolean concurrentCollector) {
        double f = HeapTrim.fraction(used, max);
        if (Double.isNaN(f)) {
            fullness = Double.NaN; // no limit: never short
            return;
        }
        window[next] = f;
        next = next == WINDOW - 1 ? 0 : next + 1; // no counter to overflow in a JVM that runs for years
        filled = Math.min(filled + 1, WINDOW);
        if (concurrentCollector) {
            for (int i = 0; i < filled; i++) {
                f = Math.min(f, window[i]);
            }
        }
        fullness = f;
    }

    /**
     * How many collections the JVM ran that clear no weak reference, so that the aging clock's
     * sentinel never sees them: generational ZGC's young cycles, the only kind its heap may run
     * for seconds under pressure. -1 on any other collector, or without java.management (then
     * the clock sees only what clears its sentinel), or before the lookup. Looked up once, when
     * {@code lookUp} (the clock asks at a collection it saw, as for {@link #concurrentPools}, so
     * that a JVM that never collects loads nothing of java.management); a lookup that runs out of
     * memory is tried again at the next collection, unless a class of java.management failed to
     * initialise, which then cannot be used again. Clock thread only.
     */
    long unseenCycles(boolean lookUp) {
        Object y = youngCycles;
        if (y == null) {
            if (!lookUp) {
                return -1;
            }
            try {
                y = Collectors.youngCycles();
            } catch (LinkageError | RuntimeException e) {
                y = null;
            } catch (OutOfMemoryError e) {
                return -1; // asked again at the next call
            }
            youngCycles = y = y == null ? NONE : y;
        }
        if (y == NONE) {
            return -1;
        }
        try {
            return Collectors.count(y);
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    /** The heap's pools if the JVM's collector is concurrent, else an empty list; looked up once. */
    private List<?> concurrentPools() {
        List<?> c = concurrentPools;
        if (c == null) {
            try {
                c = Collectors.concurrentPools();
            } catch (LinkageError | RuntimeException e) {
                c = List.of(); // no java.management in this runtime, or it refused
            } catch (OutOfMemoryError e) {
                return List.of(); // unknown for now: asked again at the next collection
            }
            concurrentPools = c;
        }
        return c;
    }

    /** Apart, so that a runtime without {@code java.management} fails only when it is called. */
    private static final class Collectors {
        /** The heap's memory pools if a collector is concurrent, else an empty list. */
        static List<?> concurrentPools() {
            boolean concurrent = false;
            for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
                String n = g.getName();
                concurrent |= n.startsWith("ZGC") || n.startsWith("Shenandoah");
            }
            List<MemoryPoolMXBean> heap = new ArrayList<>();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (concurrent && p.getType() == MemoryType.HEAP && p.isCollectionUsageThresholdSupported()) {
                    heap.add(p);
                }
            }
            return heap;
        }

        /** Generational ZGC's young-cycle bean, or null on any other collector. */
        static Object youngCycles() {
            for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (g.getName().equals("ZGC Minor Cycles")) {
                    return g;
                }
            }
            return null;
        }

        static long count(Object bean) {
            return ((GarbageCollectorMXBean) bean).getCollectionCount();
        }

        /** The bytes in use in {@code pools} after their last collections, as the collector counts them. */
        static long afterLastCycles(List<?> pools) {
            long used = 0;
            for (Object p : pools) {
                MemoryUsage u = ((MemoryPoolMXBean) p).getCollectionUsage();
                used += u == null ? 0 : u.getUsed();
            }
            return used;
        }
    }

    /**
     * The collectors' own figures at the end of a pause, from {@code com.sun.management}: apart,
     * so that a runtime without {@code jdk.management} fails only when it is called. One
     * instance, used by the clock's thread only.
     */
    private static final class Pauses {
        private final com.sun.management.GarbageCollectorMXBean[] beans;
        /** Each bean's collection count when it was last read. */
        private final long[] counts;
        /** The names of the heap's memory pools: the keys of a GcInfo's usage to add up. */
        private final java.util.Set<String> heapPools = new java.util.HashSet<>();
        /** The last figure read; -1 before the first. */
        private long used = -1;

        private Pauses(List<com.sun.management.GarbageCollectorMXBean> beans) {
            this.beans = beans.toArray(new com.sun.management.GarbageCollectorMXBean[0]);
            this.counts = new long[this.beans.length];
            java.util.Arrays.fill(counts, -1);
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP) {
                    heapPools.add(p.getName());
                }
            }
        }

        /** The pauses' reader, or null if no collector bean reports its pauses. */
        static Object lookUp() {
            List<com.sun.management.GarbageCollectorMXBean> read = new ArrayList<>();
            for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (g instanceof com.sun.management.GarbageCollectorMXBean
                        && !g.getName().equals("G1 Concurrent GC")) {
                    read.add((com.sun.management.GarbageCollectorMXBean) g);
                }
            }
            return read.isEmpty() ? null : new Pauses(read);
        }

        /**
         * The heap's bytes in use at the end of the latest pause of the beans whose count moved
         * since the last call; the last figure if none moved; -1 if none ever reported one.
         */
        static long usedAfterLatest(Object pauses) {
            Pauses p = (Pauses) pauses;
            long latestEnd = Long.MIN_VALUE;
            for (int i = 0; i < p.beans.length; i++) {
                long c = p.beans[i].getCollectionCount();
                if (c == p.counts[i]) {
                    continue;
                }
                com.sun.management.GcInfo info = p.beans[i].getLastGcInfo();
                p.counts[i] = c; // after the figures: a call that ran out of memory reads them again
                if (info == null || info.getEndTime() < latestEnd) {
                    continue;
                }
                long sum = 0;
                for (java.util.Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
                    if (p.heapPools.contains(e.getKey())) {
                        sum += e.getValue().getUsed();
                    }
                }
                latestEnd = info.getEndTime();
                p.used = sum;
            }
            return p.used;
        }
    }
}
