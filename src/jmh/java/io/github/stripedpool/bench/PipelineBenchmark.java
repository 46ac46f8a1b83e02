package io.github.stripedpool.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
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
import org.openjdk.jmh.infra.Control;

/**
 * A pipeline: a reader thread acquires a payload, fills it and hands it to a writer thread,
 * which uses it and releases it. Every object is acquired on one thread and released on
 * another, the path where a pool's per-thread tier does not help: the striped pool's releases go
 * to the writer's slot and the stripes, where the reader finds them; Netty's Recycler sends each
 * object back through a queue to the thread that made it. The hand-off is a 64-entry ring of
 * the benchmark's own (single producer, single consumer, no allocation), the same for every
 * peer. JMH scores the group as the sum of both threads' operations, twice the objects through
 * the pipeline: the objects per microsecond are the {@code :reader} row (the writer's is the
 * same, give or take the ring). The {@code creations} counter over {@code acquisitions} must
 * stay near 0 for a pool.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar PipelineBenchmark -p impl=striped,netty -prof gc
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g",
        FastThreadExecutor.SELECT, FastThreadExecutor.CLASS})
public class PipelineBenchmark {
    private static final int RING = 64;

    @Param({"striped", "stripedHooks", "netty", "stormpot", "concurrentBag", "alloc"})
    public String impl;

    /** Bytes in the payload's buffer. */
    @Param({"64"})
    public int size;

    private Peer peer;
    private final AtomicReferenceArray<Payload> ring = new AtomicReferenceArray<>(RING);
    /** Written by the reader only, read by the writer. */
    private final AtomicLong produced = new AtomicLong();
    /** Written by the writer only, read by the reader. */
    private final AtomicLong consumed = new AtomicLong();
    /** Objects the reader saw fresh from a factory, and all it acquired; reader only. */
    private long creations;
    private long acquisitions;

    @Setup(Level.Trial)
    public void setUp() {
        peer = Peers.create(impl, size);
    }

    @TearDown(Level.Iteration)
    public void drain() {
        // Both threads have stopped: give back what is still in the ring.
        for (long i = consumed.get(); i < produced.get(); i++) {
            int k = (int) (i % RING);
            peer.release(ring.getAndSet(k, null));
        }
        consumed.set(produced.get());
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        try {
            if (!(peer instanceof AllocPeer) && acquisitions > 0 && creations >= 0.9 * acquisitions) {
                throw new IllegalStateException(impl + " made an object on " + creations + " of "
                        + acquisitions + " acquisitions: it did not pool");
            }
            System.out.println("\n" + impl + ": created per acquisition "
                    + (acquisitions == 0 ? "n/a" : String.valueOf((double) creations / acquisitions)));
        } finally {
            peer.close();
        }
    }

    @Benchmark
    @Group("pipeline")
    @GroupThreads(1)
    public void reader(Control control, Blackhole bh) {
        long p = produced.get();
        while (p - consumed.get() >= RING) { // full: wait for the writer
            if (control.stopMeasurement) {
                return;
            }
            Thread.yield(); // the other thread may not be running: let it
        }
        Payload x = peer.acquire();
        if (x.fresh) {
            x.fresh = false;
            creations++;
        }
        acquisitions++;
        Payload.touch(x, bh);
        ring.lazySet((int) (p % RING), x);
        produced.lazySet(p + 1);
    }

    @Benchmark
    @Group("pipeline")
    @GroupThreads(1)
    public void writer(Control control, Blackhole bh) {
        long c = consumed.get();
        while (produced.get() == c) { // empty: wait for the reader
            if (control.stopMeasurement) {
                return;
            }
            Thread.yield(); // the other thread may not be running: let it
        }
        int k = (int) (c % RING);
        Payload x = ring.get(k);
        ring.lazySet(k, null);
        bh.consume(x.data[0]);
        peer.release(x);
        consumed.lazySet(c + 1);
    }
}
