package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolMode.EveryMode;
import io.github.stripedpool.PoolMode.Item;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The promises of {@link Pool}'s Javadoc, checked on every kind of pool ({@link PoolMode}):
 * unbounded and bounded, each with leak detection disabled, sampled and paranoid, each with and
 * without hooks, each called from platform threads and from virtual threads. Failing hooks are
 * in {@link PoolHookFailureContractTest}, concurrency in {@link PoolConcurrencyContractTest}.
 */
@Timeout(60)
class PoolContractTest {

    /**
     * The virtual-thread modes test what they say only if their calls really come from virtual
     * threads: a body run inline, or a thread started as a platform one, would pass them as
     * platform modes under another name.
     */
    @EveryMode
    void everyMode_callsThePoolFromItsKindOfThread(PoolMode mode) throws Exception {
        mode.run(() -> {
            assertEquals(mode.virtual, VirtualThreads.isVirtual(Thread.currentThread()),
                    "the test body ran on " + Thread.currentThread());
            CompletableFuture<Boolean> other = CompletableFuture.supplyAsync(
                    () -> VirtualThreads.isVirtual(Thread.currentThread()), mode::start);
            assertEquals(mode.virtual, other.get(20, TimeUnit.SECONDS), "a test's other thread");
        });
    }

    /** On JDK 17 this is the one test that tells that the virtual-thread modes did not run. */
    @Test
    void virtualThreadModes_areListedWhereTheJdkHasThem() {
        Assumptions.assumeTrue(VirtualThreads.AVAILABLE, VirtualThreads.NEED_JDK_21
                + ": the virtual-thread modes of the contract tests are not listed");
        long virtual = PoolMode.all().stream().filter(m -> m.virtual).count();
        assertEquals(PoolMode.all().size() / 2, virtual, "one virtual mode for each platform mode");
        assertEquals(PoolMode.everyEngineAndLeakLevel().size() / 2,
                PoolMode.everyEngineAndLeakLevel().stream().filter(m -> m.virtual).count());
    }

