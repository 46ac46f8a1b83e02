package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A pool in steady use allocates nothing: acquire and release only move references between
 * slots that exist already.
 *
 * <p>Measured with the calling thread's allocation counter (TLAB bytes handed to this thread),
 * so other threads, the aging thread included, do not disturb it.
 */
@Timeout(120)
class ZeroAllocationTest {
    /** Cycles run before measuring, so that the hot paths are JIT-compiled and inlined. */
    private static final int WARM_UP_CYCLES = 300_000;
    private static final int MEASURED_CYCLES = 1_000_000;

    /**
     * 0.01 byte per cycle: 10,000 bytes over the measured run. Any allocation on the pool's
     * path is at least 16 bytes per cycle (the smallest object), so a single stray allocation
     * per cycle would exceed this a thousandfold. What the budget leaves room for is the reading
     * of the counter itself and a one-off allocation or two around a late recompilation (a
     * deoptimization or a safepoint in the loop), which do not grow with the cycle count.
     */
    private static final double MAX_BYTES_PER_CYCLE = 0.01;

    /**
     * {@code com.sun.management.ThreadMXBean}, reached by reflection: the tests are compiled
     * inside the library's module, which reads neither {@code java.management} nor
     * {@code jdk.management}, and the library must not require them for its tests' sake.
     */
    private static Object threads;
    private static Method allocatedBytes;

    @BeforeAll
    static void allocationCounterAvailable() throws ReflectiveOperationException {
        Class<?> extended;
        try {
            extended = Class.forName("com.sun.management.ThreadMXBean");
        } catch (ClassNotFoundException e) {
            Assumptions.abort("this JVM has no com.sun.management.ThreadMXBean to count allocated bytes");
            return;
        }
        threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        Assumptions.assumeTrue(extended.isInstance(threads),
                "this JVM's ThreadMXBean cannot count allocated bytes");
        Assumptions.assumeTrue((Boolean) extended.getMethod("isThreadAllocatedMemorySupported").invoke(threads),
                "this JVM cannot count the bytes a thread allocates");
        extended.getMethod("setThreadAllocatedMemoryEnabled", boolean.class).invoke(threads, true);
        allocatedBytes = extended.getMethod("getThreadAllocatedBytes", long.class);
    }

    /** Called only around the measured loops: its own allocation (boxing) is a constant. */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    private static long allocatedByThisThread() {
        try {
            return (Long) allocatedBytes.invoke(threads, Thread.currentThread().getId());
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("cannot read the thread's allocation counter", e);
        }
    }

    @Test
    void steadyAcquireReleaseThroughThePrivateSlotAllocatesNothing() {
        try (Pool<byte[]> pool = Pool.builder(() -> new byte[64]).reset(b -> b[0] = 0)
                .leakDetection(LeakDetection.DISABLED).name("zero-alloc-private").build()) {
            singleObjectCycles(pool, WARM_UP_CYCLES);
            long before = allocatedByThisThread();
            long checksum = singleObjectCycles(pool, MEASURED_CYCLES);
            long bytes = allocatedByThisThread() - before;
            report("private slot", bytes, checksum);
            PoolStats s = pool.stats();
            assertEquals(1, s.created(), s::toString);
            assertTrue(s.privateHits() >= WARM_UP_CYCLES + MEASURED_CYCLES - 1, s::toString);
            assertBytesPerCycle(bytes);
        }
    }

    /**
     * A buffer pool's leases in a try-with-resources block: the compiler sees the whole block,
     * so it allocates no lease. In a JVM of its own: the lease goes only where the class pool's
     * call is inlined with one receiver class, and the other tests of this JVM lease from
     * leak-detecting class pools too (a lease then costs 24 bytes).
     */
    @Test
    void steadyBufferLeasesAllocateNothing() throws Exception {
        String out = ChildJvm.run(LeaseAllocationApp.class, 120);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("leases: (\\d+) bytes over (\\d+) cycles").matcher(out);
        Assumptions.assumeFalse(out.contains("no allocation counter"), out);
        assertTrue(m.find(), out);
        assertEquals(MEASURED_CYCLES, Long.parseLong(m.group(2)), out);
        assertBytesPerCycle(Long.parseLong(m.group(1)));
    }

