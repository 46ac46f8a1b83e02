package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The sections of {@code CycleBenchmark} (one object per cycle) and {@code HoldSeveralBenchmark}. */
final class CycleSection {
    private final Runs runs;
    private final Page page;

    CycleSection(Runs runs, Page page) {
        this.runs = runs;
        this.page = page;
    }

    void write() {
        cycle();
        holdSeveral();
    }

    private void cycle() {
        List<Run> rs = runs.cycleRuns();
        if (rs.isEmpty()) {
            return;
        }
        List<Integer> ts = runs.cycleThreads();
        List<String> impls = Names.impls(rs);
        page.section("Cycle: acquire, touch, release");
        page.add("`CycleBenchmark`, 64-byte payload, all threads sharing one pool, G1, 1 GiB heap; every "
                + "worker thread is a Netty `FastThreadLocalThread` (Netty's Recycler pools on no other), "
                + "for every implementation alike. On this machine threads beyond "
                + Runtime.getRuntime().availableProcessors() + " are oversubscribed. A pool that made "
                + "more than a few thousand objects in a trial fails the run: it would have measured "
                + "allocation.\n\n");
        List<String> header = new ArrayList<>(List.of("implementation"));
        ts.forEach(t -> header.add(Names.threads(t)));
        header.add("B/op");
        List<List<String>> rows = new ArrayList<>();
        for (String impl : impls) {
            List<String> row = new ArrayList<>(List.of(Names.of(impl)));
            double bytes = Double.NaN;
            for (int t : ts) {
                Run r = runs.cycle(impl, t);
                row.add(r == null ? "–" : Format.score(r.score, r.error));
                if (r != null && Double.isNaN(bytes)) {
                    bytes = r.metric("gc.alloc.rate.norm");
                }
            }
            row.add(Format.bytes(bytes));
            rows.add(row);
        }
        page.table(header, rows);
        page.add("ops/µs ± 99.9% confidence half-width where JMH could compute one; B/op at the lowest "
                + "thread count.\n\n");

        List<String> ratioHeader = new ArrayList<>(List.of("ratio"));
        ts.forEach(t -> ratioHeader.add(Names.threads(t)));
        List<String> peers = Names.peers(impls);
        List<List<String>> ratios = new ArrayList<>();
        for (String peer : peers) {
            if (peer.equals("floor")) {
                continue; // its own row below, the other way round: how far the pool is from it
            }
            List<String> row = new ArrayList<>(List.of("striped-pool ÷ " + Names.of(peer)));
            ts.forEach(t -> row.add(Ratio.text(Ratio.of(runs.cycle("striped", t), runs.cycle(peer, t)))));
            ratios.add(row);
        }
        if (impls.contains("floor")) {
            List<String> row = new ArrayList<>(List.of("floor ÷ striped-pool (how far from the floor)"));
            ts.forEach(t -> row.add(Ratio.text(Ratio.of(runs.cycle("floor", t), runs.cycle("striped", t)))));
            ratios.add(row);
        }
        if (impls.contains("floorExact")) {
            List<String> row = new ArrayList<>(List.of("exact floor ÷ striped-pool, destroy hook (how far from "
                    + "the floor of an exact destroy)"));
            ts.forEach(t -> row.add(Ratio.text(Ratio.of(runs.cycle("floorExact", t), runs.cycle("stripedDestroy", t)))));
            ratios.add(row);
            List<String> netty = new ArrayList<>(List.of("exact floor ÷ Netty Recycler (what a destroy hook "
                    + "can reach)"));
            ts.forEach(t -> netty.add(Ratio.text(Ratio.of(runs.cycle("floorExact", t), runs.cycle("netty", t)))));
            ratios.add(netty);
        }
        List<String> scaling = new ArrayList<>(List.of("striped-pool ÷ striped-pool at 1 thread (scaling)"));
        ts.forEach(t -> scaling.add(Ratio.text(Ratio.of(runs.cycle("striped", t), runs.cycle("striped", 1)))));
        ratios.add(scaling);
        page.table(ratioHeader, ratios);
        page.add("Ratios of the medians of the iterations' scores; in brackets the range from pairing "
                + "the quartiles unfavourably and favourably (q1 ÷ q3 to q3 ÷ q1). A ratio above 1 means "
                + "striped-pool is faster.\n\n");
        modes(ts, impls);

        Ratio[][] values = new Ratio[ts.size()][peers.size()];
        for (int g = 0; g < ts.size(); g++) {
            for (int i = 0; i < peers.size(); i++) {
                values[g][i] = Ratio.of(runs.cycle("striped", ts.get(g)), runs.cycle(peers.get(i), ts.get(g)));
            }
        }
        page.ratioChart("cycle.svg", "Cycle: striped-pool's throughput ÷ each peer's", "striped-pool ÷ peer",
                ts.stream().map(Names::threads).collect(Collectors.toList()), peers, values);
    }

    /** What each mode of the library costs against the bare pool, in time per cycle. */
    private void modes(List<Integer> ts, List<String> impls) {
        List<String> modes = impls.stream().filter(Names.MODES::contains).collect(Collectors.toList());
        if (modes.isEmpty()) {
            return;
        }
        List<String> header = new ArrayList<>(List.of("mode: time per cycle ÷ no hooks"));
        ts.forEach(t -> header.add(Names.threads(t)));
        List<List<String>> rows = new ArrayList<>();
        for (String mode : modes) {
            List<String> row = new ArrayList<>(List.of(Names.of(mode)));
            ts.forEach(t -> row.add(Ratio.text(Ratio.of(runs.cycle("striped", t), runs.cycle(mode, t)))));
            rows.add(row);
        }
        page.table(header, rows);
        page.add("Throughput of the bare pool ÷ throughput of the mode, which is the mode's time per "
                + "cycle ÷ the bare pool's: 1.5x means a cycle takes half as long again.\n\n");
    }

    private void holdSeveral() {
        List<Run> rs = runs.holdRuns();
        if (rs.isEmpty()) {
            return;
        }
        List<String> helds = rs.stream().map(r -> r.param("held")).distinct().sorted().collect(Collectors.toList());
        page.section("Several objects held at once");
        page.add("`HoldSeveralBenchmark`, " + Names.threads(rs.get(0).threads) + ": each thread acquires "
                + "*k* 64-byte payloads one after the other, touches each, and releases them in reverse "
                + "order. *acq/µs* counts acquisitions (rounds × k), comparable with the one-object cycle "
                + "above; *created/acq* is the share of acquisitions that returned an object nobody had "
                + "used before: 1 for allocation, near 0 for a pool. The floor keeps one object per "
                + "thread, so it allocates the others each round; the floor for k objects keeps up to 8 in "
                + "a plain array per thread, with no check of any kind: what no pool passes.\n\n");
        List<String> header = new ArrayList<>(List.of("implementation"));
        for (String k : helds) {
            header.add("k = " + k + ": acq/µs");
            header.add("created/acq");
        }
        List<List<String>> rows = new ArrayList<>();
        for (String impl : Names.impls(rs)) {
            List<String> row = new ArrayList<>(List.of(Names.of(impl)));
            for (String k : helds) {
                Run r = runs.hold(impl, k);
                int n = Integer.parseInt(k);
                row.add(r == null ? "–" : Format.score(r.score * n, r.error * n));
                row.add(Format.number(Runs.perEvent(r, "creations", "acquisitions")));
            }
            rows.add(row);
        }
        page.table(header, rows);
    }
}
