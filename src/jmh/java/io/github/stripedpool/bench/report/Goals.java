package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

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
        g.buffers();
        g.headroom();
        return g.goals;
    }

    private void ratio(String target, Ratio r, double atLeast) {
        goals.add(r == null ? new Goal(target, "not measured in this run", "not measured")
                : new Goal(target, r.text(atLeast), r.atLeast(atLeast)));
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
        // Netty's Recycler has no reset hook: its row does no reset, so this goal counts the
        // call of the hook against the pool, as a user who needs the reset would pay it.
        ratio("cycle, reset hook, 1 thread: ≥ 1.15x Netty's Recycler (which runs no reset)",
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
        List<Integer> unmeasured = new ArrayList<>();
        for (int t : runs.cycleThreads()) {
            Run r = runs.cycle("striped", t);
            double b = r == null ? Double.NaN : r.metric("gc.alloc.rate.norm");
            if (r != null && Double.isNaN(b)) {
                unmeasured.add(t); // run without -prof gc: not a zero
            }
            worst = Double.isNaN(worst) || b > worst ? b : worst;
        }
        String zero = "cycle, no hooks: 0 B/op (below 0.5, the residue of JMH's own bookkeeping)";
        if (!unmeasured.isEmpty()) {
            goals.add(new Goal(zero, "no allocation figure (-prof gc) for " + unmeasured.stream()
                    .map(Names::threads).collect(Collectors.joining(", ")), "not measured"));
        } else {
            goals.add(new Goal(zero,
                    Double.isNaN(worst) ? "not measured in this run" : "at most " + Format.bytes(worst) + " B/op",
                    Double.isNaN(worst) ? "not measured" : worst < 0.5 ? "yes" : "no"));
        }
    }

    private void holdSeveral() {
        for (String k : List.of("1", "2", "4", "8")) {
            // rounds per µs of the same k: the ratio of rounds is the ratio of acquisitions. The
            // floor for k objects (a plain stack per thread, nothing else) is what no pool passes.
            Run s = runs.hold("striped", k);
            Run netty = runs.hold("netty", k);
            if (s != null && netty != null) {
                limited("each thread holding " + k + " objects: ≥ 1.1x Netty's acquisitions per µs", s, netty,
                        runs.hold("floorStack", k), "the floor for k objects", 1.1);
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
            // Restated against the ceiling: the bag keeps every thread runnable by spinning and
            // yielding, this pool yields 20 µs at most, then parks and hands off to bound every
            // wait, and neither can pass the work alone.
            boundedRatio("bounded, hold " + hold + ": ≥ 0.9x ConcurrentBag's throughput", s,
                    runs.bounded("concurrentBag", hold, "thrpt"), ceiling, 0.9);
            ratio("bounded, hold " + hold + ": ≥ 0.9x the ceiling (no pool: each thread works on its own object)",
                    Ratio.of(s, ceiling), 0.9);
            boundedRatio("bounded, hold " + hold + ": ≥ 3x commons-pool2's throughput", s,
                    runs.bounded("commonsPool2", hold, "thrpt"), ceiling, 3);
        }
        // At hold 1000 the tail trades against the bound on waiting; the tail is judged in the
        // connection-pool scenarios (ConnectionPoolShape), so only hold 100 keeps a p99 target here.
        Run p = runs.bounded("striped", "100", "sample");
        Run b = runs.bounded("concurrentBag", "100", "sample");
        String target = "bounded, hold 100: p99 ≤ ConcurrentBag's";
        if (p == null || b == null) {
            goals.add(new Goal(target, "not measured in this run", "not measured"));
        } else {
            double a = p.percentile("99.0");
            double c = b.percentile("99.0");
            // Percentiles of SampleTime carry the timer's granularity: within 5 % is not settled.
            boolean close = Math.abs(a - c) <= 0.05 * Math.max(a, c);
            goals.add(new Goal(target, Format.number(a) + " vs " + Format.number(c) + " µs",
                    (a <= c ? "yes" : "no") + (close ? ", within the spread" : "")));
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
        String measured = r.text(atLeast) + "; " + limitName + " is " + Format.ratio(most.value);
        String met = r.atLeast(atLeast);
        if (most.value < atLeast && !met.startsWith("yes")) {
            met = "no, above " + limitName.replaceFirst(" \\(.*", "") + " on this machine";
        }
        goals.add(new Goal(target, measured, met));
    }

    private void gc() {
        List<String> which = new ArrayList<>();
        Ratio worst = null;
        for (String size : Runs.sizes(runs.gcRuns("g1"))) {
            Ratio r = Long.parseLong(size) < 16384 ? null
                    : Ratio.of(runs.gcRun("g1", "striped", size, "half"), runs.gcRun("g1", "alloc", size, "half"));
            if (r != null) {
                worst = worst == null || r.value < worst.value ? r : worst;
                which.add(Format.size(size) + " " + r.text(2));
            }
        }
        // The size with the lowest ratio decides, with its spread, as every ratio goal does.
        goals.add(new Goal("G1 with a live set, 16 KiB and larger: ≥ 2x allocation",
                which.isEmpty() ? "not measured in this run" : String.join(", ", which),
                worst == null ? "not measured" : worst.atLeast(2)));
    }

    /**
     * BufferBenchmark's mixed sizes, per kind and thread count: the buffer pool against Netty's
     * allocator, Jetty's pool, and one striped pool per class built by hand (released to the pool
     * it came from: the compiler then shares one slot lookup between the two calls), beside what
     * the floor (one plain slot per thread and class) reaches against the hand-built pools; and
     * the buffer pool's leases against the hand-built pools, where it too shares that lookup.
     */
    private void buffers() {
        List<Run> rs = runs.named("BufferBenchmark.cycle");
        for (String kind : List.of("heap", "direct")) {
            List<Run> ofKind = rs.stream().filter(r -> r.param("kind").equals(kind)).collect(Collectors.toList());
            List<Integer> threads = ofKind.isEmpty() ? List.of(1) : Runs.threadCounts(ofKind);
            for (int t : threads) {
                Run s = find(ofKind, "striped", t);
                String where = "buffers, mixed sizes, " + kind + ", " + Names.threads(t) + ": ";
                ratio(where + "≥ 1.1x Netty's PooledByteBufAllocator", Ratio.of(s, find(ofKind, "netty", t)), 1.1);
                ratio(where + "≥ 1.1x Jetty's ArrayByteBufferPool", Ratio.of(s, find(ofKind, "jetty", t)), 1.1);
                Run freeing = find(ofKind, "handFreeing", t);
                limited(where + "≥ 1.0x hand-built pools, one per class", s, find(ofKind, "handBuilt", t),
                        find(ofKind, "floor", t), "the floor (a plain slot per thread and class)", 1.0);
                alike(s, freeing);
                Run leased = find(ofKind, "stripedLease", t);
                if (leased != null) {
                    limited(where + "leases ≥ 1.0x hand-built pools, one per class", leased,
                            find(ofKind, "handBuilt", t), find(ofKind, "floor", t),
                            "the floor (a plain slot per thread and class)", 1.0);
                    alike(leased, freeing);
                }
            }
        }
    }

    /**
     * Adds to the goal just added the ratio of {@code striped} to the hand-built direct pools
     * whose destroy hook frees a dropped buffer at once ({@code handFreeing}), as the buffer
     * pool's does: the hand-built row leaves that memory to the collector, and a destroy hook
     * makes every take and put of a private slot a compare-and-set, so only this ratio compares
     * like with like. Nothing is added where the run has no such row (heap buffers, or a run
     * without it).
     */
    private void alike(Run striped, Run freeing) {
        Ratio r = Ratio.of(striped, freeing);
        if (r == null) {
            return;
        }
        Goal g = goals.remove(goals.size() - 1);
        goals.add(new Goal(g.target, g.measured + "; against hand-built pools that free dropped buffers at once, "
                + "as this one does: " + r.text(), g.met));
    }

    private static Run find(List<Run> rs, String impl, int threads) {
        return rs.stream().filter(r -> r.param("impl").equals(impl) && r.threads == threads).findFirst().orElse(null);
    }

    /**
     * HeadroomBenchmark, the seed's scenario: with trimming (its default) the buffer pool is never
     * below allocation's throughput in the tight heap, and never runs out of memory where
     * allocation does not. The pool ran out of memory in a configuration where the JMH log says
     * so ({@link OutOfMemory}): a failed fork leaves no result in the JSON.
     */
    private void headroom() {
        List<String> compared = new ArrayList<>();
        List<String> outOfMemory = new ArrayList<>();
        for (String c : List.of("g1", "zgc")) {
            String collector = c.equals("g1") ? "G1" : "ZGC";
            List<Run> rs = runs.named("HeadroomBenchmark." + c);
            for (String live : List.of("roomy", "tight")) {
                Run alloc = OtherSections.find(rs, "alloc", live);
                Run pool = OtherSections.find(rs, "pool", live);
                boolean oom = pool == null && alloc != null && runs.outOfMemory.headroom(c, "pool", live);
                if (alloc != null && (pool != null || oom)) {
                    compared.add(collector + " " + live);
                }
                if (oom) {
                    outOfMemory.add(collector + " " + live);
                }
                if (!live.equals("tight")) {
                    continue;
                }
                String target = "request bodies, tight heap, " + collector
                        + ": the buffer pool (trimming on) ≥ 1.0x allocation";
                if (oom) {
                    goals.add(new Goal(target, "out of memory; allocation " + Format.number(alloc.score)
                            + " requests/ms", "no"));
                } else {
                    ratio(target, Ratio.of(pool, alloc), 1.0);
                }
            }
        }
        String target = "request bodies: the buffer pool (trimming on) never out of memory where allocation is not";
        goals.add(compared.isEmpty() ? new Goal(target, "not measured in this run", "not measured")
                : outOfMemory.isEmpty() ? new Goal(target, "ran in " + String.join(", ", compared), "yes")
                : new Goal(target, "out of memory in " + String.join(", ", outOfMemory) + " (of "
                        + String.join(", ", compared) + ")", "no"));
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
