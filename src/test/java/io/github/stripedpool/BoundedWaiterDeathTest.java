package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter whose wait ends with a throwable other than the pool's own exceptions (an
 * {@link OutOfMemoryError} while the heap is exhausted: a virtual thread's timed park allocates;
 * a {@link StackOverflowError} in a deep stack) must not stay in the queue: a ghost there would
 * take the next hand-off (starving mode), an object or a free place, and it would be lost for
 * good. The error is thrown from inside the queued wait by the waiting thread's own
 * {@link Thread#isInterrupted()}, which the wait calls between its looks and its parks.
 */
@Timeout(60)
class BoundedWaiterDeathTest {

    /** A thread whose interrupt check throws, once armed, as if the wait had run out of memory there. */
    private static final class FailingThread extends Thread {
        volatile boolean armed;

        FailingThread(Runnable body) {
            super(body, "failing-waiter");
        }

        @Override
        public boolean isInterrupted() {
            if (armed) {
                armed = false;
                throw new OutOfMemoryError("injected: the wait ran out of memory");
            }
            return super.isInterrupted();
        }
    }

    @Test
    void aWaiterKilledByAnErrorInItsWaitLeavesNoGhostAndTheNextHandOffReachesARealWaiter() throws Exception {
        @SuppressWarnings("unchecked")
        BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(1)
                .name("ghost").build();
        try {
            Object held = pool.acquire();
            AtomicReference<Throwable> died = new AtomicReference<>();
            FailingThread[] box = new FailingThread[1];
            box[0] = new FailingThread(() -> {
                try {
                    box[0].armed = true;
                    pool.acquire(Duration.ofSeconds(30));
                } catch (Throwable t) {
                    died.set(t);
                }
            });
            box[0].start();
            box[0].join();
            assertTrue(died.get() instanceof OutOfMemoryError, "the injected error reaches the caller: " + died.get());
            assertEquals(0, pool.waiting(), "a waiter that died of an error stayed queued");

            // What a ghost would cost: a thread that waits long enough switches the queue to
            // hand-off, and the holder's release must reach it.
            AtomicReference<Object> got = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread waiter = new Thread(() -> {
                try {
                    got.set(pool.acquire(Duration.ofSeconds(10)));
                } catch (Throwable e) {
                    failed.set(e);
                }
            }, "real-waiter");
            waiter.start();
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (!pool.starving() && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            assertTrue(pool.starving(), "the real waiter switched the queue to hand-off");
            pool.release(held);
            waiter.join();
            assertNotNull(got.get(), () -> "the release went to a ghost; the real waiter got " + failed.get()
                    + "; " + pool.stats());
            assertSame(held, got.get());
            pool.release(got.get());
            assertEquals(1, pool.live(), "no place lost");
        } finally {
            pool.close();
        }
    }
}
