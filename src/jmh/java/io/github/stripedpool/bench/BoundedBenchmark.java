package io.github.stripedpool.bench;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Bounded pools under contention: 4 threads share a pool capped at 2 objects, so that two
 * threads always wait. Two scenarios:
 * <ul>
 *   <li>{@code acquireHoldRelease}: acquire, work for {@code holdTokens} of
 *       {@link Blackhole#consumeCPU} while holding the object, release;</li>
 *   <li>{@code tightLoop}: acquire, touch, release and acquire again at once, no work while
 *       holding and none between cycles: the loop in which a pool that lets the releasing thread
 *       take its object straight back can starve the other threads.</li>
 * </ul>
 * Throughput is cycles per microsecond for all threads together; {@code SampleTime} gives the
 * distribution of one cycle (the wait for an object, the hold and the release), whose p99 and
 * maximum are the wait. The {@code ceiling} row is no pool at all (every thread works on an object
 * of its own): on 2 cores with a cap of 2, the most any pool can reach. Every pool waits at most {@link #WAIT}; a wait that runs out is counted in
 * the {@code timeouts} counter, a result, and the thread goes on. The peers are in
 * {@link BoundedPeers}.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar BoundedBenchmark -f 1 -wi 2 -i 3 -r 1s
 * java -jar target-jmh/benchmarks.jar 'BoundedBenchmark.tightLoop' -bm sample -p impl=striped,stormpot
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(4)
public class BoundedBenchmark {
    /** The cap of every pool: half the thread count, so that half the threads wait. */
    static final int MAX_TOTAL = 2;
    /**
     * The longest any acquire waits: a thousand times the longest hold here, short enough that
     * a starved thread shows up as timeouts within one iteration.
     */
    static final Duration WAIT = Duration.ofSeconds(1);

    @Param({"striped", "concurrentBag", "commonsPool2", "vibur", "stormpot", "ceiling"})
    public String impl;

    /** Bytes in each pooled payload. */
    @Param({"1024"})
    public int size;

    private BoundedPeers.Blocking peer;

    /** The work done while holding, for {@code acquireHoldRelease} only. */
    @State(Scope.Benchmark)
    public static class Hold {
        /**
         * 100 tokens are a few hundred nanoseconds (a cheap native call), 1000 a few
         * microseconds (closer to real use of an expensive resource).
         */
        @Param({"100", "1000"})
        public int holdTokens;
    }

    /** Per-thread count of waits that ran out, summed over threads by JMH. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Waits {
        /** Acquires that found no object within {@link #WAIT}. */
        public long timeouts;

        @Setup(Level.Iteration)
        public void clear() {
            timeouts = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        peer = BoundedPeers.create(impl, size, MAX_TOTAL, WAIT);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        peer.close();
    }

    @Benchmark
    public void acquireHoldRelease(Hold hold, Waits waits, Blackhole bh) throws Exception {
        cycle(hold.holdTokens, waits, bh);
    }

    @Benchmark
    public void tightLoop(Waits waits, Blackhole bh) throws Exception {
        cycle(0, waits, bh);
    }

    /** One cycle, holding the object for {@code tokens} of CPU work (none if 0). */
    private void cycle(int tokens, Waits waits, Blackhole bh) throws Exception {
        BoundedPeers.Blocking peer = this.peer;
        Payload p = peer.acquire();
        if (p == null) {
            waits.timeouts++;
            return;
        }
        Payload.touch(p, bh);
        if (tokens > 0) {
            Blackhole.consumeCPU(tokens);
        }
        peer.release(p);
    }
}
