package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A seeded random walk of one thread over acquire, release, invalidate, double releases,
 * aging, dead helper threads, hooks that re-enter or throw, checking after every step the
 * promises of the spare entries (nothing idle twice, nothing idle while held, idle within
 * maxIdle, quiescent accounting exact, double release of an object idle in the caller's slot
 * refused without change) and, at the end, close's promise (exact mode: each idle object
 * destroyed exactly once before close returns).
 */
class SpareEntryFuzzTest {
    /**
     * Seeds per variant: 3 in the suite (about 6 s for the 48 variants on 2 cores); more with
     * {@code -Dstripedpool.fuzzSeeds=40} before a release.
     */
    static final int SEEDS = Integer.getInteger("stripedpool.fuzzSeeds", 3);

    static final class Config {
        boolean exact;
        int reset; // 0 none, 1 plain, 2 re-entrant, 3 sometimes throws
        boolean retain;
        int maxIdle;
        boolean sampled;
        boolean destroyReenters;

        @Override
        public String toString() {
            return "exact=" + exact + " reset=" + reset + " retain=" + retain + " maxIdle=" + maxIdle
                    + " sampled=" + sampled + " destroyReenters=" + destroyReenters;
        }
    }

    Tracked.Factory objects = new Tracked.Factory();
    final AtomicReference<UnboundedPool<Tracked>> poolRef = new AtomicReference<>();
    final ThreadLocal<int[]> depth = ThreadLocal.withInitial(() -> new int[1]);
    final Map<Tracked, Boolean> refuse = new IdentityHashMap<>();
    Random rnd;
    volatile boolean closeInHook;
    final List<String> errors = new ArrayList<>();

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15,
            16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31,
            33, 35, 37, 39, 41, 43, 45, 47, 49, 51, 53, 55, 57, 59, 61, 63})
    void randomWalk(int variant) {
        for (int seed = 0; seed < SEEDS; seed++) {
            Config c = new Config();
            c.exact = (variant & 1) != 0;
            c.reset = (variant >> 1) & 3;
            c.retain = (variant & 8) != 0;
            c.sampled = (variant & 16) != 0;
            c.destroyReenters = (variant & 32) != 0;
            Random r = new Random(seed * 31L + variant);
            c.maxIdle = 1 + r.nextInt(24);
            run(seed, variant, c);
        }
    }

    void run(int seed, int variant, Config c) {
        objects = new Tracked.Factory();
        refuse.clear();
        errors.clear();
        rnd = new Random(seed * 1_000_003L + variant);
        PoolBuilder<Tracked> b = Pool.builder(objects::create).agingInterval(MANUAL_AGING).maxIdle(c.maxIdle);
        if (c.exact) {
            b.destroy(x -> {
                if (x.owner.get() != null) {
                    errors.add("destroyed while held: " + x);
                }
                objects.destroy(x);
                int[] d = depth.get();
                UnboundedPool<Tracked> p = poolRef.get();
                if (c.destroyReenters && d[0] == 0 && x.id % 4 == 0 && !p.isClosed()) {
                    d[0]++;
                    try {
                        Tracked y = p.acquire();
                        if (!y.owner.compareAndSet(null, Thread.currentThread())) {
                            errors.add("nested acquire (destroy) got a held object " + y);
                        }
                        if (y.destroys.get() != 0) {
                            errors.add("nested acquire (destroy) got a destroyed object " + y);
                        }
                        y.owner.set(null);
                        if (x.id % 8 == 0) {
                            p.invalidate(y);
                        } else {
                            p.release(y);
                        }
                    } finally {
                        d[0]--;
                    }
                }
            });
        }
        if (c.reset == 1) {
            b.reset(objects::reset);
        } else if (c.reset == 2) {
            b.reset(x -> {
                objects.reset(x);
                int[] d = depth.get();
                if (d[0] == 0 && x.id % 3 == 0) {
                    d[0]++;
                    try {
                        UnboundedPool<Tracked> p = poolRef.get();
                        Tracked y = p.acquire();
                        if (!y.owner.compareAndSet(null, Thread.currentThread())) {
                            errors.add("nested acquire got a held object " + y);
                        }
                        if (c.exact && y.destroys.get() != 0) {
                            errors.add("nested acquire got a destroyed object " + y);
                        }
                        Tracked z = x.id % 2 == 0 ? p.acquire() : null;
                        if (z != null && !z.owner.compareAndSet(null, Thread.currentThread())) {
                            errors.add("nested acquire got a held object " + z);
                        }
                        if (z != null) {
                            z.owner.set(null);
                            p.release(z);
                        }
                        y.owner.set(null);
                        p.release(y);
                    } finally {
                        d[0]--;
                    }
                }
            });
        } else if (c.reset == 3) {
            b.reset(x -> {
                objects.reset(x);
                if (x.id % 5 == 0) {
                    throw new PoolAssertions.HookFailure("reset fails on " + x);
                }
            });
        }
        if (c.retain) {
            b.retainIf(x -> {
                if (closeInHook) {
                    closeInHook = false;
                    poolRef.get().close();
                }
                return !refuse.containsKey(x);
            });
        }
        if (c.sampled) {
            b.leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(1 + rnd.nextInt(3));
        }
        int closeAt = c.retain && rnd.nextBoolean() ? rnd.nextInt(400) : -1;
        String where = "seed " + seed + " variant " + variant + " " + c;
        UnboundedPool<Tracked> pool = engine(b, "fuzz");
        poolRef.set(pool);
        List<Tracked> held = new ArrayList<>();
        Tracked lastToStripe = null;
        int lastStripe = -1;
        int lastIndex = -1;
        int steps = 400;
        for (int step = 0; step < steps; step++) {
            String at = where + " step " + step;
            if (pool.isClosed()) {
                break;
            }
            closeInHook = step == closeAt;
            int op = rnd.nextInt(100);
            if (op < 35 || held.isEmpty()) {
                Tracked x = pool.acquire();
                if (!x.owner.compareAndSet(null, Thread.currentThread())) {
                    fail(at + ": handed out while held: " + x);
                }
                if (c.exact && x.destroys.get() != 0) {
                    fail(at + ": handed out after destroy: " + x);
                }
                if (x == lastToStripe) {
                    lastToStripe = null;
                }
                held.add(x);
            } else if (op < 70) {
                Tracked x = held.remove(rnd.nextInt(held.size()));
                x.owner.set(null);
                if (c.retain && rnd.nextInt(10) == 0) {
                    refuse.put(x, true);
                }
                pool.release(x);
                int[] pos = findInStripes(pool, x);
                if (pos != null && !heldInOwnSlot(pool, x) && c.reset != 2) {
                    lastToStripe = x;
                    lastStripe = pos[0];
                    lastIndex = pos[1];
                } else if (!heldInOwnSlot(pool, x)) {
                    lastToStripe = null; // dropped, or moved by a re-entrant hook: no longer the last push
                }
            } else if (op < 75) {
                Tracked x = held.remove(rnd.nextInt(held.size()));
                x.owner.set(null);
                int before = x.destroys.get();
                pool.invalidate(x);
                if (c.exact && x.destroys.get() != before + 1) {
                    fail(at + ": invalidate did not destroy once: " + x);
                }
            } else if (op < 85) {
                // A second release of every object idle in this thread's slot or spare entries.
                PrivateSlot s = own(pool);
                if (s != null) {
                    List<Tracked> idleHere = new ArrayList<>();
                    if (s.item != null) {
                        idleHere.add((Tracked) s.item);
                    }
                    for (int i = 0; i < s.spareTop; i++) {
                        if (s.spares[i] != null) {
                            idleHere.add((Tracked) s.spares[i]);
                        }
                    }
                    if (lastToStripe != null && pool.stripes[lastStripe].holdsAt(lastIndex + Stripe.PAD, lastToStripe)) {
                        idleHere.add(lastToStripe);
                    }
                    for (Tracked x : idleHere) {
                        String snap = snapshot(pool, s);
                        boolean inv = rnd.nextBoolean();
                        Throwable t = null;
                        try {
                            if (inv) {
                                pool.invalidate(x);
                            } else {
                                pool.release(x);
                            }
                        } catch (Throwable e) {
                            t = e;
                        }
                        if (!(t instanceof IllegalStateException)) {
                            fail(at + ": a second " + (inv ? "invalidate" : "release") + " of " + x
                                    + " idle in the caller's slot/last stripe push was not refused: " + t
                                    + " before " + snap + " after " + snapshot(pool, s));
                        }
                        String after = snapshot(pool, s);
                        assertEquals(snap, after, at + ": refused double release changed the pool");
                    }
                }
            } else if (op < 92) {
                age(pool);
                if (lastToStripe != null && !pool.stripes[lastStripe].holdsAt(lastIndex + Stripe.PAD, lastToStripe)) {
                    lastToStripe = null;
                }
            } else {
                // a helper thread that holds k objects at once, releases them, and dies
                int k = 1 + rnd.nextInt(9);
                Thread th = new Thread(() -> {
                    List<Tracked> mine = new ArrayList<>();
                    for (int i = 0; i < k; i++) {
                        Tracked x = pool.acquire();
                        if (!x.owner.compareAndSet(null, Thread.currentThread())) {
                            errors.add("helper got a held object " + x);
                        }
                        if (c.exact && x.destroys.get() != 0) {
                            errors.add("helper got a destroyed object " + x);
                        }
                        mine.add(x);
                    }
                    for (int i = mine.size() - 1; i >= 0; i--) {
                        mine.get(i).owner.set(null);
                        pool.release(mine.get(i));
                    }
                });
                th.start();
                try {
                    th.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                lastToStripe = null; // other hands may have moved it
            }
            closeInHook = false;
            if (pool.isClosed()) {
                break;
            }
            check(pool, held, c, at);
            assertEquals(List.of(), errors, at);
        }
        // close: everything idle destroyed exactly once before close returns (exact), held ones on release
        pool.close();
        if (c.exact) {
            for (Tracked x : objects.made) {
                boolean isHeld = x.owner.get() != null;
                int d = x.destroys.get();
                if (isHeld ? d != 0 : d != 1) {
                    fail(where + ": after close " + x + " held=" + isHeld + " destroyed " + d + " times");
                }
            }
        }
        for (Tracked x : held) {
            x.owner.set(null);
            pool.release(x);
            if (c.exact) {
                assertEquals(1, x.destroys.get(), where + ": released after close, not destroyed once: " + x);
            }
        }
        PoolStats s = pool.stats();
        assertEquals(0, s.idle(), where + " " + s);
        assertEquals(s.created() - s.dropped(), s.inUse(), where + " " + s);
        assertEquals(0, s.inUse(), where + " " + s);
        assertEquals(List.of(), errors, where);
    }

    static void age(UnboundedPool<?> p) {
        long before = p.stats().agingCycles();
        p.onGarbageCollection(System.nanoTime() + (before + 1) * MANUAL_AGING.toNanos());
    }

    static PrivateSlot own(UnboundedPool<?> pool) {
        for (PrivateSlot s : pool.registry) {
            if (s.owner == Thread.currentThread() && s.reaped == 0) {
                return s;
            }
        }
        return null;
    }

    static boolean heldInOwnSlot(UnboundedPool<?> pool, Object x) {
        PrivateSlot s = own(pool);
        if (s == null) {
            return false;
        }
        if (s.item == x) {
            return true;
        }
        for (Object y : s.spares) {
            if (y == x) {
                return true;
            }
        }
        return false;
    }

    /** {stripe, index from 0} of x in the stripes, or null. */
    static int[] findInStripes(UnboundedPool<?> pool, Object x) {
        for (int k = 0; k < pool.stripes.length; k++) {
            Stripe st = pool.stripes[k];
            for (int i = 0; i < st.capacity; i++) {
                if (st.items[Stripe.PAD + i] == x) {
                    return new int[] {k, i};
                }
            }
        }
        return null;
    }

    static String snapshot(UnboundedPool<?> pool, PrivateSlot s) {
        PoolStats st = pool.stats();
        return "item=" + s.item + " spares=" + Arrays.toString(s.spares) + " top=" + s.spareTop
                + " cap=" + s.spareCap + " idleReal=" + UnboundedStats.countIdle(pool)
                + " acq=" + st.acquired() + " rel=" + st.released() + " dropped=" + st.dropped()
                + " created=" + st.created();
    }

    void check(UnboundedPool<Tracked> pool, List<Tracked> held, Config c, String at) {
        Map<Object, String> idle = new IdentityHashMap<>();
        for (int k = 0; k < pool.stripes.length; k++) {
            Stripe st = pool.stripes[k];
            for (int i = 0; i < st.capacity; i++) {
                Object x = st.items[Stripe.PAD + i];
                if (x != null && idle.put(x, "stripe " + k) != null) {
                    fail(at + ": idle twice " + x);
                }
            }
        }
        for (PrivateSlot s : pool.registry) {
            if (s.reaped != 0) {
                continue;
            }
            if (s.item != null && idle.put(s.item, "item of " + s.owner) != null) {
                fail(at + ": idle twice " + s.item);
            }
            for (int i = 0; i < PrivateSlot.SPARES; i++) {
                Object y = s.spares[i];
                if (y != null) {
                    if (i >= s.spareTop) {
                        fail(at + ": spare " + i + " full above spareTop " + s.spareTop);
                    }
                    if (i >= s.spareCap) {
                        fail(at + ": spare " + i + " full without a permit, cap " + s.spareCap);
                    }
                    if (idle.put(y, "spare of " + s.owner) != null) {
                        fail(at + ": idle twice " + y);
                    }
                }
            }
            if (s.item != null && !s.mayPut) {
                fail(at + ": item without a permit");
            }
        }
        for (Tracked x : held) {
            if (idle.containsKey(x)) {
                fail(at + ": held and idle in " + idle.get(x) + ": " + x);
            }
        }
        for (Object x : idle.keySet()) {
            if (c.exact && ((Tracked) x).destroys.get() != 0) {
                fail(at + ": idle after destroy " + x);
            }
        }
        assertTrue(idle.size() <= c.maxIdle, at + ": real idle " + idle.size() + " above maxIdle " + c.maxIdle);
        PoolStats s = pool.stats();
        assertEquals(idle.size(), s.idle(), at + " stats idle vs real: " + s);
        assertEquals(held.size(), s.inUse(), at + " inUse: " + s);
        assertEquals(s.created() - s.dropped(), s.idle() + s.inUse(), at + " balance: " + s);
        if (c.exact) {
            long destroyed = objects.destroyed.get();
            assertEquals(s.dropped(), destroyed, at + " dropped vs destroyed: " + s);
        }
        // every object made is held, idle, or dropped exactly once (exact mode)
        if (c.exact) {
            for (Tracked x : objects.made) {
                boolean isIdle = idle.containsKey(x);
                boolean isHeld = x.owner.get() != null;
                int d = x.destroys.get();
                int states = (isIdle ? 1 : 0) + (isHeld ? 1 : 0) + d;
                if (states != 1) {
                    fail(at + ": " + x + " idle=" + isIdle + " held=" + isHeld + " destroyed=" + d);
                }
            }
        }
    }
}
