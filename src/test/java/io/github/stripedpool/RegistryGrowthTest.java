package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.util.Collection;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Pools that become garbage without close() (a StripedRecyclerPool of a JsonFactory or
 * ObjectMapper made per use, or read back from serialisation, which Jackson never closes) are
 * forgotten by every registry of the library: the aging clock's at the next collection, and the
 * Flight Recorder registry, which every build() feeds and which forgot them only in another
 * pool's close() or while a recording ran: it grew by one entry per pool ever built.
 */
@Timeout(120)
class RegistryGrowthTest {
    private static final int POOLS = 20_000;

    @Test
    void poolsDroppedWithoutCloseAreForgottenByEveryRegistry() throws Exception {
        Collection<?> aging = registry(AgingClock.class, "POOLS");
        Collection<?> flightRecorder = registry(FlightRecorderEvents.class, "POOLS");
        int before = flightRecorder.size();
        int agingBefore = aging.size(); // other tests' pools of this JVM may still be registered
        for (int i = 0; i < POOLS; i++) {
            Pool<Object> p = Pool.builder(Object::new).name("dropped-" + i).build();
            p.release(p.acquire());
            // dropped without close()
        }
        // Each is forgotten at a collection the aging clock sees (the clock forgets its own
        // registrations, then the Flight Recorder registry's): polled, with a deadline.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (aging.size() - agingBefore >= POOLS / 100 || flightRecorder.size() - before >= POOLS / 100) {
            assertTrue(System.nanoTime() < deadline, "FlightRecorderEvents.POOLS still holds "
                    + (flightRecorder.size() - before) + " registrations of the " + POOLS + " pools "
                    + "dropped without close() and collected (the aging clock's registry holds "
                    + (aging.size() - agingBefore) + " more than before)");
            System.gc();
            Thread.sleep(10); // a poll interval bounded by the deadline
        }
    }

    private static Collection<?> registry(Class<?> c, String field) throws Exception {
        Field f = c.getDeclaredField(field);
        f.setAccessible(true);
        return (Collection<?>) f.get(null);
    }
}
