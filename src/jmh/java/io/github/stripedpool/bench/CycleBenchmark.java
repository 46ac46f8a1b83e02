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
 * Scenario 1, the cost of one cycle: acquire a payload, {@link Payload#touch touch} it, release
 * it, with every thread sharing one pool. Plain allocation does the same work on a new payload;
 * {@code threadLocal} is the floor no thread-local pool can beat. Run at 1, 2, 4 and 8 threads:
 * on a 2-core machine 4 and 8 are oversubscribed, as servers often are.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar CycleBenchmark -t 2 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:+AlwaysPreTouch"})
public class CycleBenchmark {

    @Param({"striped", "alloc", "commonsPool2", "concurrentBag", "threadLocal"})
    public String impl;

    /** Bytes in the payload's buffer. */
    @Param({"64"})
    public int size;

    private Peer peer;

    @Setup(Level.Trial)
    public void setUp() {
        peer = Peers.create(impl, size);
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        peer.close();
    }

    @Benchmark
    public Payload cycle(Blackhole bh) {
        Peer peer = this.peer;
        Payload p = peer.acquire();
        Payload.touch(p, bh);
        peer.release(p);
        return p;
    }
}
