package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Many threads acquire, use, hold, release and lease at random while the factory, the reset hook
 * and the destroy hook throw at random, the collector drives aging, and a random thread closes
 * the pool in the middle of it all.
 *
 * <p>Each round builds a pool and runs two phases. In the first, the workers work and then stop
 * at a barrier still holding what they hold; the pool is quiescent and its accounting is checked
 * against what the workers hold. In the second, they work again and one of them closes the pool
 * after a random delay; the others run into {@link PoolClosedException}, give back what they
 * hold, and stop. Then every object the factory ever made must have been destroyed exactly once.
 *
 * <p>Invariants, checked on every operation: an acquired object has no holder (the holder field
 * is set by a CAS on acquire, checked on every use and cleared by a CAS on release), was never
 * destroyed, and carries no secret of a previous holder. Every round must finish within its
 * deadline: a hang is a failure, reported with the stuck threads' stacks.
 *
 * <p>Part of the contract suite: it runs on every engine and leak-detection level
 * ({@link PoolMode}; the hooks are the test's own). The unbounded pool without leak detection, the
 * engine with the most races, gets every round; the other kinds get {@link #OTHER_ROUNDS}. About
 * 40 seconds by default; {@code -Dstress.long=true} runs 40 rounds of 6 seconds per phase on
 * each kind, {@code -Dstress.rounds} and {@code -Dstress.phaseMillis} set either.
 */
class FaultInjectionStressTest {
    private static final boolean LONG = Boolean.getBoolean("stress.long");
    private static final int ROUNDS = Integer.getInteger("stress.rounds", LONG ? 40 : 5);
    private static final int PHASE_MILLIS = Integer.getInteger("stress.phaseMillis", LONG ? 6_000 : 1_300);
    /** Rounds of the kinds of pool other than the unbounded one without leak detection. */
    private static final int OTHER_ROUNDS = LONG ? ROUNDS : 2;
    /** Twice the processors, at least 8: more threads than cores, so that threads are preempted mid-operation. */
    private static final int THREADS = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());
    /** One fault in 50 calls of each hook: frequent enough for thousands per run. */
    private static final int FAULT_ONE_IN = 50;
    private static final int MAX_HELD = 3;

    /** The pool logs each hook failure; thousands of intended ones would only bury real output. */
    private static QuietPoolLog quietLog;

    private static final class Obj {
        final AtomicReference<Thread> holder = new AtomicReference<>();
        final AtomicInteger destroyed = new AtomicInteger();
        long secret;
    }

    private static final class InjectedFault extends RuntimeException {
        private static final long serialVersionUID = 1L;

        InjectedFault(String hook) {
            super("injected " + hook + " fault", null, false, false);
        }
    }

    private final Queue<Obj> all = new ConcurrentLinkedQueue<>();
    private final Queue<String> violations = new ConcurrentLinkedQueue<>();
    private final AtomicLong cycles = new AtomicLong();
    private final AtomicLong factoryFaults = new AtomicLong();
    private final AtomicLong resetFaults = new AtomicLong();
    private final AtomicLong destroyFaults = new AtomicLong();
    private final AtomicLong closedSeen = new AtomicLong();

    @BeforeAll
    static void quietPoolLog() {
        quietLog = new QuietPoolLog();
    }

    @AfterAll
    static void restorePoolLog() {
        quietLog.close();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.github.stripedpool.PoolMode#withoutStandardHooks")
    void randomOperationsWithThrowingHooksKeepEveryInvariant(PoolMode mode) throws Exception {
        long objects = 0;
        int rounds = !mode.bounded && mode.leaks == LeakDetection.DISABLED ? ROUNDS : OTHER_ROUNDS;
        for (int round = 0; round < rounds; round++) {
            all.clear();
            runRound(mode, round);
            objects += all.size();
            if (!violations.isEmpty()) {
                fail(violations.size() + " violations in round " + round + ", first ones: "
                        + new ArrayList<>(violations).subList(0, Math.min(10, violations.size())));
            }
        }
        System.out.printf("FaultInjectionStressTest %s: %d rounds, %d threads, %d cycles, %d objects, "
                        + "faults injected: %d factory, %d reset, %d destroy; %d closed-pool rejections; 0 violations%n",
                mode, rounds, THREADS, cycles.get(), objects, factoryFaults.get(), resetFaults.get(),
                destroyFaults.get(), closedSeen.get());
    }

    private void runRound(PoolMode mode, int round) throws Exception {
        PoolBuilder<Obj> b = Pool.builder(this::make)
                .reset(this::reset)
                .destroy(this::destroy)
                .name("fault-injection-" + mode + "-" + round);
        Pool<Obj> pool = mode.configure(b.maxIdle(16).agingInterval(Duration.ofMillis(20))).build();
        CyclicBarrier quiescent = new CyclicBarrier(THREADS + 1);
        CyclicBarrier resume = new CyclicBarrier(THREADS + 1);
        AtomicLong heldAtQuiescence = new AtomicLong();
        int closer = ThreadLocalRandom.current().nextInt(THREADS);
        long closeAfterNanos = TimeUnit.MILLISECONDS.toNanos(
                PHASE_MILLIS / 4 + ThreadLocalRandom.current().nextInt(PHASE_MILLIS / 2));
        List<Thread> workers = new ArrayList<>();
        AtomicReference<Throwable> crash = new AtomicReference<>();
        for (int w = 0; w < THREADS; w++) {
            boolean closes = w == closer;
            Thread t = new Thread(() -> {
                try {
                    ArrayDeque<Obj> held = new ArrayDeque<>();
                    long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PHASE_MILLIS);
                    work(pool, held, end, -1);
                    heldAtQuiescence.addAndGet(held.size());
                    quiescent.await(30, TimeUnit.SECONDS);
                    resume.await(30, TimeUnit.SECONDS);
                    long start = System.nanoTime();
                    work(pool, held, start + TimeUnit.MILLISECONDS.toNanos(PHASE_MILLIS),
                            closes ? start + closeAfterNanos : -1);
                    while (!held.isEmpty()) {
                        release(pool, held.poll());
                    }
                } catch (Throwable e) {
                    crash.compareAndSet(null, e);
                }
            }, "stress-" + round + "-" + w);
            workers.add(t);
            t.start();
        }
        long phaseEnd = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PHASE_MILLIS);
        driveAging(phaseEnd);
        quiescent.await(PHASE_MILLIS + 30_000L, TimeUnit.MILLISECONDS);
        checkAccounting(settled(pool), heldAtQuiescence.get());
        resume.await(30, TimeUnit.SECONDS);
        driveAging(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(PHASE_MILLIS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Thread t : workers) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
            if (t.isAlive()) {
                StringBuilder sb = new StringBuilder("hang: " + t.getName() + " did not finish:");
                for (StackTraceElement e : t.getStackTrace()) {
                    sb.append("\n\tat ").append(e);
                }
                fail(sb.toString());
            }
        }
        if (crash.get() != null) {
            throw new AssertionError("a worker failed", crash.get());
        }
        pool.close(); // already closed by a worker: must do nothing
        PoolStats s = settled(pool);
        checkAccounting(s, 0);
        if (!s.isClosed() || s.idle() != 0) {
            violations.add("closed pool still holds objects: " + s);
        }
        if (s.created() != all.size()) {
            violations.add("created " + s.created() + " but the factory made " + all.size());
        }
        int i = 0;
        for (Obj o : all) {
            if (o.destroyed.get() != 1) {
                violations.add("object " + i + " destroyed " + o.destroyed.get() + " times after close");
            }
            i++;
        }
    }

    /** Collections drive aging; without them this test would never see an aged or victim object. */
    private static void driveAging(long until) throws InterruptedException {
        while (System.nanoTime() < until) {
            System.gc();
            Thread.sleep(Math.min(200, Math.max(1, TimeUnit.NANOSECONDS.toMillis(until - System.nanoTime()))));
        }
    }

    /**
     * The pool's figures once its counts agree, or as they are after 10 s. The workers are still,
     * but the aging job of the last collection may be running on the library's worker, and
     * {@code stats()} sums the counters before it walks the idle objects: an object the job drops
     * between the two is in neither figure ({@link PoolStats} promises agreement at quiescence
     * only). A count that stays off is a lost or double-counted object, and fails
     * {@link #checkAccounting}.
     */
    private static PoolStats settled(Pool<Obj> pool) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        PoolStats s = pool.stats();
        while (s.created() - s.dropped() != s.idle() + s.inUse() && System.nanoTime() - deadline < 0) {
            Thread.sleep(1);
            s = pool.stats();
        }
        return s;
    }

    private void checkAccounting(PoolStats s, long held) {
        if (s.created() - s.dropped() != s.idle() + s.inUse()) {
            violations.add("created - dropped != idle + inUse: " + s);
        }
        if (s.inUse() != held) {
            violations.add("inUse " + s.inUse() + " but the workers hold " + held + ": " + s);
        }
    }

    private void work(Pool<Obj> pool, ArrayDeque<Obj> held, long end, long closeAt) {
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        while (System.nanoTime() < end) {
            if (closeAt >= 0 && System.nanoTime() >= closeAt) {
                pool.close();
                closeAt = -1;
            }
            for (int n = 0; n < 64; n++) {
                int op = rnd.nextInt(100);
                try {
                    if (op < 45) {
                        Obj o = acquire(pool);
                        use(o);
                        release(pool, o);
                        cycles.incrementAndGet();
                    } else if (op < 60) {
                        try (Lease<Obj> lease = pool.lease()) {
                            Obj o = lease.get();
                            claim(o);
                            use(o);
                            o.holder.compareAndSet(Thread.currentThread(), null);
                        }
                        cycles.incrementAndGet();
                    } else if (op < 80) {
                        if (held.size() < MAX_HELD) {
                            held.push(acquire(pool));
                        }
                    } else if (!held.isEmpty()) {
                        Obj o = rnd.nextBoolean() ? held.pollFirst() : held.pollLast();
                        use(o);
                        release(pool, o);
                        cycles.incrementAndGet();
                    }
                } catch (ObjectCreationException e) {
                    if (!(e.getCause() instanceof InjectedFault)) {
                        throw e;
                    }
                } catch (PoolClosedException e) {
                    closedSeen.incrementAndGet();
                    return; // the pool is closed: give back what this thread holds, and stop
                }
            }
        }
    }

    private Obj acquire(Pool<Obj> pool) {
        Obj o = pool.acquire();
        claim(o);
        return o;
    }

    private void claim(Obj o) {
        if (o.destroyed.get() != 0) {
            violations.add("handed out an object that was destroyed");
        }
        if (!o.holder.compareAndSet(null, Thread.currentThread())) {
            violations.add("handed out an object held by " + o.holder.get());
        }
        if (o.secret != 0) {
            violations.add("handed out an object that still holds a previous holder's secret");
        }
    }

    private void use(Obj o) {
        if (o.holder.get() != Thread.currentThread()) {
            violations.add("object used by " + Thread.currentThread() + " but held by " + o.holder.get());
        }
        long secret = ThreadLocalRandom.current().nextLong() | 1;
        o.secret = secret;
        if (o.secret != secret || o.holder.get() != Thread.currentThread()) {
            violations.add("object changed under its holder");
        }
    }

    private void release(Pool<Obj> pool, Obj o) {
        if (!o.holder.compareAndSet(Thread.currentThread(), null)) {
            violations.add("released an object held by " + o.holder.get());
        }
        pool.release(o);
    }

    private Obj make() {
        if (ThreadLocalRandom.current().nextInt(FAULT_ONE_IN) == 0) {
            factoryFaults.incrementAndGet();
            throw new InjectedFault("factory");
        }
        Obj o = new Obj();
        all.add(o);
        return o;
    }

    private void reset(Obj o) {
        if (ThreadLocalRandom.current().nextInt(FAULT_ONE_IN) == 0) {
            resetFaults.incrementAndGet();
            throw new InjectedFault("reset"); // before clearing: the secret stays in a dropped object
        }
        o.secret = 0;
    }

    private void destroy(Obj o) {
        o.destroyed.incrementAndGet();
        if (ThreadLocalRandom.current().nextInt(FAULT_ONE_IN) == 0) {
            destroyFaults.incrementAndGet();
            throw new InjectedFault("destroy");
        }
    }
}
