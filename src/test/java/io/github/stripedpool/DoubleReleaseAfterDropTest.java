package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.ref.WeakReference;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link Pool}'s promise for every pool: "the same object released twice in a row on one thread"
 * throws {@link IllegalStateException} and changes nothing. An unbounded pool used to keep a
 * record of the object only when it pooled it (in the thread's slot, or pushed to a stripe), so a
 * second release of an object its first release had dropped went through: it was dropped again,
 * its destroy hook ran twice (a native handle freed twice), and the counters counted both. Each
 * way a release drops an object is checked here, with and without a destroy hook.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DoubleReleaseAfterDropTest {

    /** A pool, its objects' destroy count, and the object given back first. */
    private static final class Case {
        final AtomicInteger destroyed = new AtomicInteger();
        Pool<Object> pool;
    }

    private static Case build(boolean destroyHook, Consumer<PoolBuilder<Object>> settings) {
        Case c = new Case();
        PoolBuilder<Object> b = Pool.builder(Object::new).name("drop-then-again");
        if (destroyHook) {
            b.destroy(x -> c.destroyed.incrementAndGet());
        }
        settings.accept(b);
        c.pool = b.build();
        return c;
    }

    /** Releases {@code x} again, expects the double release, and that nothing changed. */
    private static void secondReleaseThrows(Case c, Object x, String call) {
        PoolStats before = c.pool.stats();
        int destroys = c.destroyed.get();
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> {
                    if (call.equals("release")) {
                        c.pool.release(x);
                    } else {
                        c.pool.invalidate(x);
                    }
                },
                "a second " + call + " in a row of an object the pool dropped: " + c.pool.stats());
        assertEquals(true, e.getMessage().contains("this second " + call + "() was ignored"), e.getMessage());
        PoolStats after = c.pool.stats();
        assertEquals(destroys, c.destroyed.get(), "destroyed again");
        assertEquals(before.released(), after.released(), "the second release was counted");
        assertEquals(before.dropped(), after.dropped(), "the object was counted as dropped twice");
    }

    @Test
    void anObjectDroppedBecauseTheIdleObjectsAreAtMaxIdle() {
        for (boolean hook : new boolean[] {false, true}) {
            Case c = build(hook, b -> b.maxIdle(1).stripes(1));
            Object a = c.pool.acquire();
            Object x = c.pool.acquire();
            c.pool.release(a); // kept: the one idle object
            c.pool.release(x); // no room: dropped
            assertEquals(1, c.pool.stats().dropped(), "precondition: x was dropped");
            secondReleaseThrows(c, x, "release");
            secondReleaseThrows(c, x, "invalidate");
            c.pool.close();
        }
    }

    @Test
    void anObjectThatRetainIfRefused() {
        for (boolean hook : new boolean[] {false, true}) {
            Case c = build(hook, b -> b.retainIf(o -> false));
            Object x = c.pool.acquire();
            c.pool.release(x);
            secondReleaseThrows(c, x, "release");
            c.pool.close();
        }
    }

    @Test
    void anObjectWhoseResetFailed() {
        for (boolean hook : new boolean[] {false, true}) {
            AtomicInteger resets = new AtomicInteger();
            Case c = build(hook, b -> b.reset(o -> {
                resets.incrementAndGet();
                throw new IllegalStateException("reset failed on purpose");
            }));
            Object x = c.pool.acquire();
            c.pool.release(x); // the fast path's reset: fails, x is destroyed
            secondReleaseThrows(c, x, "release");
            assertEquals(1, resets.get(), "the reset ran on the second release");
            // and on the checked path: the slot full, so the next release goes through it
            Object y = c.pool.acquire();
            Object z = c.pool.acquire();
            c.pool.release(y);
            c.pool.release(z);
            secondReleaseThrows(c, z, "release");
            c.pool.close();
        }
    }

    @Test
    void anObjectInvalidated() {
        for (boolean hook : new boolean[] {false, true}) {
            Case c = build(hook, b -> { });
            Object x = c.pool.acquire();
            c.pool.invalidate(x);
            secondReleaseThrows(c, x, "release");
            secondReleaseThrows(c, x, "invalidate");
            c.pool.close();
        }
    }

    @Test
    void anObjectReleasedAfterCloseIsDestroyedOnce() {
        Case c = build(true, b -> { });
        Object x = c.pool.acquire();
        Object held = c.pool.acquire();
        c.pool.release(held); // the thread's slot: this thread takes its fast paths
        c.pool.close();
        c.pool.release(x); // destroyed: the pool is closed
        assertEquals(2, c.destroyed.get(), "close() destroyed the idle one, the release the other");
        secondReleaseThrows(c, x, "release");
    }

    @Test
    void anObjectTheFactoryMakesAgainIsNoDoubleRelease() {
        // A factory that hands out what the destroy hook gave it (a cache in front of an
        // expensive resource): a dropped object comes back as a new one, and its release is its
        // first since.
        ArrayDeque<Object> cache = new ArrayDeque<>();
        Pool<Object> pool = Pool.builder(() -> cache.isEmpty() ? new Object() : cache.pop())
                .destroy(cache::push).retainIf(o -> false).name("factory-reuses").build();
        Object x = pool.acquire();
        pool.release(x); // refused, destroyed: back in the cache
        Object again = pool.acquire();
        assertSame(x, again, "precondition: the factory made x again");
        pool.release(again); // its first release since it was made again
        assertEquals(2, pool.stats().released());
        pool.close();
    }

    @Test
    void theRecordOfADroppedObjectDoesNotKeepItReachable() throws Exception {
        UnboundedPool<Object> pool = (UnboundedPool<Object>) Pool.builder(Object::new)
                .retainIf(o -> false).name("drop-record-pins").build();
        Object x = pool.acquire();
        WeakReference<Object> ref = new WeakReference<>(x);
        pool.release(x);
        x = null;
        // One aging cycle forgets the record: the time passed is far in the future, so the
        // collector's own clock never starts one meanwhile.
        pool.onGarbageCollection(System.nanoTime() + TimeUnit.DAYS.toNanos(2));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertNull(ref.get(), "the dropped object is still reachable after an aging cycle");
        pool.close();
    }
}
