package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Overflows at every depth of the stack inside a PARANOID pool's tracking: once the pool is
 * closed and its objects collected, its table of trackers must be empty, and its size agree.
 * An edit of the table clears and counts out the tracker it replaces while it walks the chain,
 * before the map installs the new chain; an overflow in between left a cleared tracker linked
 * and counted for good (a closed pool that never reads empty keeps the leak thread), or, after
 * the map's change, a new tracker uncounted (false leak reports later).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class LeakTableStackLimitTest {
    private static QuietPoolLog quietLog;

    @BeforeAll
    static void quiet() {
        quietLog = new QuietPoolLog(); // objects lost in an overflow are reported as leaks: expected
    }

    @AfterAll
    static void loud() {
        quietLog.close();
    }

    /** One walk on its own thread; the walk (whose array keeps released objects) dies with it. */
    private static long walkOnce(Pool<Tracked> pool) throws InterruptedException {
        StackWalk deep = new StackWalk(pool);
        Thread t = new Thread(null, () -> deep.down(0), "deep", 256 * 1024);
        t.start();
        t.join(60_000);
        assertFalse(t.isAlive(), "a walk stuck in the pool");
        assertEquals(0, deep.holding, "releases left undone");
        return deep.overflows;
    }

    @Test
    void noTrackerOutlivesItsObjectAfterOverflowsInsideTracking() throws Exception {
        Tracked.Factory objects = new Tracked.Factory();
        Pool<Tracked> pool = Pool.builder(objects::create).maxIdle(2)
                .leakDetection(LeakDetection.PARANOID).name("deep-table").build();
        LeakDetectingPool<Tracked> detector = (LeakDetectingPool<Tracked>) pool;
        long overflows = 0;
        for (int round = 0; round < ROUNDS; round++) { // interpreted, then compiled: other frame sizes
            overflows += walkOnce(pool);
        }
        assertTrue(overflows > 0, "the stack never overflowed");
        pool.close(); // every idle object is dropped
        objects.made.clear(); // and the factory's list forgotten: each tracker's object becomes garbage
        LeakTesting.gcUntil("every tracker of the closed pool is reaped (linked now: "
                + detector.table().linked(false) + ", size " + detector.tracked() + ")",
                () -> detector.table().linked(false) == 0);
        assertEquals(0, detector.tracked(), "the table's size agrees with its chains");
    }

    private static final int ROUNDS = Integer.getInteger("stripedpool.stackRounds", 40);
}
