package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.TestSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The recyclers of a burst are given back to the collector once the burst is over. */
@Timeout(60)
class JacksonAgingTest {
    private static final int BURST = 24;

    @Test
    void theRecyclersOfABurstAreDroppedByAgingOnceNobodyUsesThem() throws Exception {
        StripedRecyclerPool pool = StripedRecyclerPool.newPool(
                b -> b.name("json-burst").agingInterval(Duration.ZERO));
        try {
            JsonFactory factory = JsonFactory.builder().recyclerPool(pool).build();
            byte[] json = "[1,2,3]".getBytes(StandardCharsets.UTF_8);
            CyclicBarrier allOpen = new CyclicBarrier(BURST);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < BURST; i++) {
                Thread t = new Thread(() -> {
                    try (JsonParser p = factory.createParser(json)) {
                        assertEquals(JsonToken.START_ARRAY, p.nextToken());
                        allOpen.await(20, TimeUnit.SECONDS); // every thread holds a recycler now
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "burst-" + i);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a burst thread failed", failure.get());
            }
            PoolStats after = pool.stats();
            assertEquals(BURST, after.created(), after.toString());
            assertEquals(BURST, pool.pooledCount(), "the burst's recyclers are idle: " + after);
            long cycles = after.agingCycles();
            // dropped() only grows; idle() alone may read low for a moment while aging moves a
            // dead thread's recycler to the stripes (stats() reads racily, exact at rest)
            TestSupport.gcUntil("the idle recyclers of the burst dropped by aging: " + pool.stats(),
                    () -> pool.stats().dropped() == BURST && pool.pooledCount() == 0);
            PoolStats aged = pool.stats();
            // By the second cycle after their release; the burst's threads have died, and the
            // recyclers of a dead thread's slot may already be victims before the first cycle.
            assertTrue(aged.agingCycles() > cycles, "dropped without an aging cycle: " + aged);
            assertEquals(BURST, aged.dropped(), aged.toString());
            // and the pool still serves: a new parse creates one recycler
            try (JsonParser p = factory.createParser(json)) {
                assertEquals(JsonToken.START_ARRAY, p.nextToken());
            }
            assertEquals(1, pool.pooledCount());
        } finally {
            pool.pool().close();
        }
    }
}
