package io.github.stripedpool.bench;

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
 * Scenario 5, objects held across a blocking call: many threads each acquire a payload, touch it,
 * park for {@code holdMicros} while holding it, then release it, so that many payloads are out at
 * once and a thread rarely finds the one it released last. This is the situation in which a pool
 * with only per-thread slots keeps creating objects. The measure is creations per cycle (the
 * {@code creations} and {@code cycles} counters of each iteration; 1 for plain allocation, 0 for
 * a pool that keeps enough objects), and the objects each peer made in the whole trial, printed at
 * the end of each fork.
 *
 * <p>{@code parkNanos} sleeps at least the timer slack of the OS (about 50 µs on Linux), so the
 * hold is longer than {@code holdMicros}; what matters is that the thread blocks while holding.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar BurstHoldBenchmark -t 16
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(16)
public class BurstHoldBenchmark {

    @Param({"striped", "alloc", "commonsPool2", "concurrentBag", "floor"})
    public String impl;

    /** Bytes in the payload's buffer. */
    @Param({"1024"})
    public int size;

    @Param({"5"})
    public int holdMicros;

    private Peer peer;
    private long holdNanos;

    /** Per-thread event counts of one iteration, summed over threads by JMH. */
    @State(Scope.Thread)
    @AuxCounters(AuxCounters.Type.EVENTS)
    public static class Creations {
        /** Cycles that got a payload nobody had used before. */
        public long creations;
        /** Cycles completed. */
        public long cycles;

        @Setup(Level.Iteration)
        public void clear() {
            creations = 0;
            cycles = 0;
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        peer = Peers.create(impl, size);
        holdNanos = TimeUnit.MICROSECONDS.toNanos(holdMicros);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        long made = peer.created();
        System.out.println();
        System.out.println("# " + impl + ": " + (made < 0 ? "one payload per cycle"
                : made + " payloads made in the whole trial"));
        peer.close();
    }

    @Benchmark
    public Payload holdAcrossBlockingCall(Creations counters, Blackhole bh) {
        Peer peer = this.peer;
        Payload p = peer.acquire();
        if (p.fresh) {
            p.fresh = false;
            counters.creations++;
        }
        Payload.touch(p, bh);
        BlockingHold.park(holdNanos);
        peer.release(p);
        counters.cycles++;
        return p;
    }
}
