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
 * counts that too. Under fast allocation it is not small: with a 128 MiB heap 55 % live, such
 * readings reached 0.86 on Serial and Parallel where no collection had left more than 0.58, and
 * with 65 % live G1's passed the default threshold; pools trimmed that should not have (1 to 5
 * times in 250 to 450 collections). So on such a collector the reading is the heap as the pause
 * left it: the collector's own figures at the end of its latest pause ({@link LastPause}, module
 * {@code jdk.management}). Without that module, or when the figures cannot be had, the memory
 * pools stand in: the eden and survivor spaces' usage after their last collection (every pause
 * collects them), the other spaces' usage now (their usage after collection is the last full
 * collection's). That matched the pause's figures to three decimals on Serial, Parallel and G1
 * at 65 % and 85 % live, but for one case: on G1, an array of half a region or more goes straight
 * to the old generation, so the old space's usage now counts those allocated since the pause
 * (with 700 KB arrays churned in a 256 MiB heap half live, readings passed 0.85 in 79 of 2,159
 * collections, where no pause had left more than 0.52). It errs, like {@code Runtime}, towards a
 * fuller heap: a short heap is trimmed either way.
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
 * <p>The lookup: which collector, from the names of the {@code GarbageCollectorMXBean}s
 * ({@code ZGC ...}, {@code Shenandoah ...}), the heap's pools to read, the pauses' figures with
 * the JDK classes their first use initialises, and generational ZGC's young-cycle bean. Made
 * once, by the clock's thread when it first starts ({@link #lookUp}), not at the first
 * collection, which may come with the heap exhausted (a JVM whose heap is large enough never
 * collects until it is full): a class of {@code java.management} whose initialiser fails then
 * fails every later use, the application's included. A heap exhausted in the 0.1 to 0.2 s the
 * lookup takes after the first pool's build can still do that (known; waiting for the lookup
 * would add that time to the first build). Where {@code java.management} is not in the runtime
 * (a module path that does not resolve it), or the lookup fails, every collector is read through
 * {@code Runtime}; where it runs out of memory it is tried again once a quarter of the heap is
 * free. This class itself is initialised on a thread that
 * builds a pool ({@link Background#prepare}), never by the clock.
 *
 * <p>Concurrency. {@link #lookUp}, {@link #record} and {@link #unseenCycles} are called by one
 * thread at a time (the clock's: the window and the looked-up fields are its own);
 * {@link #fullness} by any thread, through a volatile field that always holds a whole result.
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
    /** Whether {@link #lookUp} is done: the fields below are then final. */
    private boolean looked;
    /** Whether a lookup ran out of memory: the next is tried only with room in the heap. */
    private boolean ranOut;
    /**
     * The heap's memory pools to read (of {@code java.management}'s type, unnamed here so that
     * this class loads without it): on a concurrent collector, those whose collection usage it
     * reports; on any other, every heap pool. Empty: read {@link Runtime}.
     */
    private List<?> pools = List.of();
    /**
     * For each of {@link #pools}: read its usage after its last collection (true), or its usage
     * now.
     */
    private boolean[] afterCollection = new boolean[0];
    private boolean concurrent;
    /**
     * On a stop-the-world collector with {@code jdk.management}, its {@link LastPause} (whose
     * types this class does not name); else null: the pools are read instead.
     */
    private Object lastPause;
    /**
     * The collector bean whose cycles clear no weak reference (generational ZGC's young cycles,
     * {@code "ZGC Minor Cycles"}), of java.management's type; null if none.
     */
    private Object youngCycles;
    private volatile double fullness = Double.NaN;

    /**
     * The fullness after the last collection recorded, from 0 to 1; NaN before the first, or if
     * the heap has no limit (then no pool trims).
     */
    double fullness() {
        return fullness;
    }

    /**
     * Looks up the collector's kind, the pools to read and the young-cycle bean, unless done;
     * returns whether it is done. A lookup that fails for lack of {@code java.management} (or
     * any other reason but memory) is done, with nothing found: {@code Runtime} is read. One that
     * runs out of memory is not: it is tried again at a later call that finds a quarter of the
     * heap free (a collection's, usually), not in a heap still short. Clock thread only.
     */
    boolean lookUp() {
        if (!looked) {
            if (ranOut && !roomy()) {
                return false; // the lookup's own classes could fail to initialise, for good
            }
            try {
                Object[] found = Collectors.lookUp();
                pools = (List<?>) found[0];
                afterCollection = (boolean[]) found[1];
                concurrent = (Boolean) found[2];
                youngCycles = found[3];
            } catch (LinkageError | RuntimeException e) {
                pools = List.of(); // no java.management in this runtime, or it refused
                concurrent = false;
                youngCycles = null;
            } catch (OutOfMemoryError e) {
                ranOut = true;
                return false;
            }
            if (!concurrent && !pools.isEmpty()) {
                try {
                    lastPause = LastPause.lookUp();
                } catch (LinkageError | RuntimeException e) {
                    lastPause = null; // no jdk.management: the pools are read
                } catch (OutOfMemoryError e) {
                    ranOut = true;
                    return false; // the whole lookup again at the next call
                }
            }
            looked = true;
        }
        return true;
    }

    /**
     * Whether a quarter of the heap is free now: room for a lookup that once ran out of memory
     * to be tried again, without initialising JDK classes in a heap about to be exhausted.
     */
    private static boolean roomy() {
        Runtime r = Runtime.getRuntime();
        long max = r.maxMemory();
        return max == Long.MAX_VALUE || max - (r.totalMemory() - r.freeMemory()) >= max / 4;
    }

    /** Whether {@link #lookUp} is done; for a test (read from another thread: racy, and polled). */
    boolean lookedUp() {
        return looked;
    }

    /** Records the heap after a collection the clock has just seen: see {@link #record(long, long, boolean)}. */
    void record() {
        Runtime r = Runtime.getRuntime();
        long max = r.maxMemory();
        List<?> p = lookUp() ? pools : List.of();
        if (p.isEmpty()) {
            record(r.totalMemory() - r.freeMemory(), max, false);
            return;
        }
        long used = -1;
        if (lastPause != null) {
            try {
                used = LastPause.usedAfterLatest(lastPause);
            } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
                used = -1; // the pools, for this collection
            }
        }
        if (used < 0) {
            try {
                used = Collectors.inUse(p, afterCollection);
            } catch (RuntimeException | OutOfMemoryError e) {
                return; // the last fullness stands
            }
        }
        record(used, max, concurrent);
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
     * the clock sees only what clears its sentinel), or while the lookup is not done; if
     * {@code lookUp}, a lookup not done yet is tried first (see {@link #lookUp}). Clock thread
     * only.
     */
    long unseenCycles(boolean lookUp) {
        if (!(looked || lookUp && lookUp()) || youngCycles == null) {
            return -1;
        }
        try {
            return Collectors.count(youngCycles);
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    /** Apart, so that a runtime without {@code java.management} fails only when it is called. */
    private static final class Collectors {
        /**
         * The pools to read, whether the collector is concurrent, and the young-cycle bean or
         * null: see the fields of {@link HeapReadings}.
         */
        static Object[] lookUp() {
            boolean concurrent = false;
            Object young = null;
            for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
                String n = g.getName();
                concurrent |= n.startsWith("ZGC") || n.startsWith("Shenandoah");
                if (n.equals("ZGC Minor Cycles")) {
                    young = g;
                }
            }
            List<MemoryPoolMXBean> heap = new ArrayList<>();
            for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
                if (p.getType() == MemoryType.HEAP && (!concurrent || p.isCollectionUsageThresholdSupported())) {
                    heap.add(p);
                }
            }
            // A stop-the-world collector's young spaces are collected at every pause, so their
            // usage after the last one is current; the eden's usage now would count what was
            // allocated since. The other spaces are not collected at a young pause (their usage
            // after collection is the last full collection's), and change only at pauses but for
            // objects too large for the eden: their usage now is what the last pause left.
            boolean[] afterCollection = new boolean[heap.size()];
            for (int i = 0; i < afterCollection.length; i++) {
                String n = heap.get(i).getName();
                afterCollection[i] = concurrent || n.endsWith("Eden Space") || n.endsWith("Survivor Space");
            }
            inUse(heap, afterCollection); // the first reading, here: see lookUp's callers
            if (young != null) {
                count(young);
            }
            return new Object[] {heap, afterCollection, concurrent, young};
        }

        static long count(Object bean) {
            return ((GarbageCollectorMXBean) bean).getCollectionCount();
        }

        /**
         * The bytes in use in {@code pools}: after its last collection, as the collector counts
         * them, where {@code afterCollection} says so, else now.
         */
        static long inUse(List<?> pools, boolean[] afterCollection) {
            long used = 0;
            for (int i = 0; i < afterCollection.length; i++) {
                MemoryPoolMXBean p = (MemoryPoolMXBean) pools.get(i);
                MemoryUsage u = afterCollection[i] ? p.getCollectionUsage() : p.getUsage();
                used += u == null ? 0 : u.getUsed();
            }
            return used;
        }
    }
}
