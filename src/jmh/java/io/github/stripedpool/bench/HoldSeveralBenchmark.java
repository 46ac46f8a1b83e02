package io.github.stripedpool.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
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
 * Each thread holds {@code held} objects at once: acquire them one after the other, touch each,
 * release them in reverse order (a request that needs a buffer and a second one while building
 * its answer). With 4 threads on 2 cores, threads are preempted while holding, so a pool whose
 * shared tier can lose track of idle objects keeps creating them. The score is rounds per
 * microsecond (one round acquires {@code held} objects); the {@code creations} and
 * {@code acquisitions} counters give objects created per acquisition, which must stay near 0 for
 * a pool (1 for plain allocation). The floor keeps one object per thread, so with {@code held}
 * objects it makes {@code held - 1} of them anew each round: it is a floor only for one object.
 * The floor for several ({@code floorStack}) keeps up to 8 per thread in a plain array: the limit
 * for every {@code held}, a usable pool's checks and bookkeeping included in none of it.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar HoldSeveralBenchmark -p held=2,4 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g",
        FastThreadExecutor.SELECT, FastThreadExecutor.CLASS})
@Threads(4)
public class HoldSeveralBenchmark {

    @Param({"striped", "stripedHooks", "floor", "floorStack", "netty", "stormpot", "concurrentBag",
            "commonsPool2", "alloc"})
    public String impl;

    /** Objects each thread holds at once. */
    @Param({"1", "2", "4", "8"})
    public int held;

    /** Bytes in the payload's buffer. */
    @Param({"64"})
    public int size;

    private Peer peer;
    /** Totals over the trial, added by each thread at the end of each iteration. */
    private final LongAdder creations = new LongAdder();
    private final LongAdder acquisitions = new LongAdder();

    /** Per-thread counts of one iteration, summed over threads by JMH. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Counters {
        /** Acquisitions that returned an object nobody had used before. */
        public long creations;
        /** Objects acquired. */
        public long acquisitions;
        Payload[] hand;

        @Setup(Level.Iteration)
        public void clear(HoldSeveralBenchmark b) {
            creations = 0;
            acquisitions = 0;
            hand = new Payload[b.held];
        }

        @TearDown(Level.Iteration)
        public void total(HoldSeveralBenchmark b) {
            b.creations.add(creations);
            b.acquisitions.add(acquisitions);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        peer = Peers.create(impl, size);
    }

    /**
     * Fails a peer that made an object on nearly every acquisition: it pooled nothing. A pool
     * that loses some objects is not failed here: its creations per acquisition are the result.
     */
    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            long made = creations.sum();
            long got = acquisitions.sum();
            if (!(peer instanceof AllocPeer) && got > 0 && made >= 0.9 * got) {
                throw new IllegalStateException(impl + " made an object on " + made + " of " + got
                        + " acquisitions: it did not pool");
            }
        } finally {
            peer.close();
        }
    }

    @Benchmark
    public void holdSeveral(Counters c, Blackhole bh) {
        Peer peer = this.peer;
        Payload[] hand = c.hand;
        int n = hand.length;
        for (int i = 0; i < n; i++) {
            Payload p = peer.acquire();
            if (p.fresh) {
                p.fresh = false;
                c.creations++;
            }
            Payload.touch(p, bh);
            hand[i] = p;
        }
        for (int i = n - 1; i >= 0; i--) {
            peer.release(hand[i]);
            hand[i] = null;
        }
        c.acquisitions += n;
    }
}
