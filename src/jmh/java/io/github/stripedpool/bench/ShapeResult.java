package io.github.stripedpool.bench;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * One peer's row of {@link ConnectionPoolShape}: throughput (median of the rounds, with their
 * range), waits and timeouts of every round together, fairness of the worst round.
 */
final class ShapeResult {
    static final String HEADER = "| pool | acquisitions/s [lowest–highest] | wait p50 | p99 | p99.9 | max | timeouts "
            + "| Jain's index | least-served thread ÷ mean |\n"
            + "|---|---:|---:|---:|---:|---:|---:|---:|---:|\n";

    /** One peer's rounds under one load, as they are run. */
    static final class Rounds {
        final String peer;
        final long windowNanos;
        /** Shared by the rounds: their waits and timeouts add up. */
        final ConnectionPoolShape.Window window = new ConnectionPoolShape.Window();
        final List<Double> perSecond = new ArrayList<>();
        final List<Double> jain = new ArrayList<>();
        final List<Double> leastShare = new ArrayList<>();

        Rounds(String peer, long windowNanos) {
            this.peer = peer;
            this.windowNanos = windowNanos;
        }

        /** One round: {@code acquisitions} in the window, {@code perThread} of them per thread. */
        void add(long acquisitions, AtomicLongArray perThread) {
            perSecond.add(acquisitions * 1e9 / windowNanos);
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
            jain.add(squares == 0 ? 0 : sum * sum / (n * squares));
            leastShare.add(sum == 0 ? 0 : least / (sum / n));
        }
    }

    final String peer;
    /** Each round's acquisitions per second, in the order run. */
    final double[] rounds;
    final double perSecond;
    final double lowest;
    final double highest;
    final long p50;
    final long p99;
    final long p999;
    final long max;
    final long timeouts;
    final double jain;
    final double leastShare;
    final Throwable failure;

    ShapeResult(Rounds r) {
        this.peer = r.peer;
        this.rounds = r.perSecond.stream().mapToDouble(Double::doubleValue).toArray();
        this.perSecond = median(rounds);
        this.lowest = Arrays.stream(rounds).min().orElse(0);
        this.highest = Arrays.stream(rounds).max().orElse(0);
        WaitHistogram h = r.window.waits;
        this.p50 = h.percentile(0.50);
        this.p99 = h.percentile(0.99);
        this.p999 = h.percentile(0.999);
        this.max = h.max();
        this.timeouts = r.window.timeouts.get();
        this.jain = r.jain.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        this.leastShare = r.leastShare.stream().mapToDouble(Double::doubleValue).min().orElse(0);
        this.failure = r.window.failure;
    }

    static double median(double[] xs) {
        if (xs.length == 0) {
            return 0;
        }
        double[] s = xs.clone();
        Arrays.sort(s);
        int m = s.length / 2;
        return s.length % 2 == 1 ? s[m] : (s[m - 1] + s[m]) / 2;
    }

    String row() {
        return "| " + Names.of(peer) + " | " + String.format(Locale.ROOT, "%,.0f", perSecond)
                + (rounds.length > 1 ? String.format(Locale.ROOT, " [%,.0f–%,.0f]", lowest, highest) : "")
                + " | " + ConnectionPoolShape.Format.nanos(p50) + " | " + ConnectionPoolShape.Format.nanos(p99)
                + " | " + ConnectionPoolShape.Format.nanos(p999) + " | " + ConnectionPoolShape.Format.nanos(max)
                + " | " + timeouts + " | " + String.format(Locale.ROOT, "%.4f", jain)
                + " | " + String.format(Locale.ROOT, "%.2f", leastShare)
                + (failure == null ? "" : " (failed: " + failure + ")") + " |";
    }

    /** striped-pool against the best peer on each axis, and which peers starved a thread. */
    static String verdict(List<ShapeResult> rows) {
        ShapeResult striped = null;
        ShapeResult ceiling = null;
        ShapeResult fastest = null;
        ShapeResult shortestTail = null;
        long longestPeerWait = 0;
        StringBuilder starving = new StringBuilder();
        for (ShapeResult r : rows) {
            if (r.peer.equals("striped")) {
                striped = r;
                continue;
            }
            if (r.peer.equals("ceiling")) {
                ceiling = r; // not a pool: a reference, never "the fastest peer"
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
        String fairness;
        if (starving.length() == 0) {
            fairness = "No peer left a thread without an object or timed out.";
        } else if (ceiling != null && ceiling.leastShare == 0) {
            fairness = "Left a thread without any object: " + starving + ", as did no pool at all (the ceiling): "
                    + "the scheduler's choice, not the pools'.";
        } else {
            fairness = "Timed out or left a thread without any object: " + starving + ".";
        }
        return String.format(Locale.ROOT,
                "striped-pool ÷ the fastest peer (%s): %s%s; its p99.9 wait %s against the best peer's %s (%s); "
                        + "its longest wait %s, the peers' longest %s; Jain's index %.4f%s. %s",
                Names.of(fastest.peer), ratio(striped, fastest),
                ceiling == null ? "" : "; ÷ no pool at all: " + ratio(striped, ceiling),
                ConnectionPoolShape.Format.nanos(striped.p999), ConnectionPoolShape.Format.nanos(shortestTail.p999),
                Names.of(shortestTail.peer), ConnectionPoolShape.Format.nanos(striped.max),
                ConnectionPoolShape.Format.nanos(longestPeerWait), striped.jain,
                ceiling == null ? "" : String.format(Locale.ROOT, " (no pool at all: %.4f)", ceiling.jain),
                fairness);
    }

    /**
     * {@code a}'s throughput over {@code b}'s, round by round (each round ran both, seconds
     * apart): the median ratio, with the range when there are several rounds.
     */
    static String ratio(ShapeResult a, ShapeResult b) {
        int n = Math.min(a.rounds.length, b.rounds.length);
        double[] q = new double[n];
        for (int i = 0; i < n; i++) {
            q[i] = b.rounds[i] == 0 ? 0 : a.rounds[i] / b.rounds[i];
        }
        String m = String.format(Locale.ROOT, "%.2fx", median(q));
        if (n < 2) {
            return m;
        }
        return m + String.format(Locale.ROOT, " [%.2f–%.2f]",
                Arrays.stream(q).min().orElse(0), Arrays.stream(q).max().orElse(0));
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
                case "ceiling": return "ceiling (no pool)";
                default: return peer;
            }
        }
    }
}
