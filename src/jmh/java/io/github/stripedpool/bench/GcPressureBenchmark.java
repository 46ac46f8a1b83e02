package io.github.stripedpool.bench;

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
 * Scenario 2, the cycle under the garbage collector: payload sizes from 64 B to 256 KiB, with no
 * other live data or with a live set of about half the heap, under G1, Parallel and ZGC, each in
 * forks of a fixed 1 GiB heap. The collector is a benchmark method rather than a parameter
 * because it is a JVM flag of the fork.
 *
 * <p>Run it with {@code -prof gc}: besides throughput, {@code gc.alloc.rate.norm} (B/op) shows
 * what the pool saves, and {@code gc.count} and {@code gc.time} show what the collector did. A
 * pool lowers allocation but keeps its objects live; where the heap is tight that can change how
 * often the collector runs (the effect one of the project's seed documents reports for a Go
 * database), so both are reported.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar GcPressureBenchmark -prof gc
 * java -jar target-jmh/benchmarks.jar 'GcPressureBenchmark.g1' -p size=16384 -p liveSet=half -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class GcPressureBenchmark {
    /** Bytes per object of the live set: many small objects, as an application's heap holds. */
    private static final int LIVE_OBJECT_BYTES = 1024;

    @Param({"striped", "alloc", "commonsPool2", "concurrentBag", "floor"})
    public String impl;

    /** Bytes in the payload's buffer. */
    @Param({"64", "1024", "16384", "262144"})
    public int size;

    /** {@code none}, or {@code half}: objects retained for the whole trial, half the max heap. */
    @Param({"none", "half"})
    public String liveSet;

    private Peer peer;
    private Object[] retained;

    @Setup(Level.Trial)
    public void setUp() {
        peer = Peers.create(impl, size);
        if ("half".equals(liveSet)) {
            long bytes = Runtime.getRuntime().maxMemory() / 2;
            int n = (int) (bytes / (LIVE_OBJECT_BYTES + 16));
            retained = new Object[n];
            for (int i = 0; i < n; i++) {
                retained[i] = new byte[LIVE_OBJECT_BYTES];
            }
        } else if (!"none".equals(liveSet)) {
            throw new IllegalArgumentException("liveSet must be none or half, got " + liveSet);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        peer.close();
        retained = null;
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseG1GC"})
    public Payload g1(Blackhole bh) {
        return cycle(bh);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseParallelGC"})
    public Payload parallel(Blackhole bh) {
        return cycle(bh);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+UseZGC"})
    public Payload zgc(Blackhole bh) {
        return cycle(bh);
    }

    private Payload cycle(Blackhole bh) {
        Peer peer = this.peer;
        Payload p = peer.acquire();
        Payload.touch(p, bh);
        peer.release(p);
        return p;
    }
}
