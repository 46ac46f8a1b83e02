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
 * it, with every thread sharing one pool. The rows:
 * <ul>
 *   <li>the library in each mode ({@link StripedPeer}): no hooks, a reset hook, a destroy hook,
 *       both, leak detection {@code SAMPLED} and {@code PARANOID};</li>
 *   <li>{@code floor} ({@link FloorPeer}): one plain slot per thread in a table indexed by thread
 *       id, the least code that reuses an object; no pool can be cheaper;</li>
 *   <li>{@code floorExact} ({@link FloorExactPeer}): the floor with the two compare-and-sets
 *       a destroy hook's exactly-once guarantee needs; no pool with that guarantee can be
 *       cheaper;</li>
 *   <li>{@code netty}: Netty 4.2's {@code Recycler} on the threads it pools on (every worker
 *       thread of this benchmark is a {@code FastThreadLocalThread}, see
 *       {@link FastThreadExecutor}); {@code stormpot}, {@code concurrentBag} (HikariCP),
 *       {@code commonsPool2}; {@code alloc}, a new payload every time.</li>
 * </ul>
 * After each trial a pool that made more than a few thousand objects fails the run: it measured
 * allocation, not pooling. Run at 1, 2, 4 and 8 threads: on a 2-core machine 4 and 8 are
 * oversubscribed, as servers often are.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar CycleBenchmark -t 2 -prof gc
 * java -jar target-jmh/benchmarks.jar CycleBenchmark -t 1 -f 2 -p impl=striped,netty,floor
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g",
        FastThreadExecutor.SELECT, FastThreadExecutor.CLASS})
public class CycleBenchmark {

    @Param({"striped", "stripedReset", "stripedDestroy", "stripedHooks", "stripedSampled", "stripedParanoid", "floor", "floorExact", "netty",
            "stormpot", "concurrentBag", "commonsPool2", "alloc"})
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
        try {
            Peers.checkPooled(impl, peer);
        } finally {
            peer.close();
        }
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
