package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A bounded pool of three objects whose {@code close()} stalls in its first destroy until the test
 * lets it go on: the window in which a waiter, woken by close or served just before it, looks at
 * idle objects that close's sweep has not reached. Every destroy is counted, with the name of
 * the thread it ran on. The pool has no starving mode (a threshold of an hour): every release
 * makes its object idle and wakes the waiter, and the waiter's looks are the only way it takes one.
 */
final class StalledClose {
    final AtomicInteger destroys = new AtomicInteger();
    final List<String> destroyedOn = new CopyOnWriteArrayList<>();
    /** The destroys counted when close() returned; -1 before. */
    final AtomicInteger atReturn = new AtomicInteger(-1);
    final BoundedPool<Object> pool;
    private final CountDownLatch stalled = new CountDownLatch(1);
    private final CountDownLatch goOn = new CountDownLatch(1);
    private volatile Thread closer;

    StalledClose(String name) {
        pool = BoundedPool.start(Pool.builder(Object::new).maxTotal(3)
                .destroy(x -> {
                    destroys.incrementAndGet();
                    destroyedOn.add(Thread.currentThread().getName());
                    if (Thread.currentThread() == closer && stalled.getCount() > 0) {
                        stalled.countDown(); // close's first destroy: stall it
                        WaitHooks.await(goOn);
                    }
                })
                .settings(name), TimeUnit.HOURS.toNanos(1));
    }

    /** A waiter that acquires with a 30 s timeout and leaves in {@code ended} what it got or threw. */
    Thread waiter(AtomicReference<Object> ended) {
        return new Thread(() -> {
            try {
                ended.set(pool.acquire(Duration.ofSeconds(30)));
            } catch (Throwable t) {
                ended.set(t);
            }
        }, "waiter");
    }

    /** Starts close() on a thread of its own; returns once it stalls in its first destroy. */
    void closeUntilFirstDestroy() throws InterruptedException {
        Thread t = new Thread(() -> {
            pool.close();
            atReturn.set(destroys.get());
        }, "closer");
        closer = t;
        t.start();
        assertTrue(stalled.await(20, TimeUnit.SECONDS), "close destroyed nothing");
    }

    /** Lets the stalled close() go on, and waits for it to return. */
    void finishClose() throws InterruptedException {
        goOn.countDown();
        closer.join(20_000);
    }
}
