package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every user callback may call back into the pool: each hook (factory, reset, destroy,
 * {@code retainIf}, {@code validate}) × each call ({@code acquire}+{@code release},
 * {@code acquire}+{@code invalidate}, {@code lease}, {@code stats}, {@code close}) × the same
 * pool or another one × every engine and leak level, with and without a destroy hook. The
 * driver's calls include a trim under heap pressure (the pools trim above 0% of the heap), run
 * on the pool's lane as after a collection, so the destroy hook re-enters from a library worker
 * too.
 *
 * <p>The property: the driver's work finishes (never a hang) and either works or fails with
 * {@link PoolClosedException} after a hook closed the pool; and the accounting is exact. With a
 * destroy hook, every object the factory made is destroyed exactly once once both pools are
 * closed; without one, {@code created - dropped == idle + inUse} before close and
 * {@code created == dropped} after it. A reset hook that re-entered its own pool once lost an
 * object per release this way (the release published into a slot the nested release had filled).
 *
 * <p>The callback re-enters once per arming: the driver arms it before each of its own calls,
 * so the nested call does not recurse into itself. On JDK 21+ every combination runs again on a
 * virtual thread (no private slot, the stripes' paths); on JDK 17 those cases are not generated.
 * The {@code onLeak} listener, which runs on a library worker, re-enters in
 * {@link #aLeakListenerThatReentersAPoolLosesNothing}.
 */
class ReentrancyPropertyTest {

    /** The user callback that re-enters. */
    enum Hook { FACTORY, RESET, DESTROY, RETAIN_IF, VALIDATE }

    /** What the callback calls. */
    enum Call { ACQUIRE_RELEASE, ACQUIRE_INVALIDATE, LEASE, STATS, CLOSE }

    /** A pooled object; {@code destroys} counts the destroy hook's calls on it. */
    static final class Obj {
        final AtomicLong destroys = new AtomicLong();
    }

    static Stream<Arguments> cases() {
        List<Arguments> all = new ArrayList<>();
        for (boolean bounded : new boolean[] {false, true}) {
            for (LeakDetection leaks : LeakDetection.values()) {
                for (boolean destroy : new boolean[] {true, false}) {
                    for (Hook hook : Hook.values()) {
                        if (hook == Hook.VALIDATE && !bounded || hook == Hook.DESTROY && !destroy) {
                            continue; // validate is bounded only; a destroy hook needs one
                        }
                        for (Call call : Call.values()) {
                            for (boolean same : new boolean[] {true, false}) {
                                all.add(Arguments.of(bounded, leaks, destroy, hook, call, same, false));
                                if (VirtualThreads.AVAILABLE) {
                                    all.add(Arguments.of(bounded, leaks, destroy, hook, call, same, true));
                                }
                            }
                        }
                    }
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "bounded {0}, {1}, destroy hook {2}: {3} calls {4} on the same pool {5}, virtual {6}")
    @MethodSource("cases")
    void aCallbackThatReentersAPoolLosesNothing(boolean bounded, LeakDetection leaks, boolean destroy,
            Hook hook, Call call, boolean same, boolean virtual) throws Exception {
        Scenario s = new Scenario(bounded, leaks, destroy, hook, call, same);
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            if (virtual) {
                VirtualThreads.runOnOne(s::run);
            } else {
                s.run();
            }
        }, () -> "a callback that re-entered a pool hung: " + s);
        s.check();
    }

    /**
     * The matrix's sampled pools track one acquisition in two, at random, so a defect of the
     * sampled paths shows in some runs only; this case repeats the combination that found one
     * until a failure is all but certain: a factory that leased an object of its own pool
     * released a tracked object into the private slot, and the outer acquisition's countdown
     * reopened the fast path over it, which then handed it out with its tracker still in the
     * table (the next release was refused as a double release).
     */
    @org.junit.jupiter.api.Test
    void aFactoryThatLeasesFromItsSampledPoolLeavesNoTrackedObjectOnTheFastPath() {
        for (int run = 0; run < 200; run++) {
            for (Hook hook : new Hook[] {Hook.FACTORY, Hook.RESET, Hook.RETAIN_IF}) {
                Scenario s = new Scenario(false, LeakDetection.SAMPLED, false, hook, Call.LEASE, true);
                s.run();
                s.check();
            }
        }
    }

    static Stream<Arguments> leakCases() {
        List<Arguments> all = new ArrayList<>();
        for (boolean bounded : new boolean[] {false, true}) {
            for (Call call : Call.values()) {
                for (boolean same : new boolean[] {true, false}) {
                    all.add(Arguments.of(bounded, call, same));
                }
            }
        }
        return all.stream();
    }

    /**
     * The {@code onLeak} listener (on a library worker) calls back into the pool whose object
     * leaked, or into another: the report arrives, the nested call works (or meets the pool
     * closed), close finishes, and every object that did not leak is destroyed exactly once.
     */
    @ParameterizedTest(name = "bounded {0}: the leak listener calls {1} on the same pool {2}")
    @MethodSource("leakCases")
    void aLeakListenerThatReentersAPoolLosesNothing(boolean bounded, Call call, boolean same) {
        Scenario s = new Scenario(bounded, LeakDetection.PARANOID, true, null, call, same);
        java.util.concurrent.CountDownLatch reported = new java.util.concurrent.CountDownLatch(1);
        s.listener = r -> {
            s.armed.set(true);
            try {
                s.reenter();
            } finally {
                reported.countDown();
            }
        };
        assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
            s.pool = s.builder(true, "leaky").build();
            s.other = s.builder(false, "other").build();
            leakOne(s);
            LeakTesting.gcUntil("the leak report", () -> {
                try {
                    return reported.await(20, java.util.concurrent.TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            if (!s.pool.isClosed()) {
                Obj x = s.pool.acquire();
                s.pool.release(x);
            }
            s.before = s.pool.stats();
            s.otherBefore = s.other.stats();
            s.pool.close();
            s.other.close();
        }, () -> "a leak listener that re-entered a pool hung: " + s);
        if (s.nestedFailure.get() != null) {
            fail("the listener's nested call failed: " + s, s.nestedFailure.get());
        }
        long leaked = 1;
        int[] wrong = new int[1];
        synchronized (s.created) {
            for (Obj x : s.created.keySet()) {
                if (x.destroys.get() != 1) {
                    wrong[0]++;
                }
            }
        }
        assertEquals(0, wrong[0], () -> wrong[0] + " objects besides the leaked one were not destroyed "
                + "exactly once (the leaked one is garbage, not in this set) in " + s);
        assertEquals(s.created.size() + leaked, s.pool.stats().created() + s.other.stats().created(),
                () -> "the factory's calls and the pools' created counts differ in " + s);
    }

    /** Acquires an object and drops every reference to it (the test's own too), in a frame of its own. */
    private static void leakOne(Scenario s) {
        Obj x = s.pool.acquire();
        synchronized (s.created) {
            s.created.remove(x);
        }
    }

    /** One combination: two pools, a driver, and the accounting. */
    static final class Scenario {
        final boolean bounded;
        final LeakDetection leaks;
        final boolean destroy;
        final Hook hook;
        final Call call;
        final boolean same;
        final AtomicBoolean armed = new AtomicBoolean();
        final Map<Obj, Boolean> created = new IdentityHashMap<>();
        final AtomicReference<Throwable> nestedFailure = new AtomicReference<>();
        java.util.function.Consumer<LeakReport> listener;
        Pool<Obj> pool;
        Pool<Obj> other;
        PoolStats before;
        PoolStats otherBefore;

        Scenario(boolean bounded, LeakDetection leaks, boolean destroy, Hook hook, Call call, boolean same) {
            this.bounded = bounded;
            this.leaks = leaks;
            this.destroy = destroy;
            this.hook = hook;
            this.call = call;
            this.same = same;
        }

        private PoolBuilder<Obj> builder(boolean withHook, String name) {
            PoolBuilder<Obj> b = Pool.builder(() -> {
                Obj x = new Obj();
                synchronized (created) {
                    created.put(x, Boolean.TRUE);
                }
                if (withHook && hook == Hook.FACTORY) {
                    reenter();
                }
                return x;
            }).name(name).leakDetection(leaks).leakSamplingInterval(2).trimAboveHeap(0);
            if (withHook && listener != null) {
                b.onLeak(listener);
            }
            b.reset(x -> {
                if (withHook && hook == Hook.RESET) {
                    reenter();
                }
            });
            b.retainIf(x -> {
                if (withHook && hook == Hook.RETAIN_IF) {
                    reenter();
                }
                return true;
            });
            if (destroy) {
                b.destroy(x -> {
                    x.destroys.incrementAndGet();
                    if (withHook && hook == Hook.DESTROY) {
                        reenter();
                    }
                });
            }
            if (bounded) {
                b.maxTotal(64).acquireTimeout(Duration.ofSeconds(5));
                if (hook == Hook.VALIDATE) {
                    b.validate(x -> {
                        if (withHook) {
                            reenter();
                        }
                        return true;
                    });
                }
            } else {
                b.maxIdle(16);
            }
            return b;
        }

        /** The callback's nested call, once per arming. */
        private void reenter() {
            if (!armed.getAndSet(false)) {
                return;
            }
            Pool<Obj> p = same ? pool : other;
            if (p.isClosed() && call != Call.STATS && call != Call.CLOSE) {
                return; // the nested call would only throw PoolClosedException
            }
            try {
                switch (call) {
                    case ACQUIRE_RELEASE: {
                        Obj a = p.acquire();
                        Obj b = p.acquire();
                        p.release(b);
                        p.release(a);
                        break;
                    }
                    case ACQUIRE_INVALIDATE:
                        p.invalidate(p.acquire());
                        break;
                    case LEASE:
                        try (Lease<Obj> l = p.lease()) {
                            l.get();
                        }
                        break;
                    case STATS:
                        p.stats().toString();
                        p.toString();
                        break;
                    case CLOSE:
                        p.close();
                        break;
                    default:
                        throw new AssertionError(call);
                }
            } catch (PoolClosedException e) {
                // the driver's own call closed it meanwhile (a destroy hook run by close)
            } catch (RuntimeException | Error e) {
                nestedFailure.compareAndSet(null, e);
                throw e;
            }
        }

        void run() {
            pool = builder(true, "reentrant").build();
            other = builder(false, "other").build();
            offTheClock(pool);
            offTheClock(other);
            try {
                drive();
            } catch (PoolClosedException e) {
                assertTrue(call == Call.CLOSE && same, () -> "closed by nobody: " + e);
            }
            before = pool.stats();
            otherBefore = other.stats();
            armed.set(true);
            pool.close();
            armed.set(false);
            other.close();
            pool.close(); // a second close sweeps what a racing release (here: a nested one) left
        }

        /** Acquire/release cycles, several objects held at once, invalidate, lease. */
        private void drive() {
            for (int round = 0; round < 40 && !pool.isClosed(); round++) {
                armed.set(true);
                Obj x = pool.acquire();
                armed.set(true);
                pool.release(x);

                List<Obj> held = new ArrayList<>();
                try {
                    for (int k = 0; k < 4; k++) {
                        armed.set(true);
                        held.add(pool.acquire());
                    }
                } finally {
                    for (int k = held.size() - 1; k >= 0; k--) {
                        armed.set(true);
                        pool.release(held.get(k));
                    }
                }

                armed.set(true);
                trimNow(pool);

                armed.set(true);
                Obj y = pool.acquire();
                armed.set(true);
                pool.invalidate(y);

                armed.set(true);
                try (Lease<Obj> l = pool.lease()) {
                    l.get();
                }
            }
        }

        /**
         * A trim under heap pressure, as after a collection: on the pool's lane, where the aging
         * clock runs it (so never at once with another of the pool's background jobs), waited for.
         * With the pools' threshold of 0 the heap is always short, so every idle object beyond
         * minIdle (unbounded: beyond what aging keeps) is destroyed, and a destroy hook re-enters
         * from the worker.
         */
        private void trimNow(Pool<Obj> p) {
            AfterCollection target = agingTarget(p);
            onLane(p, () -> target.onGarbageCollection(System.nanoTime()));
        }

        /**
         * Takes {@code p} off the aging clock, and waits for any job the clock gave its lane
         * before that: from then on only {@link #trimNow} ages it, on the lane, while the driver
         * waits. An aging job run by a real collection at the same time as the driver's own
         * acquire may take an object from the driver's private slot as the driver takes it (in a
         * pool without a destroy hook both succeed, see PrivateSlot): the pool then counts it
         * dropped while the driver holds it, and created - dropped is one below idle + inUse.
         * That race is the design's, and documented; here it would fail the accounting check.
         */
        private void offTheClock(Pool<Obj> p) {
            AgingClock.unregister(agingTarget(p));
            onLane(p, () -> { });
        }

        private AfterCollection agingTarget(Pool<Obj> p) {
            Pool<Obj> engine = p instanceof LeakDetectingPool ? ((LeakDetectingPool<Obj>) p).engine() : p;
            return engine instanceof BoundedPool
                    ? ((BoundedPool<Obj>) engine).maintenance() : (AfterCollection) engine;
        }

        /** Runs {@code job} on {@code p}'s background lane, after what is queued there, and waits. */
        private void onLane(Pool<Obj> p, Runnable job) {
            AfterCollection target = agingTarget(p);
            CompletableFuture<Void> done = new CompletableFuture<>();
            Background.lane(target).submit(() -> {
                try {
                    job.run();
                    done.complete(null);
                } catch (Throwable t) {
                    done.completeExceptionally(t);
                }
            }, "a test's job on pool '" + p.name() + "'");
            try {
                done.get(10, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new AssertionError("the trim failed or hung: " + this, e);
            }
        }

        void check() {
            if (nestedFailure.get() != null) {
                fail("the nested call failed: " + this, nestedFailure.get());
            }
            for (PoolStats s : new PoolStats[] {before, otherBefore}) {
                assertEquals(0, s.inUse(), () -> "objects left in use: " + s + " in " + this);
                if (!s.isClosed()) {
                    assertEquals(s.created() - s.dropped(), s.idle() + s.inUse(),
                            () -> "created - dropped must equal idle + inUse: " + s + " in " + this);
                }
            }
            PoolStats after = pool.stats();
            PoolStats otherAfter = other.stats();
            assertEquals(after.created(), after.dropped(),
                    () -> "every object made must be dropped once the pool is closed: " + after + " in " + this);
            assertEquals(otherAfter.created(), otherAfter.dropped(),
                    () -> "every object made must be dropped once the pool is closed: " + otherAfter
                            + " in " + this);
            assertEquals(created.size(), after.created() + otherAfter.created(),
                    () -> "the factory's calls and the pools' created counts differ in " + this);
            if (destroy) {
                int[] wrong = new int[1];
                StringBuilder which = new StringBuilder();
                synchronized (created) {
                    for (Obj x : created.keySet()) {
                        long d = x.destroys.get();
                        if (d != 1) {
                            wrong[0]++;
                            if (which.length() < 200) {
                                which.append(d).append(' ');
                            }
                        }
                    }
                }
                assertEquals(0, wrong[0], () -> wrong[0] + " of " + created.size()
                        + " objects were not destroyed exactly once (destroy counts: " + which + ") in " + this);
            }
        }

        @Override
        public String toString() {
            return (bounded ? "bounded" : "unbounded") + ", " + leaks + (destroy ? ", destroy hook" : "")
                    + ": " + (hook != null ? hook : "onLeak") + " calls " + call + " on the " + (same ? "same" : "other") + " pool";
        }
    }
}
