package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The short answer of a run: striped-pool's throughput against allocation, each peer and the
 * floor, per thread count, and against each bounded peer per scenario, with ranges; then how
 * many goals were met. The same tables open the report and end the console output of
 * {@code bench/run}, so that a reader of either sees the answer first.
 */
final class Verdict {
    private final Runs runs;
    private final List<Goals.Goal> goals;

    Verdict(Runs runs, List<Goals.Goal> goals) {
        this.runs = runs;
        this.goals = goals;
    }

    /** Header row, then one row per peer: striped-pool ÷ it at each thread count. */
    List<List<String>> cycle() {
        List<Integer> ts = runs.cycleThreads();
        List<List<String>> rows = new ArrayList<>();
        if (ts.isEmpty()) {
            return rows;
        }
        List<String> header = new ArrayList<>(List.of("cycle: striped-pool ÷"));
        ts.forEach(t -> header.add(Names.threads(t)));
        rows.add(header);
        List<String> peers = Names.peers(Names.impls(runs.cycleRuns()));
        // allocation first: the question every reader asks first is "is pooling worth it at all?"
        if (peers.remove("alloc")) {
            peers.add(0, "alloc");
        }
        for (String peer : peers) {
            List<String> row = new ArrayList<>(List.of(Names.of(peer)));
            ts.forEach(t -> row.add(Ratio.text(Ratio.of(runs.cycle("striped", t), runs.cycle(peer, t)))));
            rows.add(row);
        }
        return rows;
    }

    /** Header row, then one row per bounded peer: striped-pool ÷ it in each scenario. */
    List<List<String>> bounded() {
        List<String> scenarios = BoundedSection.scenarios(runs);
        List<List<String>> rows = new ArrayList<>();
        if (scenarios.isEmpty()) {
            return rows;
        }
        List<String> header = new ArrayList<>(List.of("bounded (4 threads, 2 objects): striped-pool ÷"));
        scenarios.forEach(s -> header.add(BoundedSection.scenarioName(s)));
        rows.add(header);
        for (String peer : Names.peers(Names.impls(runs.boundedRuns()))) {
            List<String> row = new ArrayList<>(List.of(Names.of(peer)));
            scenarios.forEach(s -> row.add(Ratio.text(Ratio.of(runs.bounded("striped", s, "thrpt"),
                    runs.bounded(peer, s, "thrpt")))));
            rows.add(row);
        }
        return rows;
    }

    /**
     * When each thread holds several objects: acquisitions per microsecond (rounds times k) and
     * objects created per acquisition (near 0 for a pool), for each k measured.
     */
    String heldLine() {
        List<Run> rs = runs.holdRuns();
        if (rs.isEmpty()) {
            return "";
        }
        List<String> helds = rs.stream().map(r -> r.param("held")).distinct()
                .sorted(java.util.Comparator.comparingInt(Integer::parseInt)).collect(Collectors.toList());
        List<String> parts = new ArrayList<>();
        for (String impl : Names.impls(rs)) {
            List<String> ks = new ArrayList<>();
            for (String k : helds) {
                Run r = runs.hold(impl, k);
                double c = Runs.perEvent(r, "creations", "acquisitions");
                if (r != null && !Double.isNaN(c)) {
                    ks.add("k=" + k + " " + Format.number(r.score * Integer.parseInt(k)) + "/µs, "
                            + Format.number(c) + " created");
                }
            }
            parts.add(Names.of(impl) + ": " + String.join("; ", ks));
        }
        return "Each of " + Names.threads(rs.get(0).threads) + " holding k objects: acquisitions per µs, "
                + "and objects created per acquisition (0 = pooled, 1 = allocated):\n  " + String.join("\n  ", parts);
    }

    /** "Goals met: 5 of 14 ...", then the goals not met, one to a line. */
    String goalsLine() {
        return goalsCount() + (missed().isEmpty() ? "" : "\nNot met:\n  - " + String.join("\n  - ", missed()));
    }

    private List<String> missed() {
        return goals.stream().filter(Goals.Goal::missed)
                .map(g -> g.target + " (" + g.measured + (g.met.endsWith("spread") ? ", within the spread"
                        : g.met.endsWith("on this machine") ? ": " + g.met.substring(g.met.indexOf(',') + 2) : "")
                        + ")").collect(Collectors.toList());
    }

    private String goalsCount() {
        List<Goals.Goal> measured = goals.stream().filter(g -> !g.met.equals("not measured"))
                .collect(Collectors.toList());
        long met = measured.stream().filter(Goals.Goal::reached).count();
        long unsettled = measured.stream().filter(g -> g.met.endsWith("spread")).count();
        return "Goals met: " + met + " of " + measured.size() + " measured (" + unsettled
                + " within the spread, not settled by this run).";
    }

    /** Plain-text tables for the console. */
    String console() {
        StringBuilder s = new StringBuilder();
        s.append("Verdict: throughput ratios, medians of the iterations (range from the quartiles); "
                + "above 1 = striped-pool faster.\n\n");
        for (List<List<String>> table : List.of(cycle(), bounded())) {
            if (table.isEmpty()) {
                continue;
            }
            int[] widths = new int[table.get(0).size()];
            for (List<String> row : table) {
                for (int i = 0; i < row.size(); i++) {
                    widths[i] = Math.max(widths[i], row.get(i).length());
                }
            }
            for (List<String> row : table) {
                for (int i = 0; i < row.size(); i++) {
                    String cell = row.get(i);
                    String pad = " ".repeat(widths[i] - cell.length());
                    s.append(i == 0 ? cell + pad : "  " + pad + cell);
                }
                s.append('\n');
            }
            s.append('\n');
        }
        String held = heldLine();
        if (!held.isEmpty()) {
            s.append(held).append("\n\n");
        }
        return s.append(goalsLine()).append('\n').toString();
    }

    /** The same tables in Markdown, for the top of the report. */
    void write(Page page) {
        page.add("## Verdict\n\n");
        for (List<List<String>> table : List.of(cycle(), bounded())) {
            if (!table.isEmpty()) {
                page.table(table.get(0), table.subList(1, table.size()));
            }
        }
        page.add("Throughput ratios: medians of the iterations' scores, the range from the quartiles in "
                + "brackets; above 1 means striped-pool is faster. " + goalsCount()
                + (missed().isEmpty() ? "" : " Not met: " + String.join("; ", missed()) + ".") + "\n\n");
    }
}
