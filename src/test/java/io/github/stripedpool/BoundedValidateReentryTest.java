package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A validate hook that gives back the object it checks, and a validation that fails at a zero
 * timeout: the object is destroyed once, its place freed once, never handed to two borrowers, and
 * the acquisition goes on with a new object when capacity is free.
 */
@Timeout(60)
class BoundedValidateReentryTest {

    /**
     * Pool.java:40-46: a hook "may call any method of this pool ... nothing is lost or destroyed
     * twice"; Pool.java:56-57: a bounded pool catches every double invalidation and every object
     * it did not hand out. The object under validation is BORROWED on the acquirer's behalf, so a
     * nested invalidate(x) won claim()'s CAS, destroyed x and freed its entry; valid() then
     * destroyed x again and freed the entry a second time (a free stack that never empties,
     * live at -1, a second object beside the one held in a pool of maxTotal 1).
     */
    @Test
    void validateThatInvalidatesTheObjectItChecksDoesNotDestroyItTwiceNorFreeItsPlaceTwice() {
        AtomicBoolean armed = new AtomicBoolean();
        AtomicReference<Pool<Object>> self = new AtomicReference<>();
        Map<Object, Integer> destroys = Collections.synchronizedMap(new IdentityHashMap<>());
        try (QuietPoolLog quiet = new QuietPoolLog();
             Pool<Object> pool = Pool.builder(Object::new).maxTotal(1)
                     .destroy(x -> destroys.merge(x, 1, Integer::sum))
                     .validate(x -> {
                         if (armed.compareAndSet(true, false)) {
                             try {
                                 self.get().invalidate(x); // "this one is broken, drop it"
                             } catch (RuntimeException refused) {
                                 // a fixed pool may refuse: x was not handed out yet
                             }
                             return false;
                         }
                         return true;
                     }).build()) {
            self.set(pool);
            Object x = pool.acquire(); // new: not validated
            pool.release(x);
            armed.set(true);
            Object y = pool.acquire(); // hint path: validates x, which invalidates x, refused
            assertNotSame(x, y);
            assertEquals(1, destroys.get(x), "x was destroyed twice");
            // maxTotal is 1 and y is held: nothing else may exist.
            assertThrows(PoolTimeoutException.class, () -> pool.acquire(Duration.ZERO),
                    "a second object exists beside y in a pool of maxTotal 1");
            pool.release(y);
            PoolAssertions.assertBalanced(pool);
        }
    }

    /** Same root cause: a nested release(x) inside validate, which then accepts x. */
    @Test
    void validateThatReleasesTheObjectItChecksDoesNotHandItToTwoBorrowers() {
        AtomicBoolean armed = new AtomicBoolean();
        AtomicReference<Pool<Object>> self = new AtomicReference<>();
        try (QuietPoolLog quiet = new QuietPoolLog();
             Pool<Object> pool = Pool.builder(Object::new).maxTotal(2)
                     .validate(x -> {
                         if (armed.compareAndSet(true, false)) {
                             try {
                                 self.get().release(x);
                             } catch (RuntimeException refused) {
                                 // a fixed pool may refuse
                             }
                         }
                         return true;
                     }).build()) {
            self.set(pool);
            Object x = pool.acquire();
            pool.release(x);
            armed.set(true);
            Object a = pool.acquire();            // x, validated: the nested release made it IDLE
            Object b = pool.acquire(Duration.ZERO); // hint: takes the IDLE entry, x again
            assertNotSame(a, b, "one object handed to two borrowers");
        }
    }

    /**
     * PoolBuilder.java validate Javadoc: "An object that fails it ... is destroyed, and the
     * acquisition goes on with another object or a new one"; acquireTimeout: "zero never waits";
     * PoolTimeoutException: thrown "when every object stayed in use". With a zero timeout,
     * BoundedWaiting.checkDeadline throws right after the first refused object, although the
     * destroy just freed the only unit of capacity and nothing is in use.
     */
    @Test
    void zeroTimeoutAcquireGoesOnWithANewObjectWhenTheIdleOneFailsValidation() throws Exception {
        AtomicBoolean refuse = new AtomicBoolean();
        try (QuietPoolLog quiet = new QuietPoolLog();
             Pool<Object> pool = Pool.builder(Object::new).maxTotal(1)
                     .validate(x -> !refuse.get()).acquireTimeout(Duration.ZERO).build()) {
            Object stale = pool.acquire();
            pool.release(stale);
            refuse.set(true);
            AtomicReference<Object> got = new AtomicReference<>();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread other = new Thread(() -> { // no hint on this thread: acquireSlow's loop
                try {
                    got.set(pool.acquire());
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            other.start();
            other.join();
            assertNull(failed.get(), () -> "acquire failed with capacity free: " + failed.get());
            assertNotNull(got.get());
            assertNotSame(stale, got.get());
            assertEquals(0, pool.stats().timeouts());
            pool.release(got.get());
        }
    }
}
