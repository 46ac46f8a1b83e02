package io.github.stripedpool.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * A hold spent blocked, as across a socket read: parks until {@code nanos} have passed. One
 * {@code parkNanos} is not enough: a park returns early when the thread has a pending unpark
 * (a pool may leave one when it hands the thread an object that it found without parking), and
 * a hold cut short would count as throughput that no real blocking call gives.
 */
final class BlockingHold {
    private BlockingHold() {
    }

    static void park(long nanos) {
        long until = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = until - System.nanoTime()) {
            LockSupport.parkNanos(left);
        }
    }
}
