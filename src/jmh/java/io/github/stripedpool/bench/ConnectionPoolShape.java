package io.github.stripedpool.bench;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Bounded pools in the shape connection pools have: many threads (or virtual threads) on a few
 * objects, each held across a parked wait as a socket read would be, plus a little CPU. A plain
 * harness rather than JMH, because what matters here is per thread and per wait: the share of
 * acquisitions each thread got (Jain's fairness index), the distribution of the waits themselves
 * (not of whole cycles), timeouts, and virtual threads by the thousand, one per request.
 *
 * <p>Each scenario runs every peer of {@link BoundedPeers} in rounds, in the same JVM, the order
 * of the peers rotated each round; each run has a warm-up and then a measured window. The rate
 * and the shares count the acquires served inside the window; the waits and timeouts, those that
 * began inside it, however late they end. (Counting the rate by start added what was served up to
 * a timeout after the window: where waits reach the 1 s timeout, up to half a window more, beyond
 * what the objects can serve.) On 2 cores two runs of one peer can differ by
 * 2×, so a row gives the median of its rounds and their range, and striped-pool's ratio to a
 * peer is taken within each round. A scenario where no thread ever waits also runs
 * {@code ceiling} (no pool: each thread has an object of its own), the harness's own limit.
 * Scenarios:
 * <ul>
 *   <li><b>platform</b>: 64 platform threads on {@code maxTotal} 8, holds of 50 µs, 500 µs and
 *       5 ms parked plus about a microsecond of CPU;</li>
 *   <li><b>virtual</b>: 1,000 and 10,000 virtual threads on 16 objects, the same holds (JDK 21+);</li>
 *   <li><b>virtual-tight</b>: 2,000 virtual threads on 50 objects, no hold: a borrow and a return
 *       back to back (JDK 21+);</li>
 *   <li><b>burst</b>: 4 platform threads on 8 objects, holds of 500 µs, then 32 threads (4× the
 *       cap) for one second, then 4 again: timeouts, the longest wait, how long the queue takes
 *       to drain once the burst ends, and the objects made.</li>
 * </ul>
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.github.stripedpool.bench.ConnectionPoolShape
 * quick|full|smoke [output.md [scenario-regex [peers]]]}, peers comma-separated. Full: every
 * scenario above, 5 rounds of 1 s of warm-up and 2 s measured (about 13 minutes on 2 cores);
 * quick: holds of 500 µs on platform threads and 50 µs on 1,000 virtual threads, the tight loop
 * and the burst, 3 rounds of 0.5 s and 1 s (about 2 minutes); smoke: one round of 100 ms and
 * 100 ms, to prove the code runs. {@code -Dshape.holds=50000,500000} replaces the holds of the
 * mode (nanoseconds) in the platform and virtual scenarios, to measure one hold alone.
 */
public final class ConnectionPoolShape {
    /** How long an acquire waits before it counts as a timeout. */
    static final Duration WAIT = Duration.ofSeconds(1);
    static final String[] PEERS = {"striped", "concurrentBag", "commonsPool2", "stormpot", "vibur"};

    private ConnectionPoolShape() {
    }

    /** One row of a table: a peer under one load. */
    record Load(String scenario, boolean virtual, int threads, int cap, long holdNanos, long cpuTokens) {
        String describe() {
            return threads + (virtual ? " virtual" : " platform") + " threads on " + cap
                    + " objects, hold " + (holdNanos == 0 ? "none" : Format.nanos(holdNanos));
        }
    }

    /** Overrides the holds of the mode: nanoseconds, comma-separated. */
    static final String HOLDS_PROPERTY = "shape.holds";

