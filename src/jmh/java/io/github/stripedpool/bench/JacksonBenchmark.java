package io.github.stripedpool.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Jackson's own workload with each recycler pool: an ObjectMapper writes a 3 KB document to bytes
 * and reads it back ({@link JacksonWorkload}), one request per operation, so that the scores are
 * requests per millisecond and {@code -prof gc}'s {@code gc.alloc.rate.norm} is the garbage of a
 * request, recyclers included.
 *
 * <ul>
 *   <li>{@code platform}: each JMH thread makes requests in a loop; run it with {@code -t 1},
 *       {@code -t 2}, {@code -t 4};</li>
 *   <li>{@code virtual100}, {@code virtual10000}: one virtual thread per request, 100 or 10,000
 *       started at once and joined, as a server with a thread per request does (JDK 21+; run
 *       with {@code -t 1}). Jackson's thread-local pool makes a recycler for every virtual
 *       thread here.</li>
 * </ul>
 *
 * <p>{@code pool}: Jackson's four pools, this library's, {@code nonRecycling} (a new recycler
 * each time) and {@code floor} ({@link CarrierRecyclerFloor}: one recycler per carrier thread in
 * a plain slot, the least any pool can cost here; its distance from the best pool bounds what any
 * pool can still gain on this workload).
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar 'JacksonBenchmark.platform' -t 2 -prof gc
 * java -jar target-jmh/benchmarks.jar 'JacksonBenchmark.virtual' -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g",
        "--add-opens=java.base/java.lang=ALL-UNNAMED"}) // for the floor's carrier thread only
public class JacksonBenchmark {
    @Param({"threadLocal", "lockFree", "concurrentDeque", "bounded", "striped", "nonRecycling", "floor"})
    public String pool;

    private ObjectMapper mapper;
    private JacksonWorkload.Page page;

    @Setup
    public void setUp() {
        mapper = JacksonWorkload.mapper(JacksonWorkload.pool(pool));
        page = JacksonWorkload.page();
        JacksonWorkload.request(mapper, page); // fails here, not in the measurement, if broken
    }

    @Benchmark
    public int platform() {
        return JacksonWorkload.request(mapper, page);
    }

    @Benchmark
    @OperationsPerInvocation(100)
    public long virtual100() throws Exception {
        return onVirtualThreads(100);
    }

    @Benchmark
    @OperationsPerInvocation(10_000)
    public long virtual10000() throws Exception {
        return onVirtualThreads(10_000);
    }

    /** Starts {@code n} virtual threads of one request each, waits for all; the bytes written. */
    private long onVirtualThreads(int n) throws Exception {
        ExecutorService executor = ConnectionPoolShape.VirtualThreadExecutor.create();
        long bytes = 0;
        try {
            List<Future<Integer>> requests = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                requests.add(executor.submit(() -> JacksonWorkload.request(mapper, page)));
            }
            for (Future<Integer> r : requests) {
                bytes += r.get();
            }
        } finally {
            executor.shutdown();
        }
        return bytes;
    }
}
