package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.net.URLClassLoader;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The shared workers are made clean, with no context class loader, so that no application's
 * loader is pinned by them; a worker is reused by every pool of the JVM, and a destroy hook that
 * set the context class loader (JDBC drivers, JNDI and serialisation code do) left application
 * A's loader on a worker that then ran application B's hooks, for as long as B kept it busy.
 */
@Timeout(120)
class WorkerCleanTest {
    private static final long DEADLINE_SECONDS = 20;

    @Test
    void aHookThatSetsTheContextClassLoaderDoesNotLeaveItOnTheSharedWorker() throws Exception {
        try (URLClassLoader appA = new URLClassLoader("app-A", new URL[0], null)) {
            CountDownLatch aDestroyed = new CountDownLatch(1);
            Pool<Object> a = Pool.builder(Object::new).name("app-A-pool").agingInterval(Duration.ZERO)
                    .destroy(x -> {
                        Thread.currentThread().setContextClassLoader(appA); // and forgets to restore it
                        aDestroyed.countDown();
                    }).build();
            try {
                idleOneObject(a);
                collectUntil(() -> aDestroyed.getCount() == 0, "pool A never aged its idle object");
            } finally {
                a.close(); // application A undeployed
            }

            AtomicReference<Thread> ranOn = new AtomicReference<>();
            AtomicReference<ClassLoader> seenByB = new AtomicReference<>();
            CountDownLatch bDestroyed = new CountDownLatch(1);
            try (Pool<Object> b = Pool.builder(Object::new).name("app-B-pool").agingInterval(Duration.ZERO)
                    .destroy(x -> {
                        ranOn.set(Thread.currentThread());
                        seenByB.set(Thread.currentThread().getContextClassLoader());
                        bDestroyed.countDown();
                    }).build()) {
                idleOneObject(b);
                collectUntil(() -> bDestroyed.getCount() == 0, "pool B never aged its idle object");
            }
            assertTrue(ranOn.get().getName().startsWith(Background.WORKER_NAME), ranOn.get().getName());
            assertNull(seenByB.get(), "application B's destroy hook ran on " + ranOn.get().getName()
                    + " with application A's context class loader, after A was closed: " + seenByB.get());
        }
    }

    private static void idleOneObject(Pool<Object> pool) throws InterruptedException {
        Thread t = new Thread(() -> pool.release(pool.acquire()));
        t.start();
        t.join();
    }

    private static void collectUntil(BooleanSupplier done, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, message + " within " + DEADLINE_SECONDS + " s");
            System.gc();
            Thread.sleep(10); // a poll interval bounded by the deadline
        }
    }
}
