package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.assertBalanced;
import static io.github.stripedpool.PoolAssertions.engine;
import static io.github.stripedpool.PoolAssertions.forceAgingCycle;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/**
 * The spare entry behind a plain private slot (no destroy hook): a thread that holds two
 * objects at once keeps both in its slot. Each test attacks one of its promises: a second
 * release of the spare's object is refused on every path, the spare is counted idle, ages out
 * like the slot's object, is forgotten at close and goes back to the stripes when its thread dies.
 */
class SpareEntryTest {
    private final Tracked.Factory objects = new Tracked.Factory();

    private UnboundedPool<Tracked> pool(String name) {
        return engine(Pool.builder(objects::create).agingInterval(MANUAL_AGING), name);
    }

    /** Holds two objects, releases them in reverse: b to the slot, a to the spare. */
    private static Tracked[] fillSlotAndSpare(Pool<Tracked> pool) {
        Tracked a = pool.acquire();
        Tracked b = pool.acquire();
        pool.release(b);
        pool.release(a);
        return new Tracked[] {a, b};
    }

    @Test
    void twoHeldObjectsCycleThroughTheSlotAndItsSpareWithoutTheStripes() {
        try (UnboundedPool<Tracked> pool = pool("spare-cycle")) {
            for (int i = 0; i < 1_000; i++) {
                fillSlotAndSpare(pool);
            }
            PoolStats s = pool.stats();
            assertEquals(2, s.created(), s::toString);
            assertEquals(2, s.idle(), s::toString);
            assertEquals(0, s.homeHits() + s.stolenHits() + s.victimHits(), s::toString);
            int inStripes = 0;
            for (Stripe st : pool.stripes()) {
                inStripes += st.countIdle();
            }
            assertEquals(0, inStripes);
            assertBalanced(pool);
        }
    }

    @Test
    void aSecondReleaseOfTheSparesObjectIsRefusedWhetherTheSlotIsFullOrEmpty() {
        try (UnboundedPool<Tracked> pool = pool("spare-twice")) {
            Tracked[] ab = fillSlotAndSpare(pool);
            Tracked a = ab[0];
            assertThrows(IllegalStateException.class, () -> pool.release(a), "the slot is full");
            Tracked b = pool.acquire(); // empties the slot: a release of a could now take its fast path
            assertSame(ab[1], b);
            assertThrows(IllegalStateException.class, () -> pool.release(a), "the slot is empty");
            pool.release(b);
            Tracked x = pool.acquire();
            Tracked y = pool.acquire();
            assertNotSame(x, y, "a was pooled once only");
            pool.release(y);
            pool.release(x);
            assertEquals(2, pool.stats().created());
            assertBalanced(pool);
        }
    }

    @Test
    void anIdleSpareAgesOutWhileTheSlotKeepsCycling() {
        try (UnboundedPool<Tracked> pool = pool("spare-aging")) {
            fillSlotAndSpare(pool);
            for (int cycle = 0; cycle < 3; cycle++) {
                pool.release(pool.acquire()); // the slot's object only: the spare sits idle
                forceAgingCycle(pool);
            }
            PoolStats s = pool.stats();
            assertEquals(1, s.idle(), s::toString);
            assertEquals(1, s.dropped(), s::toString);
            assertBalanced(pool);
        }
    }

    @Test
    void closeForgetsTheSparesObject() {
        UnboundedPool<Tracked> pool = pool("spare-close");
        fillSlotAndSpare(pool);
        pool.close();
        PoolStats s = pool.stats();
        assertEquals(0, s.idle(), s::toString);
        assertEquals(2, s.dropped(), s::toString);
        assertThrows(PoolClosedException.class, pool::acquire);
    }

    @Test
    void aDeadThreadsSpareGoesBackToTheStripes() throws Exception {
        try (UnboundedPool<Tracked> pool = pool("spare-reap")) {
            Thread t = new Thread(() -> fillSlotAndSpare(pool));
            t.start();
            t.join();
            Tracked a = pool.acquire(); // this thread's first slot reaps the dead one
            Tracked b = pool.acquire();
            assertNotSame(a, b);
            assertEquals(2, pool.stats().created(), () -> pool.stats().toString());
            pool.release(b);
            pool.release(a);
            assertBalanced(pool);
        }
    }
}
