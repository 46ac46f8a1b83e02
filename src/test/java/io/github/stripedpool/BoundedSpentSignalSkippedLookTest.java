package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A waiter that spends the signal ({@link BoundedWaitQueue#spendSignal}) owes one more look at
 * the idle stacks, and must make it whether or not it is served first. W, the front (virtual),
 * holds the mark; a release of y in normal mode reads the mark and wakes nobody; S, behind W,
 * switches the queue to starving; C, parked meanwhile while the queue starved, has no alarm. W
 * then spends the mark, and S has starved: each owes one more look. If W did not look, nobody
 * would pass a wake-up on, and C would sleep next to the idle y for its whole timeout (a waiter
 * that keeps the mark passes it on when served instead, and the wake-up reaches C that way).
 * Two endings: W and S are served by hand-offs before they look (the loop checks its outcome
 * first), and W must look all the same, giving y on to C; or nobody is served, and W's look
 * finds y.
 *
 * <p>Determinism: W, S and C are stalled at chosen points of their wait loop through
 * {@link WaitHooks} (a retransformation of {@code BoundedWaiting}); no sleeps, a deadline on
 * every wait.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class BoundedSpentSignalSkippedLookTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final long THRESHOLD = TimeUnit.SECONDS.toNanos(2);

    private static void await(BooleanSupplier condition, Supplier<String> what) {
        Spin.until(condition, LIMIT, what);
    }

    private static void arrived(WaitHooks.Gate g, String what) throws InterruptedException {
        assertTrue(g.arrived.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS), what);
    }

    /** A virtual acquirer; {@code gate} (may be null) is armed on it before it acquires. */
    private static Thread acquiring(Pool<Object> pool, CompletableFuture<Object> got, String gate,
            CompletableFuture<WaitHooks.Gate> armed) {
        return TestSupport.startVirtual(() -> {
            if (gate != null) {
                armed.complete(WaitHooks.arm(Thread.currentThread(), gate));
            }
            try {
                got.complete(pool.acquire());
            } catch (Throwable t) {
                got.completeExceptionally(t);
            }
        });
    }

    /** W, S and C after step 7 of the scenario (class comment): W has spent the mark, S has starved. */
    private static final class Stalled {
        final BoundedPool<Object> pool;
        final Object x;
        final Object y;
        final Object z;
        final Thread c;
        final Thread w;
        final CompletableFuture<Object> gotW = new CompletableFuture<>();
        final CompletableFuture<Object> gotS = new CompletableFuture<>();
        final CompletableFuture<Object> gotC = new CompletableFuture<>();
        WaitHooks.Gate wSpent;
        WaitHooks.Gate sStarved;

        Stalled(BoundedPool<Object> pool) throws Exception {
            this.pool = pool;
            Object held = pool.acquire();
            y = pool.acquire();
            z = pool.acquire();

            // 1. W, S and C queue in that order; W and S park (alarm at their threshold), C
            //    looks and stops before it reads the mode.
            w = acquiring(pool, gotW, null, null);
            await(() -> pool.waiting() == 1 && pool.parks() == 1 && Spin.parked(w), () -> "W never parked");
            Thread s = acquiring(pool, gotS, null, null);
            await(() -> pool.waiting() == 2 && pool.parks() == 2 && Spin.parked(s), () -> "S never parked");
            CompletableFuture<WaitHooks.Gate> cArmed = new CompletableFuture<>();
            c = acquiring(pool, gotC, "mode", cArmed);
            WaitHooks.Gate cMode = cArmed.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS);
            arrived(cMode, "C never reached its read of the mode");

            // 2. A release in normal mode wakes W (the mark); the releaser takes its object
            //    back before W looks. W finds nothing and parks until its threshold.
            WaitHooks.Gate wLook = WaitHooks.arm(w, "look");
            pool.release(held);
            arrived(wLook, "W was not woken");
            x = pool.acquire(Duration.ZERO);
            assertSame(held, x);
            wLook.open();
            await(() -> pool.parks() == 3 && Spin.parked(w), () -> "W never parked again");
            assertTrue(pool.frontSignalled(), "W should hold the mark");
            assertFalse(pool.starving());

            // 3. W and S wake at their thresholds, look (nothing), and stop before the mode.
            WaitHooks.Gate wMode = WaitHooks.arm(w, "mode");
            WaitHooks.Gate sMode = WaitHooks.arm(s, "mode");
            arrived(wMode, "W never woke at its threshold");
            arrived(sMode, "S never woke at its threshold");
            assertFalse(pool.starving());

            // 4. y is released in normal mode: it reads the mark and wakes nobody.
            pool.release(y);
            assertTrue(pool.frontSignalled());

            // 5. S reads "not starving", switches the mode, and stops before its look.
            sStarved = WaitHooks.arm(s, "starved");
            sMode.open();
            arrived(sStarved, "S never starved the queue");
            assertTrue(pool.starving());

            // 6. C reads "starving" and parks without an alarm.
            long p = pool.parks();
            cMode.open();
            await(() -> pool.parks() == p + 1 && Spin.parked(c), () -> "C never parked");

            // 7. W reads "starving" and spends the mark (a platform thread would park holding it).
            wSpent = WaitHooks.arm(w, "spent");
            wMode.open();
            arrived(wSpent, "W never spent the mark");
            assertFalse(pool.frontSignalled());
        }

        /** y is idle and C waits: C must get it, within its threshold at most. */
        void cGetsTheIdleObject() throws Exception {
            long bound = THRESHOLD + TimeUnit.SECONDS.toNanos(3);
            try {
                assertSame(y, gotC.get(bound, TimeUnit.NANOSECONDS));
            } catch (TimeoutException stillAsleep) {
                fail("C slept " + TimeUnit.NANOSECONDS.toMillis(bound) + " ms next to an idle object: "
                        + "state " + c.getState() + ", starving " + pool.starving() + ", mark "
                        + pool.frontSignalled() + ", " + pool.stats());
            } catch (ExecutionException failed) {
                fail("C failed while an object was idle", failed.getCause());
            }
        }
    }

    private static BoundedPool<Object> pool() throws Exception {
        assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        WaitHooks.install();
        return BoundedPool.start(Pool.builder(Object::new).maxTotal(3).acquireTimeout(LIMIT)
                .settings("skipped-look"), THRESHOLD);
    }

    private static void end(BoundedPool<Object> pool) throws Exception {
        WaitHooks.clear();
        if (pool != null) {
            pool.close();
        }
        WaitHooks.uninstall();
    }

    @Test
    void aWaiterServedBeforeTheLookItOwesLooksAllTheSame() throws Exception {
        BoundedPool<Object> pool = null;
        try {
            pool = pool();
            Stalled st = new Stalled(pool);
            // 8. W is handed z, S a unit of capacity (x destroyed), before either looks again.
            BoundedPool<Object> p = pool;
            pool.release(st.z);
            await(() -> p.waiting() == 2, () -> "z was not handed to W");
            pool.invalidate(st.x);
            await(() -> p.waiting() == 1, () -> "the unit was not handed to S");
            st.wSpent.open();
            st.sStarved.open();
            assertSame(st.z, st.gotW.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            assertNotNull(st.gotS.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            st.cGetsTheIdleObject();
        } finally {
            end(pool);
        }
    }

    @Test
    void aWaiterThatSpentTheSignalLooksOnceMoreBeforeItParks() throws Exception {
        BoundedPool<Object> pool = null;
        try {
            pool = pool();
            Stalled st = new Stalled(pool);
            // 8. Nobody is served: W, then S, go on. W's look after the spend finds y.
            st.wSpent.open();
            try {
                assertSame(st.y, st.gotW.get(THRESHOLD + TimeUnit.SECONDS.toNanos(3), TimeUnit.NANOSECONDS));
            } catch (TimeoutException asleep) {
                fail("W spent the mark and parked without looking: y stays idle, C sleeps next to it; "
                        + pool.stats());
            }
            st.sStarved.open();
            BoundedPool<Object> p = pool;
            await(() -> p.waiting() == 2, () -> "S and C should still wait");
            pool.release(st.z); // to S, the front
            assertSame(st.z, st.gotS.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            pool.release(st.x); // to C
            assertSame(st.x, st.gotC.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
        } finally {
            end(pool);
        }
    }

    @Test
    void aSecondReleaseOfTheObjectTheOwedLookHoldsIsRefused() throws Exception {
        BoundedPool<Object> pool = null;
        try {
            pool = pool();
            Stalled st = new Stalled(pool);
            // 8. z is handed to W; W's owed look takes y and stops there.
            BoundedPool<Object> p = pool;
            WaitHooks.Gate wOwed = WaitHooks.arm(st.w, "owed");
            pool.release(st.z);
            await(() -> p.waiting() == 2, () -> "z was not handed to W");
            st.wSpent.open();
            assertTrue(wOwed.arrived.await(LIMIT.toMillis(), TimeUnit.MILLISECONDS), "W's owed look found nothing");
            long released = pool.stats().released();

            // 9. y was released once and acquired by nobody since: a second release must fail,
            //    the pool unchanged, as for any idle object (Pool's Javadoc).
            try {
                pool.release(st.y);
                fail("a second release of y was accepted while W's owed look held it: y would go out "
                        + "twice; " + pool.stats());
            } catch (IllegalStateException expected) {
                assertEquals(released, pool.stats().released(), "the refused release was counted");
            }
            wOwed.open();
            st.sStarved.open();
            assertSame(st.z, st.gotW.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            assertSame(st.y, st.gotS.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS), "W's look gives y to S");
            pool.release(st.x); // to C
            assertSame(st.x, st.gotC.get(LIMIT.toMillis(), TimeUnit.MILLISECONDS));
            pool.release(st.y);
            pool.release(st.x);
            pool.release(st.z);
            PoolAssertions.assertBalanced(pool);
        } finally {
            end(pool);
        }
    }
}