    @EveryMode
    void acquire_handsOutDistinctObjectsUntilTheyAreReleased(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Set<Item> held = identitySet();
                for (int i = 0; i < 20; i++) {
                    assertTrue(held.add(pool.acquire()), "an object was handed out twice");
                }
                held.forEach(pool::release);
                assertBalanced(pool.stats());
            }
        });
    }

    @EveryMode
    void acquire_reusesAReleasedObject(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x = pool.acquire();
                pool.release(x);
                assertSame(x, pool.acquire(), "a lone thread should get back the object it released");
                assertEquals(1, pool.stats().created());
            }
        });
    }

    @EveryMode
    void release_ofNull_throwsNullPointerExceptionAndChangesNothing(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x = pool.acquire();
                NullPointerException e = assertThrows(NullPointerException.class, () -> pool.release(null));
                assertNotNull(e.getMessage());
                pool.release(x);
                assertEquals(0, pool.stats().inUse());
                assertBalanced(pool.stats());
            }
        });
    }

    /**
     * Releasing the same object twice in a row is the common double release; in the default mode
     * it once pooled the object twice, and two threads then held it at once.
     */
    @EveryMode
    void release_twiceInARow_throwsIllegalStateExceptionAndTheObjectIsPooledOnce(PoolMode mode)
            throws Exception {
        Assumptions.assumeTrue(mode.catchesADoubleReleaseInARow(), PoolMode.DOUBLE_RELEASE_UNSEEN);
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x = pool.acquire();
                pool.release(x);
                assertThrows(IllegalStateException.class, () -> pool.release(x));
                Item a = pool.acquire();
                Item b = pool.acquire();
                assertNotSame(a, b, "the object released twice was handed out twice");
                pool.release(a);
                pool.release(b);
            }
        });
    }

    /**
     * The same, where the first give-back destroyed the object (a {@code retainIf} that keeps
     * nothing; an invalidation): the second is refused too, and the destroy hook runs once. An
     * unbounded pool used to accept it: it destroyed the object a second time (a native handle
     * freed twice) and counted both. Refused with {@link IllegalStateException}; a bounded pool
     * or {@code PARANOID} may say {@link IllegalArgumentException} instead, once it keeps no
     * trace of the object (see {@link Pool}).
     */
    @EveryMode
    void giveBack_twiceInARow_whereTheFirstDestroyedIt_isRefusedAndDestroysOnce(PoolMode mode) throws Exception {
        Assumptions.assumeTrue(mode.catchesADoubleReleaseInARow(), PoolMode.DOUBLE_RELEASE_UNSEEN);
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().retainIf(x -> false).build()) {
                Item x = pool.acquire();
                pool.release(x); // not retained: destroyed
                long destroys = mode.destroys.get();
                assertRefused(mode, () -> pool.release(x), "released again");
                assertRefused(mode, () -> pool.invalidate(x), "invalidated after it");
                Item y = pool.acquire();
                pool.invalidate(y);
                assertRefused(mode, () -> pool.release(y), "released after its invalidation");
                assertEquals(destroys + (mode.destroy ? 1 : 0), mode.destroys.get(),
                        "a destroy hook ran again on an object already destroyed");
                assertEquals(2, pool.stats().released(), "a refused give-back was counted: " + pool.stats());
            }
        });
    }

    private static void assertRefused(PoolMode mode, org.junit.jupiter.api.function.Executable giveBack, String what) {
        RuntimeException e = assertThrows(RuntimeException.class, giveBack, what);
        boolean untraced = mode.bounded || mode.leaks == LeakDetection.PARANOID;
        assertTrue(e instanceof IllegalStateException || untraced && e instanceof IllegalArgumentException,
                what + ": " + e);
    }

    @EveryMode
    void reset_runsBeforeAReleasedObjectReachesAnotherThread(PoolMode mode) throws Exception {
        Assumptions.assumeTrue(mode.reset, "only pools with a reset hook promise a reset");
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                List<Item> dirty = new ArrayList<>();
                for (int i = 0; i < 16; i++) {
                    Item x = pool.acquire();
                    x.data = 42;
                    dirty.add(x);
                }
                dirty.forEach(pool::release);
                CompletableFuture<long[]> other = new CompletableFuture<>();
                Thread t = mode.thread("other", () -> {
                    long[] seen = new long[16];
                    List<Item> got = new ArrayList<>();
                    for (int i = 0; i < 16; i++) {
                        Item x = pool.acquire();
                        got.add(x);
                        seen[i] = x.data;
                    }
                    got.forEach(pool::release);
                    other.complete(seen);
                });
                t.start();
                for (long d : other.get(20, TimeUnit.SECONDS)) {
                    assertEquals(0, d, "an object reached another thread without its reset");
                }
                t.join();
            }
        });
    }

    @EveryMode
    void afterClose_acquireAndLeaseThrowAndReleaseDestroysTheObject(PoolMode mode) throws Exception {
        mode.run(() -> {
            Pool<Item> pool = mode.builder().build();
            Item idle = pool.acquire();
            Item inUse = pool.acquire();
            pool.release(idle);
            pool.close();
            assertTrue(pool.isClosed());
            assertThrows(PoolClosedException.class, pool::acquire);
            assertThrows(PoolClosedException.class, () -> pool.acquire(Duration.ofMillis(10)));
            assertThrows(PoolClosedException.class, pool::lease);
            pool.release(inUse);
            assertThrows(PoolClosedException.class, pool::acquire,
                    "an object released after close must be dropped, never handed out again");
            PoolStats s = pool.stats();
            assertTrue(s.isClosed());
            assertEquals(0, s.idle(), "a closed pool keeps nothing idle");
            assertEquals(0, s.inUse());
            assertEquals(s.created(), s.dropped(),
                    "every object must be dropped once the pool is closed: " + s);
            if (mode.destroy) {
                assertTrue(idle.destroyed && inUse.destroyed, "close must destroy idle objects, and "
                        + "release after close must destroy the returned one");
                assertEquals(2, mode.destroys.get());
            }
            pool.close(); // idempotent
            assertEquals(mode.destroy ? 2 : 0, mode.destroys.get(), "a second close destroyed again");
            assertEquals(pool.name(), s.name());
        });
    }

    /**
     * The fast paths find a thread's slot without reading the closed flag: close empties the
     * thread-id table, and a call that happens after close must find it empty. Here the other thread learns
     * of the close through a latch only (no call of its own on the pool orders it), with an object
     * of its own in hand and its slot in the table, empty and open to a put.
     */
    @EveryMode
    void close_isSeenByAThreadToldOfItThroughALatch(PoolMode mode) throws Exception {
        Pool<Item> pool = mode.builder().build();
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Item> held = new AtomicReference<>();
        CompletableFuture<Void> other = new CompletableFuture<>();
        Thread t = mode.thread("told-of-close", () -> {
            try {
                pool.release(pool.acquire()); // its slot in the table, an object idle in it
                held.set(pool.acquire()); // that object back: the slot is empty and open
                holding.countDown();
                assertTrue(closed.await(10, TimeUnit.SECONDS), "close was not signalled");
                pool.release(held.get());
                assertThrows(PoolClosedException.class, pool::acquire,
                        "a call after close handed out an object: the close was not seen");
                other.complete(null);
            } catch (Throwable e) {
                other.completeExceptionally(e);
            }
        });
        t.start();
        assertTrue(holding.await(10, TimeUnit.SECONDS), "the other thread did not start");
        pool.close();
        closed.countDown();
        t.join();
        other.get(); // its failure, if any
        PoolStats s = pool.stats();
        assertEquals(0, s.idle(), "a closed pool keeps nothing idle: " + s);
        if (mode.destroy) {
            assertTrue(held.get().destroyed, "the object released after close must be destroyed");
        }
    }

    @EveryMode
    void close_destroysEveryIdleObjectExactlyOnce(PoolMode mode) throws Exception {
        Assumptions.assumeTrue(mode.destroy, "only pools with a destroy hook can tell");
        mode.run(() -> {
            Pool<Item> pool = mode.builder().build();
            List<Item> all = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                all.add(pool.acquire());
            }
            // Another thread's release: on a platform thread, into its own slots.
            Thread t = mode.thread("other", () -> all.subList(0, 16).forEach(pool::release));
            t.start();
            t.join();
            all.subList(16, 32).forEach(pool::release);
            pool.close();
            long destroyed = all.stream().filter(x -> x.destroyed).count();
            PoolStats s = pool.stats();
            assertEquals(0, s.created() - s.dropped(), "after close: " + s);
            assertEquals(s.dropped(), mode.destroys.get(), "destroy calls vs dropped count");
            assertEquals(mode.destroys.get(), destroyed + (s.created() - all.size()),
                    "an object was destroyed twice, or one was never destroyed");
        });
    }

    @EveryMode
    void lease_releasesOnCloseAndRejectsUseAfterClose(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Lease<Item> lease = pool.lease();
                Item x = lease.get();
                assertNotNull(x);
                assertEquals(1, pool.stats().inUse());
                lease.close();
                assertEquals(0, pool.stats().inUse());
                assertThrows(IllegalStateException.class, lease::get);
                assertThrows(IllegalStateException.class, lease::close);
                assertEquals(1, pool.stats().released(), "a second lease close must not release again");
            }
        });
    }

    @EveryMode
    void acquire_withATimeoutTooLongToCount_doesNotOverflow(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                Item x = pool.acquire(Duration.ofSeconds(Long.MAX_VALUE));
                pool.release(x);
                assertSame(x, pool.acquire(Duration.ofSeconds(Long.MAX_VALUE, 999_999_999)));
                pool.release(x);
                assertThrows(NullPointerException.class, () -> pool.acquire(null));
            }
        });
    }

    @EveryMode
    void stats_balanceWhenThePoolIsQuiet(PoolMode mode) throws Exception {
        mode.run(() -> {
            try (Pool<Item> pool = mode.builder().build()) {
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    Thread th = mode.thread("cycles-" + t, () -> {
                        for (int i = 0; i < 2_000; i++) {
                            Item a = pool.acquire();
                            Item b = pool.acquire();
                            pool.release(b);
                            pool.release(a);
                        }
                    });
                    threads.add(th);
                    th.start();
                }
                for (Thread th : threads) {
                    th.join();
                }
                PoolStats s = pool.stats();
                assertBalanced(s);
                assertEquals(16_000, s.acquired());
                assertEquals(16_000, s.released());
                if (mode.destroy) {
                    assertEquals(s.dropped(), mode.destroys.get(), "destroy calls vs dropped count: " + s);
                }
            }
        });
    }

    /** A destroy hook that blocks in close() must not block stats() on another thread. */
    @EveryMode
    void stats_doesNotWaitForADestroyHookThatBlocks(PoolMode mode) throws Exception {
        mode.run(() -> {
            CompletableFuture<Void> unblock = new CompletableFuture<>();
            CompletableFuture<Void> inHook = new CompletableFuture<>();
            Pool<Item> pool = mode.builder().destroy(x -> {
                inHook.complete(null);
                unblock.join();
            }).build();
            pool.release(pool.acquire());
            Thread closer = mode.thread("closer", pool::close);
            closer.start();
            try {
                inHook.get(20, TimeUnit.SECONDS);
                PoolStats s = CompletableFuture.supplyAsync(pool::stats, mode::start)
                        .get(5, TimeUnit.SECONDS);
                assertNotNull(s);
            } finally {
                unblock.complete(null);
                closer.join();
            }
        });
    }

    /** Hooks may use the pool they belong to: stats from any hook, acquire and release from reset. */
    @EveryMode
    void hooks_mayCallBackIntoTheirPool(PoolMode mode) throws Exception {
        mode.run(() -> {
            Pool<?>[] self = new Pool<?>[1];
            Pool<Item> other = mode.builder().build();
            Pool<Item> pool = mode.builder()
                    .reset(x -> {
                        self[0].stats();
                        other.release(other.acquire());
                    })
                    .destroy(x -> self[0].stats())
                    .build();
            self[0] = pool;
            CompletableFuture<Void> done = CompletableFuture.runAsync(() -> {
                for (int i = 0; i < 100; i++) {
                    pool.release(pool.acquire());
                }
                pool.close();
            }, mode::start);
            done.get(20, TimeUnit.SECONDS);
            other.close();
            assertBalanced(pool.stats());
        });
    }

    static void assertBalanced(PoolStats s) {
        assertEquals(s.created() - s.dropped(), s.idle() + s.inUse(),
                "created - dropped must equal idle + in use when the pool is quiet: " + s);
        assertEquals(s.acquired() - s.released(), s.inUse(), "acquired - released vs in use: " + s);
        assertFalse(s.idle() < 0 || s.inUse() < 0, s.toString());
    }

    static <T> Set<T> identitySet() {
        return Collections.newSetFromMap(new IdentityHashMap<>());
    }
}
