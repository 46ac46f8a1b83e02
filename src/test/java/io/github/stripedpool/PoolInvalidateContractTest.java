package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolHookFailureContractTest.Failure;
import io.github.stripedpool.PoolMode.EveryMode;
import io.github.stripedpool.PoolMode.Item;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link Pool#invalidate(Object)} and {@link Lease#invalidate()} on every kind of pool: the object
 * is destroyed, never handed out again, counted, and a bounded pool gets its capacity back.
 */
@Timeout(60)
class PoolInvalidateContractTest {

    @EveryMode
    void invalidate_destroysTheObjectWithoutResetAndNeverHandsItOutAgain(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item broken = pool.acquire();
                broken.data = 42;
                pool.invalidate(broken);
                if (mode.destroy) {
                    assertTrue(broken.destroyed, "invalidate must run the destroy hook");
                    assertEquals(1, mode.destroys.get());
                }
                assertEquals(0, mode.resets.get(), "invalidate must not reset: the object is destroyed");
                List<Item> next = new ArrayList<>();
                for (int i = 0; i < 8; i++) {
                    Item x = pool.acquire();
                    assertNotSame(broken, x, "an invalidated object was handed out again");
                    next.add(x);
                }
                next.forEach(pool::release);
                PoolStats s = pool.stats();
                assertEquals(1, s.invalidated(), s.toString());
                assertEquals(0, s.notRetained(), s.toString());
                assertEquals(9, s.released(), "an invalidation counts as a release: " + s);
                assertTrue(s.dropped() >= 1, s.toString());
                PoolContractTest.assertBalanced(s);
            }
        });
    }

    @EveryMode
    void invalidate_ofNull_throwsNullPointerExceptionAndChangesNothing(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x = pool.acquire();
                NullPointerException e = assertThrows(NullPointerException.class,
                        () -> pool.invalidate(null));
                assertTrue(e.getMessage().contains("invalidate"), e.getMessage());
                pool.release(x);
                PoolStats s = pool.stats();
                assertEquals(0, s.invalidated());
                PoolContractTest.assertBalanced(s);
            }
        });
    }

    /** The common misuse: release in a finally block after the object was already invalidated. */
    @EveryMode
    void invalidate_afterReleaseOnTheSameThread_throwsAndTheObjectStaysPooledOnce(PoolMode mode)
            throws Exception {
        Assumptions.assumeTrue(mode.catchesADoubleReleaseInARow(), PoolMode.DOUBLE_RELEASE_UNSEEN);
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x = pool.acquire();
                pool.release(x);
                assertThrows(IllegalStateException.class, () -> pool.invalidate(x));
                assertFalse(x.destroyed, "a rejected invalidate destroyed a pooled object");
                Item a = pool.acquire();
                Item b = pool.acquire();
                assertNotSame(a, b);
                pool.release(a);
                pool.release(b);
                PoolContractTest.assertBalanced(pool.stats());
            }
        });
    }

    @EveryMode
    void invalidate_ofAnObjectFromElsewhere_isRejectedWhereThePoolCanTell(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item stranger = new Item();
                if (mode.bounded || mode.leaks == LeakDetection.PARANOID) {
                    assertThrows(IllegalArgumentException.class, () -> pool.invalidate(stranger));
                    assertEquals(0, pool.stats().invalidated(), "a rejected invalidate was counted");
                } else {
                    pool.invalidate(stranger); // documented: an unbounded pool cannot tell
                }
                assertFalse(mode.bounded && stranger.destroyed,
                        "a bounded pool destroyed what it does not hold");
            }
        });
    }

    @EveryMode
    void invalidate_afterClose_destroysTheObject(PoolMode mode) throws Exception {
        mode.run(() -> {
            Pool<Item> pool = mode.builder().build();
            Item x = pool.acquire();
            pool.close();
            pool.invalidate(x);
            PoolStats s = pool.stats();
            assertEquals(1, s.invalidated(), s.toString());
            assertEquals(s.created(), s.dropped(), s.toString());
            assertEquals(mode.destroy, x.destroyed);
        });
    }

    /** A bounded pool at its cap: a waiter gets a new object as soon as a holder invalidates one. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.stripedpool.PoolMode#all")
    void invalidate_atTheCap_givesTheCapacityToAWaiter(PoolMode mode) throws Exception {
        if (!mode.bounded) {
            return; // nothing waits in an unbounded pool
        }
        mode.run(() -> {
            try (Pool<Item> pool = mode.configure(Pool.builder(Item::new)).maxTotal(1).build()) {
                Item held = pool.acquire();
                CompletableFuture<Item> waiter = new CompletableFuture<>();
                Thread t = mode.thread("waiter", () -> {
                    try {
                        waiter.complete(pool.acquire(Duration.ofSeconds(20)));
                    } catch (Throwable e) {
                        waiter.completeExceptionally(e);
                    }
                });
                t.start();
                while (pool.stats().waitingNow() == 0 && !waiter.isDone()) {
                    // Until the waiter is queued; a yield, not a spin, so that on virtual
                    // threads the waiter gets a carrier however few there are.
                    Thread.yield();
                }
                pool.invalidate(held);
                Item got = waiter.get(20, TimeUnit.SECONDS);
                assertNotSame(held, got, "the waiter got the invalidated object");
                pool.release(got);
                t.join();
                PoolStats s = pool.stats();
                assertEquals(2, s.created(), s.toString());
                assertEquals(1, s.invalidated(), s.toString());
            }
        });
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("io.github.stripedpool.PoolHookFailureContractTest#cases")
    void invalidate_whoseDestroyThrows_countsAndPassesOnOnlyAVmError(PoolMode mode, Failure f)
            throws Exception {
        mode.run(() -> {
            AtomicInteger calls = new AtomicInteger();
            try (QuietPoolLog quiet = new QuietPoolLog();
                 Pool<Item> pool = mode.builder().destroy(x -> {
                     if (calls.incrementAndGet() <= 3) {
                         f.raise();
                     }
                 }).build()) {
                for (int i = 0; i < 3; i++) {
                    Item x = pool.acquire();
                    Throwable thrown = PoolHookFailureContractTest.catchThrowable(() -> pool.invalidate(x));
                    if (f == Failure.RUNTIME_EXCEPTION) {
                        assertEquals(null, thrown, "a failing destroy hook reached the caller");
                    } else {
                        assertInstanceOf(VirtualMachineError.class, thrown,
                                "a VM error must reach the caller");
                    }
                }
                PoolStats s = pool.stats();
                assertEquals(3, s.invalidated(), s.toString());
                assertEquals(3, s.hookFailures(), s.toString());
                PoolContractTest.assertBalanced(s);
                PoolHookFailureContractTest.assertWholeCapacity(mode, pool);
            }
        });
    }

    @EveryMode
    void lease_invalidate_destroysAndTheClosingOfTheBlockDoesNothingMore(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x;
                try (Lease<Item> lease = pool.lease()) {
                    x = lease.get();
                    lease.invalidate();
                    assertThrows(IllegalStateException.class, lease::get);
                    assertThrows(IllegalStateException.class, lease::invalidate);
                }
                assertEquals(mode.destroy, x.destroyed);
                Lease<Item> closed = pool.lease();
                closed.close();
                assertThrows(IllegalStateException.class, closed::invalidate,
                        "invalidate after close must not give the object back a second time");
                PoolStats s = pool.stats();
                assertEquals(1, s.invalidated(), s.toString());
                PoolContractTest.assertBalanced(s);
            }
        });
    }

    @Test
    void lease_closedAgainAfterTheBlock_afterInvalidate_throws() {
        try (Pool<Item> pool = Pool.builder(Item::new).build()) {
            Lease<Item> lease = pool.lease();
            lease.invalidate();
            lease.close(); // the end of the try-with-resources block
            assertThrows(IllegalStateException.class, lease::close);
        }
    }

    /** An invalidated tracked object that dies is not a leak; a leaked one beside it still is. */
    @Test
    void invalidate_underParanoid_isNoLeakWhenTheObjectDies() throws Exception {
        LeakTesting.Reports reports = new LeakTesting.Reports();
        try (QuietPoolLog quiet = new QuietPoolLog();
             Pool<LeakTesting.Buffer> pool = Pool.builder(LeakTesting.Buffer::new)
                     .leakDetection(LeakDetection.PARANOID).onLeak(reports).build()) {
            invalidateOne(pool);
            leakOnPurpose(pool);
            List<LeakReport> got = reports.await(1);
            for (int i = 0; i < 5; i++) {
                System.gc();
            }
            assertTrue(reports.queue.poll(200, TimeUnit.MILLISECONDS) == null,
                    "an invalidated object was reported as a leak");
            assertEquals(1, got.size());
            assertTrue(LeakTesting.hasFrame(got.get(0).stackTrace(), "leakOnPurpose"),
                    "the report is not the leaked object's");
        }
    }

    private static void invalidateOne(Pool<LeakTesting.Buffer> pool) {
        pool.invalidate(pool.acquire());
    }

    private static void leakOnPurpose(Pool<LeakTesting.Buffer> pool) {
        pool.acquire().touch();
    }
}
