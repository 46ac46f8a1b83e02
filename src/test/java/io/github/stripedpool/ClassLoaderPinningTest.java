package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.Reference;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a thread keeps of an unbounded pool after the pool is gone. A thread's
 * {@code ThreadLocalMap} keeps a value until its stale entry happens to be expunged, so a library
 * object kept there pins the class loader of an application that used the library (an undeployed
 * web application's) for as long as the thread lives. The value the pool keeps in a thread must
 * therefore be a JDK type that does not hold a library object strongly; the slot it refers to
 * must still be found while the pool lives.
 */
@Timeout(120)
class ClassLoaderPinningTest {

    /**
     * Regression: the pool's {@code ThreadLocal} held the thread's {@link PrivateSlot} itself,
     * pinning the library's class loader in every thread that had used an unbounded pool.
     */
    @Test
    void threadKeepsOnlyAJdkObjectThatHoldsItsSlotWeakly() {
        UnboundedPool<Object> pool = engine(Pool.builder(Object::new).agingInterval(MANUAL_AGING), "pinning");
        pool.release(pool.acquire());
        Object value = pool.threadLocalValue();
        assertNotNull(value, "the calling thread should have a ThreadLocal entry after using the pool");
        assertNull(value.getClass().getClassLoader(),
                "a thread's ThreadLocal value must be of a JDK class, not " + value.getClass());
        assertTrue(value instanceof Reference && !(value instanceof java.lang.ref.PhantomReference),
                "the ThreadLocal value must refer to the slot weakly: " + value.getClass());
        assertTrue(((Reference<?>) value).get() instanceof PrivateSlot,
                "while the pool lives, the weak value refers to the thread's slot");
        pool.close();
    }

    /**
     * A thread whose thread-id table entry belongs to another thread finds its slot through its
     * {@code ThreadLocal} only; that slot, held there weakly, must survive garbage collection
     * while the pool lives, or the thread would lose its object and make a new slot each time.
     */
    @Test
    void collidingThreadFindsItsSlotAgainAfterGarbageCollection() throws Exception {
        UnboundedPool<Object> pool = engine(Pool.builder(Object::new).agingInterval(MANUAL_AGING), "colliding");
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch occupied = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread colliding = new Thread(() -> {
            try {
                occupied.await();
                Object x = pool.acquire();
                pool.release(x); // into its private slot, found through the ThreadLocal
                // Another thread's slot becomes the pool's most recent one, so that nothing but
                // the registry and the ThreadLocal refers to this thread's slot.
                Thread later = new Thread(() -> pool.release(pool.acquire()), "later");
                later.start();
                later.join();
                for (int i = 0; i < 5; i++) {
                    System.gc(); // a weakly held slot, not kept alive elsewhere, would go here
                }
                assertSame(x, pool.acquire(), "the thread lost its slot to garbage collection");
                pool.release(x);
            } catch (Throwable e) {
                failure.set(e);
            }
        }, "colliding");
        // A thread with the same table entry, started first so that the entry is its own.
        Thread first = null;
        for (int i = 0; i < 4 * ThreadSlots.TABLE_SIZE && first == null; i++) {
            Thread t = new Thread(() -> {
                pool.release(pool.acquire());
                occupied.countDown();
                awaitQuietly(done);
            }, "occupant");
            if (tableIndex(t) == tableIndex(colliding)) {
                first = t;
            }
        }
        assertNotNull(first, "no thread with the same table entry could be made");
        first.start();
        colliding.start();
        colliding.join();
        done.countDown();
        first.join();
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        PoolStats s = pool.stats();
        assertEquals(1, s.privateHits(), s::toString);
        assertEquals(3, s.created(), s::toString);
        pool.close();
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    private static int tableIndex(Thread t) {
        return (int) t.getId() & (ThreadSlots.TABLE_SIZE - 1);
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
