package io.github.stripedpool;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The heap in use at the end of a stop-the-world collector's latest pause, from the collector's
 * own figures ({@code com.sun.management}'s {@code GcInfo}, module {@code jdk.management}): the
 * exact reading {@link HeapReadings} takes on Serial, Parallel and G1. Every other reading of the
 * heap made after the pause counts something the pause did not leave: {@code Runtime}'s counts
 * the eden allocated since, and the memory pools' usage counts G1's humongous objects (arrays of
 * half a region or more, put straight into the old generation) allocated since, which a buffer
 * pool's oversized buffers are: with arrays of 700 KB churned in a 256 MiB heap half live, such a
 * reading passed 0.85 in 79 of 2,159 collections, where no pause had left more than 0.52.
 *
 * <p>Cost: a bean's figures are read only when its collection count moved since the last
 * reading; each {@code getLastGcInfo} makes an object of a few kilobytes, in tens of
 * microseconds. Class initialisation: the first {@code GcInfo} initialises JDK classes whose
 * initialiser, failing once in an exhausted heap, leaves them broken for every later use, the
 * application's included; {@link #lookUp} initialises them, on the clock's thread when it starts
 * (see {@link HeapReadings}), so that no collection that comes with the heap exhausted is the
 * first to.
 *
 * <p>Where {@code jdk.management} is missing, loading this class fails with a
 * {@link LinkageError}, which its caller takes as "no figures". Used by the clock's thread only.
 */
final class LastPause {
    private final com.sun.management.GarbageCollectorMXBean[] beans;
    /** Each bean's collection count when it was last read. */
    private final long[] counts;
    /** The names of the heap's memory pools: the keys of a GcInfo's usage to add up. */
    private final Set<String> heapPools = new HashSet<>();
    /** The last figure read; -1 before the first. */
    private long used = -1;

    private LastPause(List<com.sun.management.GarbageCollectorMXBean> beans) {
        this.beans = beans.toArray(new com.sun.management.GarbageCollectorMXBean[0]);
        this.counts = new long[this.beans.length];
        java.util.Arrays.fill(counts, -1);
        for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
            if (p.getType() == MemoryType.HEAP) {
                heapPools.add(p.getName());
            }
        }
    }

    /**
     * The reader of the collectors' pauses, with the classes of a first {@code GcInfo}
     * initialised; null if no collector bean reports its pauses. G1's {@code "G1 Concurrent GC"}
     * bean is left out: its pauses (remark, cleanup) collect no young region, and its figures
     * count the eden allocated so far.
     *
     * @throws LinkageError without {@code jdk.management}
     */
    static Object lookUp() {
        List<com.sun.management.GarbageCollectorMXBean> read = new ArrayList<>();
        for (GarbageCollectorMXBean g : ManagementFactory.getGarbageCollectorMXBeans()) {
            if (g instanceof com.sun.management.GarbageCollectorMXBean && !g.getName().equals("G1 Concurrent GC")) {
                read.add((com.sun.management.GarbageCollectorMXBean) g);
            }
        }
        if (read.isEmpty()) {
            return null;
        }
        // JDK classes that the first GcInfo initialises, named so that a JDK without one of them
        // only skips it. A local, not a constant: this class has no static initialiser, which
        // the clock's thread would run (see Background.prepare).
        for (String c : new String[] {"com.sun.management.GcInfo", "com.sun.management.internal.GcInfoCompositeData",
                "com.sun.management.internal.GcInfoBuilder", "javax.management.openmbean.CompositeDataSupport",
                "javax.management.openmbean.TabularDataSupport"}) {
            try {
                Class.forName(c, true, null);
            } catch (ClassNotFoundException e) {
                // another JDK's internals: the first GcInfo initialises what it uses
            }
        }
        LastPause p = new LastPause(read);
        usedAfterLatest(p); // each bean's figures once (its builder), and those of a pause if any ran
        return p;
    }

    /**
     * The heap's bytes in use at the end of the latest pause of the beans whose count moved
     * since the last call (of two ending in the same millisecond, the smaller); the last figure
     * if none moved; -1 if none ever reported one.
     */
    static long usedAfterLatest(Object lastPause) {
        LastPause p = (LastPause) lastPause;
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
            for (Map.Entry<String, MemoryUsage> e : info.getMemoryUsageAfterGc().entrySet()) {
                if (p.heapPools.contains(e.getKey())) {
                    sum += e.getValue().getUsed();
                }
            }
            // Two pauses ending in the same millisecond (a young one and the full one it
            // escalated to): the smaller figure is the later pause's.
            if (info.getEndTime() > latestEnd || sum < p.used) {
                latestEnd = info.getEndTime();
                p.used = sum;
            }
        }
        return p.used;
    }
}
