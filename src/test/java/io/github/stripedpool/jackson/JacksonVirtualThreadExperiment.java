package io.github.stripedpool.jackson;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.TestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * ObjectMapper round trips on thousands of virtual threads, alone ({@code virtual}) and beside
 * platform threads on the same mapper ({@code mixed}), over a pool of {@link ExclusiveRecycler}s.
 * Prints one line per scenario, starting with {@value #RESULT}, of {@code key=value} figures
 * counted after the warm-up.
 *
 * <p>Compiled at Java 17, so virtual threads are reached by reflection; needs a JDK 21+ to run.
 * {@link JacksonVirtualThreadTest} runs it in process, or in a child JVM through {@link #main}.
 */
final class JacksonVirtualThreadExperiment {
    static final String RESULT = "jackson-virtual-threads:";
    static final int VIRTUAL_THREADS = 2000;
    static final int TRIPS_PER_VIRTUAL_THREAD = 3;
    static final int PLATFORM_THREADS = 2;
    static final int TRIPS_PER_PLATFORM_THREAD = 500;

    private JacksonVirtualThreadExperiment() {
    }

    public static void main(String[] args) throws Exception {
        for (String line : run()) {
            System.out.println(line);
        }
    }

    static List<String> run() throws InterruptedException {
        return List.of(scenario("virtual", 0), scenario("mixed", PLATFORM_THREADS));
    }

    private static String scenario(String name, int platformThreads) throws InterruptedException {
        Queue<String> violations = new ConcurrentLinkedQueue<>();
        StripedRecyclerPool pool = new StripedRecyclerPool(() -> new ExclusiveRecycler(violations),
                b -> b.name("json-" + name));
        try {
            ObjectMapper mapper = Documents.mapper(pool);
            // Warm: the first round trip builds the mapper's serializers, and threads that block
            // on that meanwhile hold a recycler each. The figures are those of a warm mapper.
            Documents.roundTrip(mapper, -1);
            PoolStats warm = pool.stats();
            AtomicInteger finished = new AtomicInteger();
            AtomicInteger failures = new AtomicInteger();
            Queue<Throwable> firstFailures = new ConcurrentLinkedQueue<>();
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < platformThreads; t++) {
                long first = 1_000_000L * (t + 1);
                Thread platform = new Thread(() -> trips(mapper, first, TRIPS_PER_PLATFORM_THREAD,
                        finished, failures, firstFailures), "platform-" + t);
                platform.start();
                threads.add(platform);
            }
            for (int v = 0; v < VIRTUAL_THREADS; v++) {
                long first = (long) v * TRIPS_PER_VIRTUAL_THREAD;
                threads.add(TestSupport.startVirtual(() -> trips(mapper, first, TRIPS_PER_VIRTUAL_THREAD,
                        finished, failures, firstFailures)));
            }
            for (Thread t : threads) {
                t.join();
            }
            PoolStats s = pool.stats();
            Throwable failure = firstFailures.peek();
            if (failure != null) {
                failure.printStackTrace(System.out);
            }
            violations.stream().limit(5).forEach(System.out::println);
            return RESULT + " scenario=" + name + " threads=" + threads.size()
                    + " finished=" + finished.get() + " failures=" + failures.get()
                    + " violations=" + violations.size() + " acquired=" + (s.acquired() - warm.acquired())
                    + " released=" + (s.released() - warm.released()) + " inUse=" + s.inUse()
                    + " created=" + (s.created() - warm.created())
                    + " privateHits=" + (s.privateHits() - warm.privateHits())
                    + " dropped=" + (s.dropped() - warm.dropped())
                    + " agingCycles=" + (s.agingCycles() - warm.agingCycles())
                    + " trims=" + (s.trims() - warm.trims())
                    + " stolenHits=" + (s.stolenHits() - warm.stolenHits());
        } finally {
            pool.pool().close();
        }
    }

    private static void trips(ObjectMapper mapper, long first, int n, AtomicInteger finished,
            AtomicInteger failures, Queue<Throwable> firstFailures) {
        try {
            for (int i = 0; i < n; i++) {
                Documents.roundTrip(mapper, first + i);
            }
            finished.incrementAndGet();
        } catch (Throwable e) {
            failures.incrementAndGet();
            firstFailures.add(e);
        }
    }

    /** The figure {@code key} of a result line. */
    static long value(String line, String key) {
        for (String kv : line.substring(RESULT.length()).trim().split(" ")) {
            String[] p = kv.split("=", 2);
            if (p[0].equals(key)) {
                return Long.parseLong(p[1]);
            }
        }
        throw new IllegalArgumentException("no " + key + " in " + line);
    }
}
