package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.List;

/**
 * The targets the library is measured against, and what one run reached. A ratio goal is met
 * when the median ratio reaches the target; the verdict says "within the spread" when the
 * quartile range straddles it, so that a noisy run is not read as settled.
 */
final class Goals {
    /** One target and what the run measured. */
    static final class Goal {
        final String target;
        final String measured;
        /** "yes", "no", "yes, within the spread", "no, within the spread", or "not measured". */
        final String met;

        Goal(String target, String measured, String met) {
            this.target = target;
            this.measured = measured;
            this.met = met;
        }

        /** Measured and missed, clearly or within the spread. */
        boolean missed() {
            return met.equals("no") || met.startsWith("no,");
        }

        boolean reached() {
            return met.startsWith("yes");
        }
    }

    /** Created per acquisition below this is "near zero": one object per 1000 cycles. */
    private static final double NEAR_ZERO = 0.001;

    private final Runs runs;
    private final List<Goal> goals = new ArrayList<>();

    private Goals(Runs runs) {
        this.runs = runs;
    }

    static List<Goal> of(Runs runs) {
        Goals g = new Goals(runs);
        g.cycle();
        g.holdSeveral();
        g.bounded();
        g.gc();
        return g.goals;
    }

    private void ratio(String target, Ratio r, double atLeast) {
        goals.add(r == null ? new Goal(target, "not measured in this run", "not measured")
                : new Goal(target, r.text(), r.atLeast(atLeast)));
    }

    private void cycle() {
        Run s1 = runs.cycle("striped", 1);
        ratio("cycle, no hooks, 1 thread: ≥ 1.25x Netty's Recycler", Ratio.of(s1, runs.cycle("netty", 1)), 1.25);
        ratio("cycle, no hooks, 1 thread: ≥ 0.8x the floor", Ratio.of(s1, runs.cycle("floor", 1)), 0.8);
        for (int t : List.of(2, 4)) {
            ratio("cycle, no hooks, " + Names.threads(t) + ": ≥ 1.1x Netty's Recycler",
                    Ratio.of(runs.cycle("striped", t), runs.cycle("netty", t)), 1.1);
        }
        ratio("cycle, no hooks, 1 thread: ≥ 1.0x Stormpot", Ratio.of(s1, runs.cycle("stormpot", 1)), 1.0);
        ratio("cycle, reset hook, 1 thread: ≥ 1.15x Netty's Recycler",
                Ratio.of(runs.cycle("stripedReset", 1), runs.cycle("netty", 1)), 1.15);
        // close() keeps its exact contract, so the destroy hook's compare-and-sets stay: no pool
        // with that contract passes the exact floor, which the verdict says when it is below the target
        Run exact = runs.cycle("floorExact", 1);
        limited("cycle, reset + destroy hooks, 1 thread: ≥ 0.85x Netty's Recycler", runs.cycle("stripedHooks", 1),
                runs.cycle("netty", 1), exact, "the exact floor", 0.85);
        ratio("cycle, destroy hook, 1 thread: ≥ 0.9x the exact floor (what goes around its two compare-and-sets)",
                Ratio.of(runs.cycle("stripedDestroy", 1), exact), 0.9);
        // time ratio SAMPLED ÷ DISABLED ≤ 1.5 is throughput ratio SAMPLED ÷ DISABLED ≥ 1 / 1.5
        Ratio sampled = Ratio.of(runs.cycle("stripedSampled", 1), s1);
        goals.add(sampled == null ? new Goal("cycle, 1 thread: leak detection SAMPLED ≤ 1.5x the time of DISABLED",
                "not measured in this run", "not measured")
                : new Goal("cycle, 1 thread: leak detection SAMPLED ≤ 1.5x the time of DISABLED",
                        sampled.inverse().text(), sampled.atLeast(1 / 1.5)));
        double worst = Double.NaN;
        for (int t : runs.cycleThreads()) {
            Run r = runs.cycle("striped", t);
            double b = r == null ? Double.NaN : r.metric("gc.alloc.rate.norm");
            worst = Double.isNaN(worst) || b > worst ? b : worst;
        }
        goals.add(new Goal("cycle, no hooks: 0 B/op (below 0.5, the residue of JMH's own bookkeeping)",
                Double.isNaN(worst) ? "not measured in this run" : "at most " + Format.bytes(worst) + " B/op",
                Double.isNaN(worst) ? "not measured" : worst < 0.5 ? "yes" : "no"));
    }

