package io.github.stripedpool.bench;

import io.github.stripedpool.Pool;
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
 * The cost of one pool operation against the number of objects the pool keeps: it must not grow
 * with it. One thread, nanoseconds per call:
 * <ul>
 *   <li>{@code cycle}: acquire, touch, release;</li>
 *   <li>{@code acquireTwo}: acquire two, touch both, release both. In a bounded pool the second
 *       acquire misses the thread's hint (the entry the first took), so it looks in the pool's
 *       shared structure: on the first call it finds nothing idle and creates, from then on it
 *       takes the other object the last call released. (An unbounded pool serves both from the
 *       thread's private slot and a spare entry.)</li>
 * </ul>
 * {@code engine}: {@code bounded} holds {@code objects} objects in use (acquired in the set-up,
 * never released) under {@code maxTotal(1_000_000)}; {@code boundedIdle} keeps {@code objects}
 * idle instead; {@code unbounded} keeps {@code objects} idle under {@code maxIdle(objects)}.
 * The goal: the cost at 64,000 objects within 2&times; of the cost at 64.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar ScalingBenchmark -f 2 -p objects=64,64000 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class ScalingBenchmark {

    @Param({"bounded", "boundedIdle", "unbounded"})
    public String engine;

    /** Objects the pool keeps besides the ones the benchmark cycles: in use or idle. */
    @Param({"10", "64", "1000", "64000", "100000"})
    public int objects;

    /** The pooled object: a field to touch. */
    static final class Item {
        long uses;
    }

    private Pool<Item> pool;
    /** The objects held in use for the whole trial ({@code bounded}). */
    private Item[] held;

    @Setup(Level.Trial)
    public void setUp() {
        switch (engine) {
            case "bounded":
            case "boundedIdle":
                pool = Pool.builder(Item::new).maxTotal(1_000_000).name("scaling").build();
                break;
            case "unbounded":
                pool = Pool.builder(Item::new).maxIdle(objects).name("scaling").build();
                break;
            default:
                throw new IllegalArgumentException("engine " + engine);
        }
        held = new Item[objects];
        for (int i = 0; i < objects; i++) {
            held[i] = pool.acquire();
        }
        if (!engine.equals("bounded")) {
            for (Item x : held) {
                pool.release(x);
            }
            held = null;
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (held != null) {
            for (Item x : held) {
                pool.release(x);
            }
        }
        pool.close();
    }

    @Benchmark
    public void cycle(Blackhole bh) {
        Pool<Item> pool = this.pool;
        Item a = pool.acquire();
        bh.consume(++a.uses);
        pool.release(a);
    }

    @Benchmark
    public void acquireTwo(Blackhole bh) {
        Pool<Item> pool = this.pool;
        Item a = pool.acquire();
        Item b = pool.acquire();
        bh.consume(++a.uses + ++b.uses);
        pool.release(a);
        pool.release(b);
    }
}