    static long[] holds(String list) {
        try {
            long[] holds = java.util.Arrays.stream(list.split(",")).map(String::trim).mapToLong(Long::parseLong).toArray();
            for (long h : holds) {
                if (h <= 0) {
                    throw new NumberFormatException("not positive: " + h);
                }
            }
            return holds;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("-D" + HOLDS_PROPERTY + "=" + list + ": give holds in nanoseconds, "
                    + "positive and comma-separated, e.g. -D" + HOLDS_PROPERTY + "=50000,500000", e);
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "quick";
        Duration warm;
        Duration measure;
        int rounds;
        switch (mode) {
            case "smoke": warm = Duration.ofMillis(100); measure = Duration.ofMillis(100); rounds = 1; break;
            case "quick": warm = Duration.ofMillis(500); measure = Duration.ofSeconds(1); rounds = 3; break;
            case "full": warm = Duration.ofSeconds(1); measure = Duration.ofSeconds(2); rounds = 5; break;
            default: throw new IllegalArgumentException(
                    "usage: ConnectionPoolShape quick|full|smoke [output.md [scenario-regex [peers]]]");
        }
        java.util.regex.Pattern only = java.util.regex.Pattern.compile(args.length > 2 ? args[2] : ".*");
        String[] peers = args.length > 3 ? args[3].split(",") : PEERS;
        boolean smoke = mode.equals("smoke");
        boolean full = mode.equals("full");
        List<Load> loads = new ArrayList<>();
        // smoke: one of each kind, to prove the code; quick: the middle hold; full: every hold
        long[] holds = full ? new long[] {50_000, 500_000, 5_000_000} : new long[] {smoke ? 50_000 : 500_000};
        if (System.getProperty(HOLDS_PROPERTY) != null) {
            holds = holds(System.getProperty(HOLDS_PROPERTY));
        }
        for (long hold : holds) {
            loads.add(new Load("platform", false, 64, 8, hold, 100));
        }
        boolean virtualThreads = VirtualThreadExecutor.available();
        if (virtualThreads) {
            for (int n : full ? new int[] {1_000, 10_000} : new int[] {1_000}) {
                for (long hold : full ? holds : new long[] {50_000}) {
                    loads.add(new Load("virtual", true, n, 16, hold, 100));
                }
            }
            loads.add(new Load("virtual-tight", true, 2_000, 50, 0, 0));
        }
        StringBuilder md = new StringBuilder();
        PrintStream out = System.out;
        out.println("# Connection-pool shape (" + mode + "), " + Runtime.version() + ", "
                + Runtime.getRuntime().availableProcessors() + " processors");
        md.append("Generated by `ConnectionPoolShape ").append(mode).append("` on JDK ")
                .append(Runtime.version()).append(", ").append(Runtime.getRuntime().availableProcessors())
                .append(" processors; warm-up ").append(Format.millis(warm)).append(", measured ")
                .append(Format.millis(measure)).append(" per run, ").append(rounds)
                .append(rounds == 1 ? " round" : " rounds").append(" per peer, the order of the peers rotated each round.\n\n")
                .append("Each thread loops: acquire (waiting at most ").append(Format.millis(WAIT))
                .append("), hold (parked, as across a socket read, plus about a microsecond of CPU), release. ")
                .append("*acquisitions/s* counts those served inside the measured window; the waits are those ")
                .append("of the acquire call alone, for the calls that began inside the window, however late they ")
                .append("ended, in log-linear buckets (within 12.5 %); *timeouts* are those of them ")
                .append("that gave up. *Jain's index* is (Σx)² / (n·Σx²) over the acquisitions of each thread: ")
                .append("1 when every thread got the same share, 1/n when one thread got them all. ")
                .append("*least-served thread ÷ mean*: 0 means some thread got no object at all. ")
                .append("*acquisitions/s* is the median of the rounds [lowest–highest]; the waits and timeouts ")
                .append("are those of every round together; Jain's index and the least-served share are the worst ")
                .append("round's. A verdict's ratio is striped-pool's throughput over the fastest peer's (by median) ")
                .append("within each round: the median of the rounds [lowest–highest]. ")
                .append("In the tight loop (no hold) each virtual thread yields after its release, as a request's ")
                .append("own I/O would let the others run; no thread waits there (50 objects, a few carriers), so ")
                .append("which virtual threads run, and how often, is the scheduler's choice: the *ceiling* row, ")
                .append("no pool at all, shows that choice and the harness's own limit.\n\n");
        if (!virtualThreads) {
            String skip = "Virtual-thread scenarios skipped: this JDK (" + Runtime.version()
                    + ") has no virtual threads; run on JDK 21 or newer.";
            out.println(skip);
            md.append(skip).append("\n\n");
        }
        String table = null;
        for (Load load : loads) {
            if (!only.matcher(load.scenario()).matches()) {
                continue;
            }
            String heading = "**" + load.scenario() + ": " + load.describe() + "**";
            if (!heading.equals(table)) {
                table = heading;
                md.append(heading).append("\n\n").append(ShapeResult.HEADER);
                out.println(heading);
            }
            List<String> rowPeers = new ArrayList<>(List.of(peers));
            if (load.holdNanos() == 0 && !rowPeers.contains("ceiling")) {
                rowPeers.add("ceiling"); // no thread waits here: the harness's own limit is the reference
            }
            List<ShapeResult> rows = measure(rowPeers, load, warm, measure, rounds, out);
            for (ShapeResult r : rows) {
                md.append(r.row()).append('\n');
            }
            md.append('\n').append(ShapeResult.verdict(rows)).append("\n\n");
            out.println("  " + ShapeResult.verdict(rows));
        }
        if (only.matcher("burst").matches()) {
            md.append(burst(smoke, out, peers));
        }
        if (args.length > 1 && !args[1].equals("-")) {
            Files.writeString(Path.of(args[1]), md.toString(), StandardCharsets.UTF_8);
        }
    }

    /**
     * Runs every peer under one load, {@code rounds} times, the order rotated each round so that
     * no peer always runs first (or right after the same one); returns one row per peer, in the
     * order given. Consecutive runs of one load differ a lot on 2 cores (which threads the
     * scheduler favours, which cores they land on), so a row's throughput is the median of its
     * rounds with their range, and a ratio is taken within each round, between runs seconds apart.
     */
    static List<ShapeResult> measure(List<String> peers, Load load, Duration warm, Duration measure,
            int rounds, PrintStream out) throws Exception {
        List<ShapeResult.Rounds> all = new ArrayList<>();
        for (String peer : peers) {
            all.add(new ShapeResult.Rounds(peer, measure.toNanos()));
        }
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < peers.size(); i++) {
                ShapeResult.Rounds p = all.get((i + r) % peers.size());
                run(p, load, warm, measure);
            }
        }
        List<ShapeResult> rows = new ArrayList<>();
        for (ShapeResult.Rounds p : all) {
            ShapeResult row = new ShapeResult(p);
            rows.add(row);
            out.println("  " + row.row());
        }
        return rows;
    }

    /** Runs one peer under one load once; adds the round to {@code rounds}. */
    static void run(ShapeResult.Rounds rounds, Load load, Duration warm, Duration measure) throws Exception {
        try (BoundedPeers.Blocking pool = BoundedPeers.create(rounds.peer, 64, load.cap(), WAIT)) {
            Workers w = new Workers(pool, load, rounds.window);
            w.start();
            try {
                Thread.sleep(warm.toMillis()); // the warm-up's length
                w.window.open();
                Thread.sleep(measure.toMillis()); // the measured window's length
                w.window.close();
            } finally {
                w.stopAndJoin();
            }
            rounds.add(w.served(), w.perThread);
        }
    }

    /** The overload burst, one row per peer. */
    static String burst(boolean smoke, PrintStream out, String[] peers) throws Exception {
        long hold = 500_000;
        int cap = 8;
        Duration before = Duration.ofMillis(smoke ? 100 : 1_000);
        Duration burst = Duration.ofMillis(smoke ? 200 : 1_000);
        StringBuilder md = new StringBuilder();
        String heading = "**burst: 4 platform threads on " + cap + " objects, hold 500 µs; then 32 for "
                + Format.millis(burst) + "; then 4 again**";
        out.println(heading);
        md.append(heading).append("\n\n").append(BurstResult.HEADER);
        for (String peer : peers) {
            BurstResult r = BurstResult.run(peer, cap, hold, before, burst);
            out.println("  " + r.row());
            md.append(r.row()).append('\n');
        }
        return md.append('\n').toString();
    }

    /** The threads of one run: each acquires, holds, releases, as fast as the pool lets it. */
    static final class Workers {
        final BoundedPeers.Blocking pool;
        final Load load;
        final Window window;
        final AtomicLongArray perThread;
        final List<Thread> platform = new ArrayList<>();
        ExecutorService virtual;
        volatile boolean stop;
        final java.util.concurrent.CountDownLatch done;

        Workers(BoundedPeers.Blocking pool, Load load, Window window) {
            this.pool = pool;
            this.load = load;
            this.window = window;
            this.perThread = new AtomicLongArray(load.threads());
            this.done = new java.util.concurrent.CountDownLatch(load.threads());
        }

        void start() {
            if (load.virtual()) {
                virtual = VirtualThreadExecutor.create();
            }
            for (int i = 0; i < load.threads(); i++) {
                int me = i;
                Runnable r = () -> {
                    try {
                        loop(me);
                    } finally {
                        done.countDown();
                    }
                };
                if (virtual != null) {
                    virtual.execute(r);
                } else {
                    Thread t = new Thread(r, "shape-" + i);
                    t.setDaemon(true);
                    platform.add(t);
                    t.start();
                }
            }
        }

        private void loop(int me) {
            long hold = load.holdNanos();
            long tokens = load.cpuTokens();
            while (!stop) {
                boolean counted = window.isOpen();
                long t0 = System.nanoTime();
                Payload p;
                try {
                    p = pool.acquire();
                } catch (Exception e) {
                    window.failed(e);
                    return;
                }
                long waited = System.nanoTime() - t0;
                if (p == null) {
                    if (counted) {
                        window.timeouts.incrementAndGet();
                    }
                    continue;
                }
                if (counted) {
                    window.waits.record(waited);
                }
                if (window.isOpen()) { // served inside the window: the rate and the shares
                    perThread.incrementAndGet(me);
                }
                if (hold > 0) {
                    BlockingHold.park(hold);
                }
                if (tokens > 0) {
                    Blackhole.consumeCPU(tokens);
                }
                pool.release(p);
                if (hold == 0) {
                    Thread.yield(); // a request's own I/O would let the others run; without it a
                                    // virtual thread that never blocks keeps its carrier
                }
            }
        }

        /** The acquires served inside the window, all threads together. */
        long served() {
            long n = 0;
            for (int i = 0; i < perThread.length(); i++) {
                n += perThread.get(i);
            }
            return n;
        }

        void stopAndJoin() throws InterruptedException {
            stop = true;
            if (!done.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException(load.threads() - done.getCount()
                        + " workers of " + load.threads() + " ended; the others are stuck in the pool");
            }
            if (virtual != null) {
                virtual.shutdown();
            }
        }
    }

    /**
     * The measured windows of one peer's rounds: the waits and timeouts of the acquires that
     * began inside one (the acquires served inside one are each run's {@code perThread}).
     */
    static final class Window {
        private volatile boolean open;
        final WaitHistogram waits = new WaitHistogram();
        final AtomicLong timeouts = new AtomicLong();
        volatile Throwable failure;

        void open() {
            open = true;
        }

        void close() {
            open = false;
        }

        boolean isOpen() {
            return open;
        }

        void failed(Throwable e) {
            failure = e;
        }
    }

    /** Virtual threads through reflection: the benchmarks compile for Java 17. */
    static final class VirtualThreadExecutor {
        private VirtualThreadExecutor() {
        }

        static boolean available() {
            return Runtime.version().feature() >= 21;
        }

        static ExecutorService create() {
            try {
                return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                        .invoke(null);
            } catch (ReflectiveOperationException e) {
                throw new IllegalStateException("virtual threads need JDK 21 or newer", e);
            }
        }
    }

    /** Number formats of the tables. */
    static final class Format {
        private Format() {
        }

        static String nanos(long ns) {
            if (ns >= 1_000_000) {
                return String.format(Locale.ROOT, "%.3g ms", ns / 1e6);
            }
            return String.format(Locale.ROOT, "%.3g µs", ns / 1e3);
        }

        static String millis(Duration d) {
            return d.toMillis() >= 1_000 ? d.toMillis() / 1_000.0 + " s" : d.toMillis() + " ms";
        }
    }

    static void write(Path file, String text) throws IOException {
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
