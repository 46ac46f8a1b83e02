package io.github.stripedpool.bench;

import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The cost of leak detection on one cycle (acquire, {@link Payload#touch touch}, release), per
 * level: {@code none} is a pool built without mentioning leak detection (and with the system
 * property cleared), {@code disabled} one built with {@code LeakDetection.DISABLED}; both are the
 * bare engine, so they must not differ. {@code sampled} tracks one acquisition in 1024 (the
 * default), {@code paranoid} every one, with a stack trace at each acquisition and release.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar LeakDetectionBenchmark
 * java -jar target-jmh/benchmarks.jar LeakDetectionBenchmark -t 2 -prof gc
 * java -jar target-jmh/benchmarks.jar LeakDetectionBenchmark -p mode=sampled -p samplingInterval=128,1024,4096,1000000000
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class LeakDetectionBenchmark {

    @Param({"none", "disabled", "sampled", "paranoid"})
    public String mode;

    /**
     * One tracked acquisition in this many, for {@code sampled} only. 1024 is the default; a huge
     * value measures what the untracked path alone costs.
     */
    @Param({"1024"})
    public int samplingInterval;

    /** Bytes in the payload's buffer. */
    @Param({"64"})
    public int size;

    private Pool<Payload> pool;

    @Setup(Level.Trial)
    public void setUp() {
        int n = size;
        PoolBuilder<Payload> b = Pool.builder(() -> new Payload(n)).name("leak-bench-" + mode);
        switch (mode) {
            case "none":
                System.clearProperty("stripedpool.leakDetection");
                break;
            case "disabled":
                b.leakDetection(LeakDetection.DISABLED);
                break;
            case "sampled":
                b.leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(samplingInterval);
                break;
            case "paranoid":
                b.leakDetection(LeakDetection.PARANOID);
                break;
            default:
                throw new IllegalArgumentException("unknown mode " + mode);
        }
        pool = b.build();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (pool.stats().leaks() != 0) {
            throw new IllegalStateException("the benchmark leaked: " + pool.stats());
        }
        pool.close();
    }

    @Benchmark
    public Payload cycle(Blackhole bh) {
        Pool<Payload> pool = this.pool;
        Payload p = pool.acquire();
        Payload.touch(p, bh);
        pool.release(p);
        return p;
    }
}
