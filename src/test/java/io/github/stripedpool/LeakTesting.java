package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Fixtures of the leak-detection tests: a pooled class, a listener that queues reports, GC polling. */
final class LeakTesting {
    /** How long a test waits for the collector to find and the leak thread to report a leak. */
    static final Duration GC_DEADLINE = Duration.ofSeconds(20);

    private LeakTesting() {
    }

    /** The pooled object of the leak tests; its class name shows in every report. */
    static final class Buffer {
        final byte[] bytes = new byte[64];

        void touch() {
            bytes[0]++;
        }
    }

    /** An {@code onLeak} listener: reports arrive on the leak thread, tests take them here. */
    static final class Reports implements java.util.function.Consumer<LeakReport> {
        final LinkedBlockingQueue<LeakReport> queue = new LinkedBlockingQueue<>();
        final List<LeakReport> taken = new ArrayList<>();

        @Override
        public void accept(LeakReport r) {
            queue.add(r);
        }

        /**
         * Forces collections until {@code n} reports have arrived in all, or fails at the
         * deadline. Waits for the next report between collections, never sleeps.
         */
        List<LeakReport> await(int n) throws InterruptedException {
            long deadline = System.nanoTime() + GC_DEADLINE.toNanos();
            while (taken.size() < n) {
                if (System.nanoTime() - deadline > 0) {
                    fail("expected " + n + " leak reports within " + GC_DEADLINE + ", got "
                            + taken.size());
                }
                System.gc();
                LeakReport r = queue.poll(20, TimeUnit.MILLISECONDS);
                if (r != null) {
                    taken.add(r);
                    queue.drainTo(taken);
                }
            }
            return taken;
        }

        /** Every report that arrived so far, without waiting. */
        List<LeakReport> soFar() {
            queue.drainTo(taken);
            return taken;
        }
    }

    /** Forces collections until {@code done} holds, or fails at the deadline. */
    static void gcUntil(String what, BooleanSupplier done) {
        long deadline = System.nanoTime() + GC_DEADLINE.toNanos();
        while (!done.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("not within " + GC_DEADLINE + ": " + what);
            }
            System.gc(); // a full collection takes milliseconds: the loop paces itself
        }
    }

    /** Whether any frame of the report is in a method of that name. */
    static boolean hasFrame(StackTraceElement[] frames, String method) {
        for (StackTraceElement f : frames) {
            if (f.getMethodName().equals(method)) {
                return true;
            }
        }
        return false;
    }

    /** Trackers in the table of a pool with leak detection, wrapped or sampling in its engine. */
    static int tracked(Pool<?> pool) {
        if (pool instanceof UnboundedPool && ((UnboundedPool<?>) pool).sampler != null) {
            return ((UnboundedPool<?>) pool).sampler.tracked();
        }
        return ((LeakDetectingPool<?>) pool).tracked();
    }
}
