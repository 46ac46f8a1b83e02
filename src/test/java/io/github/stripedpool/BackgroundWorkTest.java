package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library's background work (aging, maintenance, leak reports) runs user code on threads
 * that serve every pool of the JVM. A slow hook of one pool must not hold up the others, and the
 * threads must not carry the class loader of whoever started them.
 */
@Timeout(120)
class BackgroundWorkTest {
    private static final long DEADLINE_SECONDS = 20;

    /**
     * A destroy hook that blocks while the pool ages its idle objects once stopped the aging of
     * every pool of the JVM: they all shared one thread that ran the hooks.
     */
    @Test
    void aDestroyHookThatBlocksDoesNotHoldUpAnotherPoolsAging() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch unblock = new CountDownLatch(1);
        Pool<Object> slow = Pool.builder(Object::new).name("slow-destroy")
                .agingInterval(Duration.ZERO)
                .destroy(x -> {
                    blocked.countDown();
                    awaitQuietly(unblock);
                })
                .build();
        try {
            idleOneObject(slow);
            collectUntil(() -> blocked.getCount() == 0, "the slow pool's destroy hook never ran");

            AtomicInteger destroyed = new AtomicInteger();
            try (Pool<Object> other = Pool.builder(Object::new).name("other")
                    .agingInterval(Duration.ZERO).destroy(x -> destroyed.incrementAndGet()).build()) {
                idleOneObject(other);
                collectUntil(() -> destroyed.get() > 0, "the other pool did not age while the slow "
                        + "pool's destroy hook was blocked");
            }
        } finally {
            unblock.countDown();
            slow.close();
        }
    }

    /**
     * A factory that blocks while a bounded pool refills its minimum once delayed another bounded
     * pool's 40 ms idle eviction to seconds: both ran on one maintenance thread.
     */
    @Test
    void aFactoryThatBlocksInRefillDoesNotHoldUpAnotherPoolsEviction() throws Exception {
        CountDownLatch blocked = new CountDownLatch(1);
        CountDownLatch unblock = new CountDownLatch(1);
        Pool<Object> slow = Pool.builder(() -> {
            blocked.countDown();
            awaitQuietly(unblock);
            return new Object();
        }).name("slow-factory").maxTotal(2).minIdle(1).build();
        try {
            assertTrue(blocked.await(DEADLINE_SECONDS, TimeUnit.SECONDS),
                    "the slow pool never refilled its minimum");
            AtomicInteger destroyed = new AtomicInteger();
            try (Pool<Object> other = Pool.builder(Object::new).name("evicting").maxTotal(2)
                    .maxIdleTime(Duration.ofMillis(40)).destroy(x -> destroyed.incrementAndGet())
                    .build()) {
                other.release(other.acquire());
                pollUntil(() -> destroyed.get() > 0, false, "the other pool did not evict its idle "
                        + "object while the slow pool's factory was blocked");
            }
        } finally {
            unblock.countDown();
            slow.close();
        }
    }

    /**
     * The shared threads once kept the context class loader of the thread that built the first
     * pool: in an application server, a web application's loader, pinned after undeploy.
     */
    @Test
    void backgroundThreadsCarryNoContextClassLoader() throws Exception {
        Map<String, AtomicReference<ClassLoader>> seen = new ConcurrentHashMap<>();
        CountDownLatch destroyed = new CountDownLatch(1);
        AtomicReference<Pool<Object>> built = new AtomicReference<>();
        try (URLClassLoader webApp = new URLClassLoader(new URL[0], null)) {
            Thread builder = new Thread(() -> built.set(Pool.builder(Object::new).name("webapp")
                    .agingInterval(Duration.ZERO)
                    .destroy(x -> {
                        Thread t = Thread.currentThread();
                        seen.put(t.getName(), new AtomicReference<>(t.getContextClassLoader()));
                        destroyed.countDown();
                    }).build()));
            builder.setContextClassLoader(webApp);
            builder.start();
            builder.join();
            Pool<Object> pool = built.get();
            try {
                idleOneObject(pool);
                collectUntil(() -> destroyed.getCount() == 0, "the pool never aged its idle object");
            } finally {
                pool.close();
            }
            assertEquals(1, seen.size(), "the hook ran on " + seen.keySet());
            Map.Entry<String, AtomicReference<ClassLoader>> e = seen.entrySet().iterator().next();
            assertTrue(e.getKey().startsWith(Background.WORKER_NAME), "the hook ran on " + e.getKey());
            assertNull(e.getValue().get(), "the worker's context class loader");
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                if (t.getName().startsWith(Background.THREAD_PREFIX)) {
                    assertNull(t.getContextClassLoader(), t.getName() + "'s context class loader");
                }
            }
        }
    }

    /** Acquires and releases one object on a thread that then ends, so that it sits idle. */
    private static void idleOneObject(Pool<Object> pool) throws InterruptedException {
        Thread t = new Thread(() -> pool.release(pool.acquire()));
        t.start();
        t.join();
    }

    /** Runs collections until {@code done}, or fails with {@code message} at the deadline. */
    static void collectUntil(BooleanSupplier done, String message) throws InterruptedException {
        pollUntil(done, true, message);
    }

    /** Polls {@code done} every 10 ms (collecting first if asked) until true or the deadline. */
    static void pollUntil(BooleanSupplier done, boolean collect, String message)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, message + " within " + DEADLINE_SECONDS + " s");
            if (collect) {
                System.gc();
            }
            Thread.sleep(10); // a poll interval, not a wait for an outcome: the deadline bounds it
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