    @Test
    void steadyAcquireReleaseThroughTheSpareEntriesAllocatesNothing() {
        int k = PrivateSlot.SPARES + 1;
        PoolStats s = heldCyclesAllocateNothing(k, "private slot + spare entries");
        // Each cycle takes one object from the private slot and the others from its spare entries.
        assertTrue(s.privateHits() >= (long) k * (WARM_UP_CYCLES + MEASURED_CYCLES) - k, s::toString);
        assertEquals(0, s.homeHits() + s.stolenHits() + s.victimHits(), s::toString);
    }

    @Test
    void steadyAcquireReleaseThroughAStripeAllocatesNothing() {
        PoolStats s = heldCyclesAllocateNothing(PrivateSlot.SPARES + 2, "private slot + spares + stripe");
        // Each cycle takes the last object from a stripe: the slot and its spare entries are full.
        assertTrue(s.homeHits() + s.stolenHits() + s.victimHits()
                >= WARM_UP_CYCLES + MEASURED_CYCLES - 1, s::toString);
    }

    /** Measures {@link #heldCycles} with {@code k} objects; returns the pool's stats before close. */
    private static PoolStats heldCyclesAllocateNothing(int k, String path) {
        try (Pool<byte[]> pool = Pool.builder(() -> new byte[64]).reset(b -> b[0] = 0)
                .leakDetection(LeakDetection.DISABLED).name("zero-alloc-" + k).build()) {
            heldCycles(pool, k, WARM_UP_CYCLES);
            long before = allocatedByThisThread();
            long checksum = heldCycles(pool, k, MEASURED_CYCLES);
            long bytes = allocatedByThisThread() - before;
            report(path, bytes, checksum);
            PoolStats s = pool.stats();
            assertEquals(k, s.created(), s::toString);
            assertBytesPerCycle(bytes);
            return s;
        }
    }

    /** Returns a value derived from the objects so that the JIT cannot drop the loop. */
    private static long singleObjectCycles(Pool<byte[]> pool, int cycles) {
        long sum = 0;
        for (int i = 0; i < cycles; i++) {
            byte[] b = pool.acquire();
            b[0] = (byte) i;
            sum += b.length;
            pool.release(b);
        }
        return sum;
    }

    /**
     * Holds {@code k} objects at once and releases them in reverse: up to
     * {@code PrivateSlot.SPARES + 1}, they go to the private slot and its spare entries; beyond,
     * the last finds them all taken and goes to the home stripe, and every cycle's last acquire
     * comes from there.
     */
    private static long heldCycles(Pool<byte[]> pool, int k, int cycles) {
        byte[][] held = new byte[k][];
        long sum = 0;
        for (int i = 0; i < cycles; i++) {
            for (int j = 0; j < k; j++) {
                held[j] = pool.acquire();
                held[j][0] = (byte) i;
                sum += held[j].length;
            }
            for (int j = k - 1; j >= 0; j--) {
                pool.release(held[j]);
            }
        }
        return sum;
    }

    private static void report(String path, long bytes, long checksum) {
        System.out.printf("allocation, %s: %d bytes over %d cycles = %.6f B/cycle (checksum %d)%n",
                path, bytes, MEASURED_CYCLES, (double) bytes / MEASURED_CYCLES, checksum);
    }

    private static void assertBytesPerCycle(long bytes) {
        double perCycle = (double) bytes / MEASURED_CYCLES;
        assertTrue(perCycle < MAX_BYTES_PER_CYCLE, bytes + " bytes allocated over " + MEASURED_CYCLES
                + " cycles: " + perCycle + " B/cycle, budget " + MAX_BYTES_PER_CYCLE);
    }
}
