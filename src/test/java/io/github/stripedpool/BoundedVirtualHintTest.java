package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Virtual threads' hint slots in a bounded pool (see {@link BoundedThreads}): a virtual thread
 * tries the entry its slot names before the idle stacks; the slot is a hint, never a claim, so
 * virtual threads that share a slot never hold one object together, and an entry taken through
 * a slot while it still sits in an idle stack is neither lost from view nor handed out twice.
 * The tests that run virtual threads need JDK 21+ and are skipped with a message on JDK 17.
 */
@Timeout(120)
class BoundedVirtualHintTest {

    @Test
    void aVirtualThreadTakesTheEntryOfItsHintSlotBeforeTheIdleStacks() throws Exception {
        assumeTrue(VirtualThreads.AVAILABLE, VirtualThreads.NEED_JDK_21);
        @SuppressWarnings("unchecked")
        BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new)
                .maxTotal(4).stripes(1).name("hint").build();
        try {
            Object[] got = new Object[3];
            VirtualThreads.runOnOne("hint", Duration.ofSeconds(30), () -> {
                Object a = pool.acquire();
                Object b = pool.acquire(); // made last: the slot names b's entry
                pool.release(b);
                pool.release(a); // pushed last: a is on top of the one idle stack
                assertSame(b, pool.acquire(), "the slot's entry comes first; the stack's top is a");
                // b's entry is still in the stack (a hint take leaves it there) and a is on top.
                Object next = pool.acquire();
                assertSame(a, next, "then the stack's top");
                // The slot names a's entry now, borrowed: the stack is popped, b's entry
                // dropped as stale (borrowed), and a third object made.
                Object c = pool.acquire();
                assertNotSame(a, c);
                assertNotSame(b, c);
                got[0] = a;
                got[1] = b;
                got[2] = c;
                pool.release(b); // b's flag was cleared by the stale pop: pushed again
                pool.release(a);
                pool.release(c);
            });
            PoolStats s = pool.stats();
            assertEquals(3, s.created(), s.toString());
            assertEquals(3, s.idle(), s.toString());
            // Each of the three is findable exactly once, from a thread with no hint of its own.
            Set<Object> again = new HashSet<>();
            List<Object> held = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                Object x = pool.acquire(Duration.ZERO);
                held.add(x);
                again.add(x);
            }
            assertEquals(Set.of(got[0], got[1], got[2]), again, "an idle object lost from view or handed out twice");
            assertEquals(3, pool.stats().created(), "nothing made: all three were idle");
            held.forEach(pool::release);
        } finally {
            pool.close();
        }
    }

    @Test
    void aPlatformThreadNeitherReadsNorWritesTheSlots() {
        @SuppressWarnings("unchecked")
        BoundedPool<Object> pool = (BoundedPool<Object>) Pool.builder(Object::new)
                .maxTotal(4).stripes(1).name("platform").build();
        try {
            Object a = pool.acquire();
            pool.release(a);
            for (int i = 0; i < pool.threads().virtualHintSlots(); i++) {
                assertNull(pool.threads().virtualHint(i), "slot " + i);
            }
        } finally {
            pool.close();
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 16, 50, 63, 64, 65, 100_000, Integer.MAX_VALUE})
    void theSlotsAreAPowerOfTwoAtOrAboveMaxTotalAndAtMost64(int maxTotal) {
        int slots = new BoundedThreads(maxTotal).virtualHintSlots();
        assertEquals(1, Integer.bitCount(slots), "a power of two: " + slots);
        assertTrue(slots >= Math.min(maxTotal, 64), "at or above maxTotal, up to 64: " + slots);
        assertTrue(slots <= 64 && slots < 2 * (long) maxTotal, "no more than needed: " + slots);
    }

    /**
     * Many virtual threads on few objects and few slots, with a validate hook that refuses some
     * objects (a refused hint take destroys the object and frees its entry): no object is ever
     * held by two threads, every acquisition is one release, and at the end every object made
     * is idle or destroyed.
     */
    @Test
    void virtualThreadsSharingSlotsNeverHoldOneObjectTogether() throws Exception {
        assumeTrue(VirtualThreads.AVAILABLE, VirtualThreads.NEED_JDK_21);
        int threads = 200;
        int cycles = 500;
        AtomicInteger validations = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger finished = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        @SuppressWarnings("unchecked")
        BoundedPool<AtomicReference<Thread>> pool = (BoundedPool<AtomicReference<Thread>>) Pool
                .builder(AtomicReference<Thread>::new).maxTotal(8).stripes(2).name("shared-slots")
                .validate(x -> validations.incrementAndGet() % 37 != 0)
                .acquireTimeout(Duration.ofSeconds(60)).build();
        try {
            List<Thread> ts = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                ts.add(VirtualThreads.start(() -> {
                    try {
                        for (int k = 0; k < cycles; k++) {
                            AtomicReference<Thread> x = pool.acquire();
                            if (!x.compareAndSet(null, Thread.currentThread())) {
                                overlaps.incrementAndGet();
                            }
                            if ((k & 3) == 0) {
                                Thread.yield(); // hold across a switch now and then
                            }
                            x.set(null);
                            pool.release(x);
                        }
                        finished.incrementAndGet();
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (Thread t : ts) {
                t.join();
            }
            if (failure.get() != null) {
                throw new AssertionError("a virtual thread failed", failure.get());
            }
            PoolStats s = pool.stats();
            assertEquals(threads, finished.get());
            assertEquals(0, overlaps.get(), "two threads held one object at once: " + s);
            assertEquals((long) threads * cycles, s.released(), s.toString());
            assertEquals(s.released(), s.privateHits() + s.homeHits() + s.stolenHits() + s.misses(),
                    "every acquisition counted once: " + s);
            assertEquals(0, s.inUse(), s.toString());
            assertEquals(s.created() - s.dropped(), s.idle(), "made, destroyed and idle disagree: " + s);
            assertTrue(s.dropped() > 0, "no validation refused an object: the test proves less than it says. " + s);
        } finally {
            pool.close();
        }
    }
}
