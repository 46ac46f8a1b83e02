package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Counters never go backwards while aging reaps a dead thread's private slot: the slot's counts
 * move into the pool's at the instant the slot stops being counted, before any hook runs. A
 * metrics poll during a slow destroy hook of the reap used to read acquired, released, created
 * and the private hits lower than the poll before (PoolMetrics publishes them as counters, which
 * a monitoring system then reads as a reset).
 */
@Timeout(60)
class ReapCountsTest {

    @Test
    void countersNeverGoBackwardsWhileADeadThreadsSlotIsReaped() throws Exception {
        CountDownLatch inHook = new CountDownLatch(1);
        CountDownLatch letHookGo = new CountDownLatch(1);
        AtomicBoolean armed = new AtomicBoolean();
        PoolBuilder<StringBuilder> builder = Pool.builder(StringBuilder::new)
                .destroy(sb -> {
                    if (armed.compareAndSet(true, false)) { // a slow destroy hook: closes a socket, say
                        inHook.countDown();
                        try {
                            letHookGo.await();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                })
                .agingInterval(PoolAssertions.MANUAL_AGING);
        try (UnboundedPool<StringBuilder> pool = PoolAssertions.engine(builder, "reap-counts")) {
            CountDownLatch parked = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            Thread owner = new Thread(() -> {
                StringBuilder x = pool.acquire();
                pool.release(x);                 // into this thread's private slot
                pool.release(pool.acquire());    // a private hit, counted in the slot
                parked.countDown();
                try {
                    finish.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "short-lived-owner");
            owner.start();
            parked.await();
            PoolAssertions.forceAgingCycle(pool); // sees the slot's object: next cycle it has been idle a whole cycle
            finish.countDown();
            owner.join();                         // owner dead: the next cycle reaps its slot and drops the object

            PoolStats before = pool.stats();
            assertEquals(2, before.acquired(), before::toString);

            armed.set(true);
            long cycles = before.agingCycles();
            Thread reaper = new Thread(() -> pool.onGarbageCollection(
                    System.nanoTime() + (cycles + 1) * PoolAssertions.MANUAL_AGING.toNanos()), "reaper");
            reaper.start();
            assertTrue(inHook.await(10, TimeUnit.SECONDS),
                    "the second cycle did not drop the dead thread's object: " + pool.describeAging());
            PoolStats during;
            try {
                during = pool.stats(); // what a metrics thread polling now reads
            } finally {
                letHookGo.countDown();
                reaper.join();
            }
            PoolStats after = pool.stats();
            String trail = "\n before: " + before + "\n during: " + during + "\n after:  " + after;
            assertAll(
                    () -> assertTrue(during.acquired() >= before.acquired(), "acquired went backwards" + trail),
                    () -> assertTrue(during.released() >= before.released(), "released went backwards" + trail),
                    () -> assertTrue(during.privateHits() >= before.privateHits(), "privateHits went backwards" + trail),
                    () -> assertTrue(during.created() >= before.created(), "created went backwards" + trail));
        }
    }
}
