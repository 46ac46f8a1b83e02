package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static io.github.stripedpool.PoolAssertions.releaseCatching;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * An object given back and dropped before {@code close()}, then given back again after it, on
 * the same thread: a second give-back, refused, its destroy hook not run again. The record lived
 * in the thread's slot, which close's sweep cleared, and the closed pool's own record started
 * empty, so the pair was not seen and the object was destroyed twice. An aging cycle between the
 * two give-backs cleared the record too.
 */
class DropRecordAcrossCloseTest {

    @Test
    void invalidateThenCloseThenReleaseAgain_destroyedTwice() {
        AtomicInteger destroyed = new AtomicInteger();
        Pool<Object> pool = Pool.builder(Object::new).destroy(x -> destroyed.incrementAndGet())
                .name("invalidate-close-release").build();
        Object x = pool.acquire();
        pool.invalidate(x); // destroyed once; recorded as this thread's last give-back
        pool.close();
        assertThrows(IllegalStateException.class, () -> pool.release(x),
                "the same object given back twice in a row on one thread, across close(): destroys="
                        + destroyed.get() + ", " + pool.stats());
        assertEquals(1, destroyed.get());
    }

    @Test
    void refusedByRetainIfThenCloseThenReleaseAgain_destroyedTwice() {
        AtomicInteger destroyed = new AtomicInteger();
        Pool<Object> pool = Pool.builder(Object::new).retainIf(o -> false)
                .destroy(x -> destroyed.incrementAndGet()).name("refused-close-release").build();
        Object x = pool.acquire();
        pool.release(x); // refused: destroyed
        pool.close();
        Throwable t = releaseCatching(pool, x);
        assertEquals(1, destroyed.get(), "destroy hook count; second release threw " + t + "; " + pool.stats());
    }

    /**
     * An aging cycle between the two releases (the collector runs one every second under load)
     * forgets the record at once: the second release in a row destroys it again.
     */
    @Test
    void droppedThenAgingCycleThenReleaseAgain_destroyedTwice() {
        AtomicInteger destroyed = new AtomicInteger();
        UnboundedPool<Object> pool = engine(Pool.builder(Object::new).retainIf(o -> false)
                .agingInterval(MANUAL_AGING).destroy(x -> destroyed.incrementAndGet()), "drop-age-release");
        Object x = pool.acquire();
        pool.release(x); // refused: destroyed
        forceAgingCycle(pool);
        Throwable t = releaseCatching(pool, x);
        assertEquals(1, destroyed.get(), "destroy hook count; second release threw " + t + "; " + pool.stats());
    }
}
