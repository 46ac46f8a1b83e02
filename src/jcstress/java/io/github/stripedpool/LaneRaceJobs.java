package io.github.stripedpool;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The jobs and the hand-started workers of the lane races: the lane's executor adds each worker
 * to {@link #started}, and the races run them where they choose ({@link #runStarted}); the job
 * counts its runs and marks two threads running jobs of the lane at once.
 */
final class LaneRaceJobs {
    final ConcurrentLinkedQueue<Runnable> started = new ConcurrentLinkedQueue<>();
    final AtomicInteger runs = new AtomicInteger();
    private final AtomicInteger running = new AtomicInteger();
    /** 1 if two threads ran jobs of the lane at once. */
    volatile int overlap;
    final Runnable job = () -> {
        if (running.incrementAndGet() > 1) {
            overlap = 1;
        }
        for (int i = 0; i < 200; i++) {
            Thread.onSpinWait(); // widens the window in which a second drainer would show
        }
        runs.incrementAndGet();
        running.decrementAndGet();
    };

    /** Runs the workers started so far, on the calling thread. */
    void runStarted() {
        for (Runnable w; (w = started.poll()) != null; ) {
            w.run();
        }
    }
}