    private void holdSeveral() {
        for (String k : List.of("1", "2", "4", "8")) {
            // rounds per µs of the same k: the ratio of rounds is the ratio of acquisitions
            Ratio r = Ratio.of(runs.hold("striped", k), runs.hold("netty", k));
            if (r != null) {
                ratio("each thread holding " + k + " objects: ≥ 1.1x Netty's acquisitions per µs", r, 1.1);
            }
        }
        for (String k : List.of("2", "4")) {
            double c = Runs.perEvent(runs.hold("striped", k), "creations", "acquisitions");
            goals.add(new Goal("each thread holding " + k + " objects: created per acquisition near 0 (≤ "
                    + NEAR_ZERO + ")", Double.isNaN(c) ? "not measured in this run" : Format.number(c),
                    Double.isNaN(c) ? "not measured" : c <= NEAR_ZERO ? "yes" : "no"));
        }
    }

    private void bounded() {
        for (String hold : List.of("100", "1000")) {
            Run s = runs.bounded("striped", hold, "thrpt");
            Run ceiling = runs.bounded("ceiling", hold, "thrpt");
            boundedRatio("bounded, hold " + hold + ": ≥ 1.1x ConcurrentBag's throughput", s,
                    runs.bounded("concurrentBag", hold, "thrpt"), ceiling, 1.1);
            boundedRatio("bounded, hold " + hold + ": ≥ 3x commons-pool2's throughput", s,
                    runs.bounded("commonsPool2", hold, "thrpt"), ceiling, 3);
            Run p = runs.bounded("striped", hold, "sample");
            Run b = runs.bounded("concurrentBag", hold, "sample");
            String target = "bounded, hold " + hold + ": p99 ≤ ConcurrentBag's";
            if (p == null || b == null) {
                goals.add(new Goal(target, "not measured in this run", "not measured"));
            } else {
                double a = p.percentile("99.0");
                double c = b.percentile("99.0");
                goals.add(new Goal(target, Format.number(a) + " vs " + Format.number(c) + " µs", a <= c ? "yes" : "no"));
            }
        }
        Run tight = runs.bounded("striped", null, "thrpt");
        Run tightSample = runs.bounded("striped", null, "sample");
        goals.add(tight == null ? new Goal("bounded, tight loop: no timeouts", "not measured in this run", "not measured")
                : new Goal("bounded, tight loop: no timeouts (every thread progresses)",
                        Format.number(tight.metric("timeouts")) + " timeouts; longest cycle "
                                + (tightSample == null ? "n/a" : Format.number(tightSample.percentile("100.0"))) + " µs",
                        tight.metric("timeouts") == 0 ? "yes" : "no"));
    }

    /**
     * A throughput goal of the bounded pool against {@code peer}, with what the ceiling row (no
     * pool: the work alone) allows: no pool can pass it, so a target above it cannot be met on
     * this machine, and the verdict says so.
     */
    private void boundedRatio(String target, Run striped, Run peer, Run ceiling, double atLeast) {
        limited(target, striped, peer, ceiling, "the ceiling (no pool)", atLeast);
    }

    /**
     * A ratio goal of {@code striped} against {@code peer}, beside what {@code limit} (code that
     * does the same job with nothing else, so that no implementation can pass it) reaches against
     * the same peer: a target above that cannot be met on this machine, and the verdict says so.
     */
    private void limited(String target, Run striped, Run peer, Run limit, String limitName, double atLeast) {
        Ratio r = Ratio.of(striped, peer);
        Ratio most = Ratio.of(limit, peer);
        if (r == null || most == null) {
            ratio(target, r, atLeast);
            return;
        }
        String measured = r.text() + "; " + limitName + " is " + Format.ratio(most.value);
        String met = r.atLeast(atLeast);
        if (most.value < atLeast && !met.startsWith("yes")) {
            met = "no, above " + limitName.replaceFirst(" \\(.*", "") + " on this machine";
        }
        goals.add(new Goal(target, measured, met));
    }

    private void gc() {
        List<String> which = new ArrayList<>();
        double min = Double.NaN;
        for (String size : Runs.sizes(runs.gcRuns("g1"))) {
            Ratio r = Long.parseLong(size) < 16384 ? null
                    : Ratio.of(runs.gcRun("g1", "striped", size, "half"), runs.gcRun("g1", "alloc", size, "half"));
            if (r != null) {
                min = Double.isNaN(min) ? r.value : Math.min(min, r.value);
                which.add(Format.size(size) + " " + Format.ratio(r.value));
            }
        }
        goals.add(new Goal("G1 with a live set, 16 KiB and larger: ≥ 2x allocation",
                which.isEmpty() ? "not measured in this run" : String.join(", ", which),
                which.isEmpty() ? "not measured" : min >= 2 ? "yes" : "no"));
    }

    static void write(Page page, List<Goal> goals) {
        page.add("## Goals\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (Goal g : goals) {
            rows.add(List.of(g.target, g.measured, g.met));
        }
        page.textTable(List.of("goal", "measured", "met"), rows);
        page.add("Ratios are of medians, with the range from the quartiles of the iterations in "
                + "brackets; *within the spread* means the target lies inside that range, so this run "
                + "does not settle it.\n\n");
    }
}
