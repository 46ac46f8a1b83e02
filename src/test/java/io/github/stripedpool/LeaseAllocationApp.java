package io.github.stripedpool;

import io.github.stripedpool.buffer.BufferPool;
import java.lang.reflect.Method;

/**
 * Run by {@link ZeroAllocationTest} in a JVM of its own: leases buffers of two classes in turn
 * from a buffer pool in a try-with-resources block, long enough for the loop's final
 * compilation, then prints the fewest bytes this thread allocated over a round of
 * {@code 1,000,000} more.
 */
public final class LeaseAllocationApp {
    private LeaseAllocationApp() {
    }

    public static void main(String[] args) throws ReflectiveOperationException {
        Object threads;
        Method allocated;
        try {
            Class<?> extended = Class.forName("com.sun.management.ThreadMXBean");
            threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                    .invoke(null);
            allocated = extended.getMethod("getThreadAllocatedBytes", long.class);
            if (!extended.isInstance(threads)) {
                throw new ClassNotFoundException("not a com.sun.management.ThreadMXBean");
            }
        } catch (ClassNotFoundException e) {
            System.out.println("no allocation counter: " + e);
            return;
        }
        @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
        long me = Thread.currentThread().getId();
        try (BufferPool<byte[]> pool = BufferPool.bytes().leakDetection(LeakDetection.DISABLED).build()) {
            for (int round = 0; round < 5; round++) { // about three million cycles to the final compilation
                cycles(pool, 1_000_000);
            }
            // Then measured rounds until one allocates less than the budget, ten at most, the
            // lowest printed: a compilation queued late leaves a round's first thousands of
            // cycles to code that keeps the lease (8,193 x 24 bytes in one), never a whole round.
            long lowest = Long.MAX_VALUE;
            long checksum = 0;
            for (int round = 0; round < 10 && lowest > 10_000; round++) {
                long before = (Long) allocated.invoke(threads, me);
                checksum += cycles(pool, 1_000_000);
                lowest = Math.min(lowest, (Long) allocated.invoke(threads, me) - before);
            }
            System.out.println("leases: " + lowest + " bytes over 1000000 cycles (checksum " + checksum + ")");
        }
    }

    private static long cycles(BufferPool<byte[]> pool, int n) {
        long sum = 0;
        for (int i = 0; i < n; i++) {
            try (Lease<byte[]> lease = pool.lease(1000 + (i & 1) * 1000)) {
                byte[] b = lease.get();
                b[i & 63] = (byte) i;
                sum += b.length;
            }
        }
        return sum;
    }
}
