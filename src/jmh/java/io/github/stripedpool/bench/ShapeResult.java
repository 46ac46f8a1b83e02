package io.github.stripedpool.bench;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/** One peer's row of {@link ConnectionPoolShape}: throughput, waits, timeouts, fairness. */
final class ShapeResult {
    static final String HEADER = "| pool | acquisitions/s | wait p50 | p99 | p99.9 | max | timeouts "
            + "| Jain's index | least-served thread ÷ mean |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";

    final String peer;
    final double perSecond;
    final long p50;
    final long p99;
    final long p999;
    final long max;
    final long timeouts;
    final double jain;
    final double leastShare;
    final Throwable failure;

    ShapeResult(String peer, ConnectionPoolShape.Window w, AtomicLongArray perThread, long windowNanos) {
        this.peer = peer;
        WaitHistogram h = w.waits;
        this.perSecond = h.count() * 1e9 / windowNanos;
        this.p50 = h.percentile(0.50);
        this.p99 = h.percentile(0.99);
        this.p999 = h.percentile(0.999);
        this.max = h.max();
        this.timeouts = w.timeouts.get();
        double sum = 0;
        double squares = 0;
        long least = Long.MAX_VALUE;
        int n = perThread.length();
        for (int i = 0; i < n; i++) {
            long x = perThread.get(i);
            sum += x;
            squares += (double) x * x;
            least = Math.min(least, x);
        }
        this.jain = squares == 0 ? 0 : sum * sum / (n * squares);
        this.leastShare = sum == 0 ? 0 : least / (sum / n);
        this.failure = w.failure;
    }

    String row() {
        return "| " + Names.of(peer) + " | " + String.format(Locale.ROOT, "%,.0f", perSecond)
                + " | " + ConnectionPoolShape.Format.nanos(p50) + " | " + ConnectionPoolShape.Format.nanos(p99)
                + " | " + ConnectionPoolShape.Format.nanos(p999) + " | " + ConnectionPoolShape.Format.nanos(max)
                + " | " + timeouts + " | " + String.format(Locale.ROOT, "%.4f", jain)
                + " | " + String.format(Locale.ROOT, "%.2f", leastShare)
                + (failure == null ? "" : " (failed: " + failure + ")") + " |";
    }

    /** striped-pool against the best peer on each axis, and which peers starved a thread. */
    static String verdict(List<ShapeResult> rows) {
        ShapeResult striped = null;
        ShapeResult fastest = null;
        ShapeResult shortestTail = null;
        long longestPeerWait = 0;
        StringBuilder starving = new StringBuilder();
        for (ShapeResult r : rows) {
            if (r.peer.equals("striped")) {
                striped = r;
                continue;
            }
            if (fastest == null || r.perSecond > fastest.perSecond) {
                fastest = r;
            }
            if (shortestTail == null || r.p999 < shortestTail.p999) {
                shortestTail = r;
            }
            longestPeerWait = Math.max(longestPeerWait, r.max);
            if (r.leastShare == 0 || r.timeouts > 0) {
                starving.append(starving.length() == 0 ? "" : ", ").append(Names.of(r.peer));
            }
        }
        if (striped == null || fastest == null) {
            return "";
        }
        return String.format(Locale.ROOT,
                "striped-pool ÷ the fastest peer (%s): %.2fx; its p99.9 wait %s against the best peer's %s (%s); "
                        + "its longest wait %s, the peers' longest %s; Jain's index %.4f. %s",
                Names.of(fastest.peer), striped.perSecond / fastest.perSecond,
                ConnectionPoolShape.Format.nanos(striped.p999), ConnectionPoolShape.Format.nanos(shortestTail.p999),
                Names.of(shortestTail.peer), ConnectionPoolShape.Format.nanos(striped.max),
                ConnectionPoolShape.Format.nanos(longestPeerWait), striped.jain,
                starving.length() == 0 ? "No peer left a thread without an object or timed out."
                        : "Timed out or left a thread without any object: " + starving + ".");
    }

    /** Display names of the peers. */
    static final class Names {
        private Names() {
        }

        static String of(String peer) {
            switch (peer) {
                case "striped": return "striped-pool";
                case "concurrentBag": return "HikariCP ConcurrentBag";
                case "commonsPool2": return "commons-pool2";
                case "stormpot": return "Stormpot";
                case "vibur": return "Vibur";
                default: return peer;
            }
        }
    }
}
