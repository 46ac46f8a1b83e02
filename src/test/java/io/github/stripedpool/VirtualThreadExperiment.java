package io.github.stripedpool;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Many virtual threads that each hold an object for a while, in two waves: the first wave
 * creates at most one object per thread, the second reuses them. With a private slot per
 * virtual thread, every object of the first wave would be stranded in a dead thread's slot and
 * the second wave would create them all again.
 *
 * <p>Compiled at Java 17, so virtual threads are reached by reflection; needs a JDK 21+ to run.
 * {@link VirtualThreadTest} runs it in process, or in a child JVM through {@link #main}, which
 * prints one {@value #RESULT} line for the parent to read.
 */
final class VirtualThreadExperiment {
    static final String RESULT = "virtual-thread-experiment:";
    static final int THREADS = 1024;

    /** What one run measured. */
    static final class Outcome {
        long wave1Created;
        long wave2Created;
        long privateHits;
        int privateSlots;
        int virtualThreads;
        /** Distinct objects held at the wave's peak, when every thread holds one: must be THREADS. */
        int wave1Distinct;
        int wave2Distinct;
        /** created - dropped - idle - inUse at the end: 0 when the accounting balances. */
        long imbalance;
        String stats;

        String line() {
            return RESULT + " wave1Created=" + wave1Created + " wave2Created=" + wave2Created
                    + " privateHits=" + privateHits + " privateSlots=" + privateSlots
                    + " virtualThreads=" + virtualThreads + " wave1Distinct=" + wave1Distinct
                    + " wave2Distinct=" + wave2Distinct + " imbalance=" + imbalance;
        }

        static Outcome parse(String line) {
            Outcome o = new Outcome();
            for (String kv : line.substring(RESULT.length()).trim().split(" ")) {
                String[] p = kv.split("=");
                long v = Long.parseLong(p[1]);
                switch (p[0]) {
                    case "wave1Created": o.wave1Created = v; break;
                    case "wave2Created": o.wave2Created = v; break;
                    case "privateHits": o.privateHits = v; break;
                    case "privateSlots": o.privateSlots = (int) v; break;
                    case "virtualThreads": o.virtualThreads = (int) v; break;
                    case "wave1Distinct": o.wave1Distinct = (int) v; break;
                    case "wave2Distinct": o.wave2Distinct = (int) v; break;
                    case "imbalance": o.imbalance = v; break;
                    default: throw new IllegalArgumentException("unknown result " + kv);
                }
            }
            return o;
        }
    }

    private VirtualThreadExperiment() {
    }

    public static void main(String[] args) throws Exception {
        Outcome o = run();
        System.out.println(o.stats);
        System.out.println(o.line());
    }

    static Outcome run() throws Exception {
        ExecutorService virtual = (ExecutorService) Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        Outcome o = new Outcome();
        AtomicInteger onVirtual = new AtomicInteger();
        // The engine itself, so that its registry of private slots can be inspected. (Not through
        // PoolAssertions: a child JVM runs this class without JUnit on its class path.)
        try (UnboundedPool<Object> pool = new UnboundedPool<>(Pool.builder(Object::new).maxIdle(4096)
                .settings("virtual-waves"))) {
            o.wave1Distinct = wave(pool, virtual, onVirtual);
            o.wave1Created = pool.stats().created();
            o.wave2Distinct = wave(pool, virtual, onVirtual);
            PoolStats s = pool.stats();
            o.imbalance = s.created() - s.dropped() - s.idle() - s.inUse();
            o.wave2Created = s.created() - o.wave1Created;
            o.privateHits = s.privateHits();
            o.privateSlots = registry(pool).size();
            o.virtualThreads = onVirtual.get();
            o.stats = s.toString();
        } finally {
            virtual.shutdown();
            if (!virtual.awaitTermination(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("virtual threads still running after 60 s");
            }
        }
        return o;
    }

    /**
     * {@value #THREADS} virtual threads each acquire an object and hold it until all of them
     * hold one, then release it: no thread can reuse another's object within the wave.
     *
     * @return how many distinct objects the threads held at once
     */
    private static int wave(Pool<Object> pool, ExecutorService virtual, AtomicInteger onVirtual)
            throws Exception {
        CountDownLatch allHolding = new CountDownLatch(THREADS);
        Set<Object> held = Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));
        List<Future<?>> tasks = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            tasks.add(virtual.submit(() -> {
                if (Threads.VIRTUAL_THREADS && Threads.isVirtual(Thread.currentThread())) {
                    onVirtual.incrementAndGet();
                }
                Object x = pool.acquire();
                held.add(x);
                allHolding.countDown();
                allHolding.await();
                pool.release(x);
                return null;
            }));
        }
        for (Future<?> f : tasks) {
            f.get(60, TimeUnit.SECONDS);
        }
        return held.size();
    }

    @SuppressWarnings("unchecked")
    private static Collection<PrivateSlot> registry(UnboundedPool<?> pool) throws ReflectiveOperationException {
        Field f = UnboundedPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        return (Collection<PrivateSlot>) f.get(pool);
    }
}
