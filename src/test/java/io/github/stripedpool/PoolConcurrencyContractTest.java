package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolMode.EveryMode;
import io.github.stripedpool.PoolMode.Item;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Timeout;

/**
 * Exclusivity and accounting under load, on every kind of pool: more threads than stripes, each
 * holding one to four objects at a time, plus a stream of short-lived threads. No object is ever
 * held by two threads at once, no object is used after it was destroyed, every object whose
 * reset ran was reset before reuse, and the counters balance at the end. In the virtual-thread
 * modes every one of these threads is a virtual one.
 */
@Timeout(120)
class PoolConcurrencyContractTest {
    private static final int LONG_LIVED = 6;
    private static final int CYCLES = 20_000;
    private static final int SHORT_LIVED = 200;

    @EveryMode
    void objectsAreNeverSharedAndTheCountersBalance(PoolMode mode) throws Exception {
        mode.run(Duration.ofSeconds(110), () -> {
            Map<Item, Thread> holders = Collections.synchronizedMap(new IdentityHashMap<>());
            AtomicLong violations = new AtomicLong();
            List<String> firstViolations = Collections.synchronizedList(new ArrayList<>());
            AtomicInteger cycles = new AtomicInteger();
            try (Pool<Item> pool = mode.builder().build()) {
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < LONG_LIVED; t++) {
                    int held = 1 + t % 4;
                    threads.add(mode.thread("long-lived-" + t, () -> {
                        for (int i = 0; i < CYCLES; i++) {
                            cycle(pool, held, holders, violations, firstViolations, mode);
                            cycles.incrementAndGet();
                        }
                    }));
                }
                Thread spawner = mode.thread("spawner", () -> {
                    for (int i = 0; i < SHORT_LIVED; i++) {
                        Thread s = mode.thread("short-lived-" + i,
                                () -> cycle(pool, 2, holders, violations, firstViolations, mode));
                        s.start();
                        try {
                            s.join();
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                            return;
                        }
                    }
                });
                threads.add(spawner);
                threads.forEach(Thread::start);
                for (Thread t : threads) {
                    t.join();
                }
                assertEquals(0, violations.get(), "violations, the first ones: " + firstViolations);
                PoolStats s = pool.stats();
                PoolContractTest.assertBalanced(s);
                long expected = (long) CYCLES * (1 + 2 + 3 + 4 + 1 + 2) + SHORT_LIVED * 2L;
                assertEquals(expected, s.acquired(), s.toString());
                if (mode.destroy) {
                    assertEquals(s.dropped(), mode.destroys.get(), "destroy calls vs dropped count: " + s);
                }
                if (mode.reset) {
                    assertEquals(s.released(), mode.resets.get(), "reset calls vs releases: " + s);
                }
                assertTrue(s.created() <= s.acquired());
            }
        });
    }

    private static void cycle(Pool<Item> pool, int k, Map<Item, Thread> holders, AtomicLong violations,
            List<String> firstViolations, PoolMode mode) {
        Item[] got = new Item[k];
        Thread me = Thread.currentThread();
        if (VirtualThreads.isVirtual(me) != mode.virtual) {
            violate(violations, firstViolations, me + " is not of the mode's kind of thread");
        }
        for (int j = 0; j < k; j++) {
            Item x = pool.acquire();
            got[j] = x;
            Thread other = holders.putIfAbsent(x, me);
            if (other != null) {
                violate(violations, firstViolations, x + " handed to " + me.getName() + " while "
                        + other.getName() + " held it");
            }
            if (x.destroyed) {
                violate(violations, firstViolations, x + " handed out after it was destroyed");
            }
            if (mode.reset && x.data != 0) {
                violate(violations, firstViolations, x + " handed out without its reset");
            }
            x.data = System.identityHashCode(me) | 1; // any non-zero mark: the reset must clear it
        }
        if (mode.virtual) {
            // A virtual thread that blocks while it holds objects (in I/O, say) leaves its carrier
            // to others and may come back on another one; without a yield these threads, which
            // never block, would run one after another on the carriers and never interleave.
            Thread.yield();
        }
        for (int j = k - 1; j >= 0; j--) {
            holders.remove(got[j], me);
            pool.release(got[j]);
        }
    }

    private static void violate(AtomicLong violations, List<String> first, String what) {
        if (violations.incrementAndGet() <= 5) {
            first.add(what);
        }
    }
}
