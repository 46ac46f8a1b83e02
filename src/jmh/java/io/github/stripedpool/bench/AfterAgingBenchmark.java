package io.github.stripedpool.bench;

import io.github.stripedpool.Pool;
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
 * The unbounded pool's cost does not grow with {@code maxIdle}: the first 64 rounds after an
 * aging cycle, each holding 4 objects at once (so two of them go through the shared stripes),
 * timed as one shot at {@code maxIdle} 1,024, 1,048,576 and 16,777,216 with the same 8 objects
 * in the pool. Right after a cycle every idle object is a victim; a stripe that looked for a
 * young object by visiting every slot paid for the whole stripe on each such acquisition,
 * milliseconds at the largest {@code maxIdle} against microseconds at the smallest. The score is
 * the time of the 64 rounds; the rows are to be compared with each other (same run).
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar AfterAgingBenchmark -f 2
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 10)
@Measurement(iterations = 30)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class AfterAgingBenchmark {
    private static final int ROUNDS = 64;
    private static final int HELD = 4;
    private static final int OBJECTS = 8;

    @Param({"1024", "1048576", "16777216"})
    public int maxIdle;

    private Pool<Payload> pool;
    private final Payload[] held = new Payload[HELD];

    @Setup(Level.Trial)
    public void setUp() {
        pool = Pool.builder(() -> new Payload(64)).maxIdle(maxIdle).agingInterval(Duration.ZERO)
                .name("after-aging").build();
        Payload[] all = new Payload[OBJECTS];
        for (int i = 0; i < OBJECTS; i++) {
            all[i] = pool.acquire();
        }
        for (Payload p : all) {
            pool.release(p);
        }
    }

    /** One aging cycle before each shot: every idle object becomes a victim. */
    @Setup(Level.Iteration)
    public void age() {
        long before = pool.stats().agingCycles();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (pool.stats().agingCycles() == before) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no aging cycle within 30 s: " + pool.stats());
            }
            System.gc();
            Thread.onSpinWait();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long created = pool.stats().created();
        pool.close();
        if (created > 4L * OBJECTS) {
            throw new IllegalStateException("the pool made " + created + " objects: aging dropped "
                    + "the working set, so this measured the factory, not the stripes");
        }
    }

    @Benchmark
    public void roundsAfterAging(Blackhole bh) {
        final Pool<Payload> pool = this.pool;
        final Payload[] held = this.held;
        for (int r = 0; r < ROUNDS; r++) {
            for (int k = 0; k < HELD; k++) {
                held[k] = pool.acquire();
                Payload.touch(held[k], bh);
            }
            for (int k = HELD - 1; k >= 0; k--) {
                pool.release(held[k]);
            }
        }
    }
}
