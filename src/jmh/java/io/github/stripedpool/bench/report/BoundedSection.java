package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** The section of {@code BoundedBenchmark}: throughput, p99 and maximum wait, timeouts. */
final class BoundedSection {
    private final Runs runs;
    private final Page page;

    BoundedSection(Runs runs, Page page) {
        this.runs = runs;
        this.page = page;
    }

    /** The holds of the run in tokens, then null for the tight loop if it ran. */
    static List<String> scenarios(Runs runs) {
        List<String> out = runs.boundedRuns().stream().filter(r -> r.name.endsWith(".acquireHoldRelease"))
                .map(r -> r.param("holdTokens")).distinct().sorted((a, b) -> Integer.parseInt(a) - Integer.parseInt(b))
                .collect(Collectors.toList());
        if (runs.boundedRuns().stream().anyMatch(r -> r.name.endsWith(".tightLoop"))) {
            out.add(null);
        }
        return out;
    }

    static String scenarioName(String hold) {
        return hold == null ? "tight loop" : "hold " + hold + " tokens";
    }

    void write() {
        List<Run> rs = runs.boundedRuns();
        if (rs.isEmpty()) {
            return;
        }
        List<String> impls = Names.impls(rs);
        page.section("Bounded pools: 4 threads on 2 objects");
        page.add("`BoundedBenchmark`: every pool capped at 2 objects and shared by 4 threads, so two "
                + "always wait. *hold N tokens*: the object is held for `Blackhole.consumeCPU(N)` (100 "
                + "tokens are a few hundred nanoseconds, 1000 a few microseconds). *tight loop*: each "
                + "thread releases and re-acquires at once, with no work in between, the case in which "
                + "a pool that lets the releasing thread take its object straight back starves the "
                + "others. Throughput is cycles per µs of all threads; p99 and max are of one cycle "
                + "(mostly the wait) from `Mode.SampleTime`, in µs. A wait longer than 1 s gives up "
                + "and counts as a timeout. The *ceiling* row is no pool at all: each thread works on "
                + "an object of its own, so on 2 cores at most 2 holds run at once, as with a cap of 2. "
                + "No pool can pass it; a pool's ratio to it is the share of the machine the pool "
                + "leaves to the work, and a goal above it cannot be met on this machine.\n\n");
        List<String> peers = Names.peers(impls);
        List<String> scenarios = scenarios(runs);
        Ratio[][] chart = new Ratio[scenarios.size()][peers.size()];
        for (int s = 0; s < scenarios.size(); s++) {
            String hold = scenarios.get(s);
            page.add("**" + scenarioName(hold) + "**\n\n");
            List<List<String>> rows = new ArrayList<>();
            for (String impl : impls) {
                Run t = runs.bounded(impl, hold, "thrpt");
                Run p = runs.bounded(impl, hold, "sample");
                rows.add(Arrays.asList(Names.of(impl), t == null ? "–" : Format.score(t.score, t.error),
                        p == null ? "–" : Format.number(p.percentile("99.0")),
                        p == null ? "–" : Format.number(p.percentile("100.0")),
                        t == null ? "–" : Format.number(t.metric("timeouts")),
                        impl.equals("striped") ? "" : Ratio.text(Ratio.of(runs.bounded("striped", hold, "thrpt"), t))));
            }
            page.table(List.of("implementation", "ops/µs", "p99 µs", "max µs", "timeouts",
                    "striped-pool ÷ it"), rows);
            for (int i = 0; i < peers.size(); i++) {
                chart[s][i] = Ratio.of(runs.bounded("striped", hold, "thrpt"), runs.bounded(peers.get(i), hold, "thrpt"));
            }
        }
        page.ratioChart("bounded.svg", "Bounded: striped-pool's throughput ÷ each peer's", "striped-pool ÷ peer",
                scenarios.stream().map(BoundedSection::scenarioName).collect(Collectors.toList()), peers, chart);
    }
}
