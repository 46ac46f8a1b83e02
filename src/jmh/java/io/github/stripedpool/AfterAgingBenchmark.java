package io.github.stripedpool;

import java.time.Duration;
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
 * The unbounded pool's cost must not grow with {@code maxIdle}: a round that holds
 * {@code PrivateSlot.SPARES + 3} objects at once (the private slot and its spare entries keep all
 * but two, which go through the shared stripes) right after an aging cycle has made every
 * idle object a victim, at {@code maxIdle} 1,024, 1,048,576 and 16,777,216 with the same 16
 * objects in the pool. A stripe that looked for a young object by visiting every slot paid for
 * the whole stripe on each such acquisition: milliseconds at the largest {@code maxIdle}
 * against nanoseconds at the smallest.
 *
 * <p>Each operation starts a new aging epoch the way an aging cycle does, by advancing the
 * pool's epoch, but without the cycle's sweep (which visits every slot by design, on a
 * background thread, at most once per {@code agingInterval}): the operation then measures the
 * acquisitions and releases alone. Lives in the library's package to reach the epoch.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar AfterAgingBenchmark -f 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AfterAgingBenchmark {
    private static final int HELD = PrivateSlot.SPARES + 3;
    private static final int OBJECTS = HELD + 6;

    @Param({"1024", "1048576", "16777216"})
    public int maxIdle;

    private UnboundedPool<byte[]> pool;
    private final byte[][] held = new byte[HELD][];

    @Setup(Level.Trial)
    public void setUp() {
        pool = new UnboundedPool<>(Pool.builder(() -> new byte[64]).maxIdle(maxIdle)
                .agingInterval(Duration.ofDays(1000)).leakDetection(LeakDetection.DISABLED).settings("after-aging"));
        byte[][] all = new byte[OBJECTS][];
        for (int i = 0; i < OBJECTS; i++) {
            all[i] = pool.acquire();
        }
        for (byte[] b : all) {
            pool.release(b);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long created = pool.stats().created();
        pool.close();
        if (created > OBJECTS) {
            throw new IllegalStateException("the pool made " + created + " objects: this measured "
                    + "the factory, not the stripes");
        }
    }

    @Benchmark
    public void roundAfterAging(Blackhole bh) {
        final UnboundedPool<byte[]> pool = this.pool;
        pool.epoch++; // every idle object is now a victim, as after an aging cycle
        final byte[][] held = this.held;
        for (int k = 0; k < HELD; k++) {
            byte[] b = pool.acquire();
            b[0]++;
            bh.consume(b);
            held[k] = b;
        }
        for (int k = HELD - 1; k >= 0; k--) {
            pool.release(held[k]);
        }
    }
}
