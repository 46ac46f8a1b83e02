package io.github.stripedpool.bench.report;

import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/** The results of one {@code bench/run}, and the lookups every section makes in them. */
final class Runs {
    final List<Run> all;
    /** The configurations whose forks ran out of memory, which have no result in {@link #all}. */
    final OutOfMemory outOfMemory;

    Runs(List<Run> all, OutOfMemory outOfMemory) {
        this.all = all;
        this.outOfMemory = outOfMemory;
    }

    List<Run> select(Predicate<Run> p) {
        return all.stream().filter(p).collect(Collectors.toList());
    }

    List<Run> named(String name) {
        return select(r -> r.name.equals(name));
    }

    static List<Integer> threadCounts(List<Run> rs) {
        return rs.stream().map(r -> r.threads).distinct().sorted().collect(Collectors.toList());
    }

    // ---- CycleBenchmark

    List<Run> cycleRuns() {
        return named("CycleBenchmark.cycle");
    }

    List<Integer> cycleThreads() {
        return threadCounts(cycleRuns());
    }

    Run cycle(String impl, int threads) {
        return cycleRuns().stream().filter(r -> r.param("impl").equals(impl) && r.threads == threads)
                .min(Comparator.comparing((Run r) -> !r.param("size").equals("64"))).orElse(null);
    }

    // ---- HoldSeveralBenchmark

    List<Run> holdRuns() {
        return named("HoldSeveralBenchmark.holdSeveral");
    }

    Run hold(String impl, String held) {
        return holdRuns().stream().filter(r -> r.param("impl").equals(impl) && r.param("held").equals(held))
                .findFirst().orElse(null);
    }

    // ---- BoundedBenchmark

    /** @param hold the hold in tokens, or null for the tight loop; @param mode thrpt or sample */
    Run bounded(String impl, String hold, String mode) {
        String name = hold == null ? "BoundedBenchmark.tightLoop" : "BoundedBenchmark.acquireHoldRelease";
        return all.stream().filter(r -> r.name.equals(name) && r.mode.equals(mode)
                && r.param("impl").equals(impl) && (hold == null || r.param("holdTokens").equals(hold)))
                .findFirst().orElse(null);
    }

    List<Run> boundedRuns() {
        return select(r -> r.name.startsWith("BoundedBenchmark."));
    }

    // ---- GcPressureBenchmark, BurstHoldBenchmark, FalseSharingBenchmark

    List<Run> gcRuns(String collector) {
        return named("GcPressureBenchmark." + collector);
    }

    Run gcRun(String collector, String impl, String size, String live) {
        return gcRuns(collector).stream().filter(r -> r.param("impl").equals(impl)
                && r.param("size").equals(size) && r.param("liveSet").equals(live)).findFirst().orElse(null);
    }

    List<Run> burstRuns() {
        return named("BurstHoldBenchmark.holdAcrossBlockingCall");
    }

    Run falseSharing(String group, String layout) {
        return all.stream().filter(r -> r.name.equals("FalseSharingBenchmark." + group)
                && r.param("layout").equals(layout)).findFirst().orElse(null);
    }

    /** Objects created per counted event, from a run's auxiliary counters. */
    static double perEvent(Run r, String created, String events) {
        return r == null ? Double.NaN : r.metric(created) / r.metric(events);
    }

    static List<String> sizes(List<Run> rs) {
        return rs.stream().map(r -> r.param("size")).distinct()
                .sorted(Comparator.comparingLong(Long::parseLong)).collect(Collectors.toList());
    }

    static List<String> liveSets(List<Run> rs) {
        return rs.stream().map(r -> r.param("liveSet")).distinct()
                .sorted(Comparator.comparing((String s) -> !s.equals("none"))).collect(Collectors.toList());
    }
}
