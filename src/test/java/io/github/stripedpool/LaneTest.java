package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A pool's lane runs its jobs one at a time, every one of them, whatever they throw. */
@Timeout(60)
class LaneTest {

    @Test
    void jobsSubmittedFromManyThreadsAllRunAndNeverTwoAtOnce() throws Exception {
        Lane lane = new Lane();
        int threads = 8;
        int perThread = 20_000;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        CountDownLatch allDone = new CountDownLatch(threads * perThread);
        List<Thread> submitters = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread s = new Thread(() -> {
                for (int i = 0; i < perThread; i++) {
                    lane.submit(() -> {
                        if (running.incrementAndGet() != 1) {
                            overlaps.incrementAndGet();
                        }
                        done.incrementAndGet();
                        running.decrementAndGet();
                        allDone.countDown();
                    }, "job");
                }
            });
            submitters.add(s);
            s.start();
        }
        for (Thread s : submitters) {
            s.join();
        }
        assertTrue(allDone.await(30, TimeUnit.SECONDS), "only " + done.get() + " of "
                + threads * perThread + " jobs ran: a job was stranded in the lane");
        assertEquals(0, overlaps.get(), "two jobs of one lane ran at once");
    }

    @Test
    void jobsThatThrowErrorsDoNotStopTheLane() throws Exception {
        Lane lane = new Lane();
        CountDownLatch last = new CountDownLatch(1);
        try (QuietPoolLog quiet = new QuietPoolLog()) {
            lane.submit(() -> {
                throw new OutOfMemoryError("thrown on purpose");
            }, "a job that runs out of memory");
            lane.submit(() -> {
                throw new StackOverflowError("thrown on purpose");
            }, "a job that overflows its stack");
            lane.submit(() -> {
                throw new IllegalStateException("thrown on purpose");
            }, "a job that throws");
            lane.submit(last::countDown, "the last job");
            assertTrue(last.await(10, TimeUnit.SECONDS), "the job after three failing ones never ran");
        }
    }

    @Test
    void jobsRunInSubmissionOrder() throws Exception {
        Lane lane = new Lane();
        List<Integer> order = new ArrayList<>();
        CountDownLatch done = new CountDownLatch(1);
        for (int i = 0; i < 1000; i++) {
            int n = i;
            lane.submit(() -> order.add(n), "job " + n); // the lane orders the jobs' writes
        }
        lane.submit(done::countDown, "last");
        assertTrue(done.await(10, TimeUnit.SECONDS));
        for (int i = 0; i < 1000; i++) {
            assertEquals(i, order.get(i), "job " + i + " ran out of order");
        }
    }
}
