package io.github.stripedpool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Cost against the number of threads that have used the pool: 10 or 10,000 live platform
 * threads, each of which acquired and released once (so each has its private slot, or its
 * bounded thread-local entry, registered in the pool), and stay alive, parked, through the
 * measurement. Measured on the benchmark's own thread, which used the pool first:
 * <ul>
 *   <li>{@code cycle}: acquire and release one object. Must not grow with the threads: the
 *       lookup is the thread's own table entry (or its {@code ThreadLocal} after a collision);
 *       nothing on the path visits other threads' slots.</li>
 *   <li>{@code backgroundCycle}: one aging cycle of the unbounded pool, forced, or one
 *       maintenance run of the bounded pool (whose {@code maxTotal} is the threads plus 64). Both
 *       visit every registered slot or every entry by design, on a background thread, at most
 *       once per {@code agingInterval} or maintenance period: their cost grows with the threads,
 *       and this says by how much, so that "off the acquire and release path" comes with a
 *       number.</li>
 * </ul>
 * Lives in the library's package to force those cycles.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar ThreadCountBenchmark -f 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Threads(1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ThreadCountBenchmark {
    @Param({"10", "10000"})
    public int threads;

    @Param({"unbounded", "bounded"})
    public String engine;

    private Pool<byte[]> pool;
    private final List<Thread> others = new ArrayList<>();
    private final CountDownLatch end = new CountDownLatch(1);
    private long clock;

    @Setup(Level.Trial)
    public void setUp() throws InterruptedException {
        PoolBuilder<byte[]> b = Pool.builder(() -> new byte[64])
                .agingInterval(Duration.ofDays(1000)).leakDetection(LeakDetection.DISABLED)
                .name("thread-count");
        if (engine.equals("bounded")) {
            b.maxTotal(threads + 64);
        }
        pool = b.build();
        pool.release(pool.acquire()); // this thread first: its table entry is its own
        CountDownLatch registered = new CountDownLatch(threads - 1);
        for (int i = 1; i < threads; i++) {
            Thread t = new Thread(() -> {
                pool.release(pool.acquire());
                registered.countDown();
                try {
                    end.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "user-" + i);
            t.setDaemon(true);
            t.start();
            others.add(t);
        }
        if (!registered.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException("the threads did not all use the pool");
        }
        clock = System.nanoTime();
    }

    @TearDown(Level.Trial)
    public void tearDown() throws InterruptedException {
        end.countDown();
        for (Thread t : others) {
            t.join();
        }
        pool.close();
    }

    @Benchmark
    public void cycle(Blackhole bh) {
        byte[] x = pool.acquire();
        x[0]++;
        bh.consume(x);
        pool.release(x);
    }

    @Benchmark
    public void backgroundCycle() {
        if (pool instanceof UnboundedPool) {
            clock += Duration.ofDays(1001).toNanos(); // past the interval: the cycle runs now
            ((UnboundedPool<byte[]>) pool).onGarbageCollection(clock);
        } else {
            ((BoundedPool<byte[]>) pool).maintenance().run();
        }
    }
}
