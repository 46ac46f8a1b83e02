package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The sections of the benchmarks with one question each: the garbage collector, objects held
 * across a blocking call, false sharing, and whatever benchmark the report does not know.
 */
final class OtherSections {
    static final List<String> COLLECTORS = List.of("g1", "parallel", "zgc");
    static final Map<String, String> COLLECTOR_NAMES = Map.of("g1", "G1", "parallel", "Parallel", "zgc", "ZGC");
    /** Benchmarks with a section of their own; any other goes to the table of others. */
    private static final Set<String> KNOWN = Set.of("CycleBenchmark", "HoldSeveralBenchmark",
            "BoundedBenchmark", "GcPressureBenchmark", "BurstHoldBenchmark", "FalseSharingBenchmark",
            "HeadroomBenchmark", "JacksonBenchmark");
    /** {@code HeadroomBenchmark}'s implementations, in table order, with their names. */
    private static final List<List<String>> HEADROOM = List.of(List.of("alloc", "allocation (new byte[n])"),
            List.of("allocRounded", "allocation of the class size, no pooling"),
            List.of("pool", "BufferPool, trimming (default)"),
            List.of("poolSmall", "BufferPool, 16 MiB budget (default)"), List.of("poolNoTrim", "BufferPool, trimming off"),
            List.of("poolFine", "BufferPool, 4 classes per doubling"),
            List.of("poolBytesSplit", "a Pool per class by hand, budget split by bytes"),
            List.of("netty", "Netty PooledByteBufAllocator"), List.of("jetty", "Jetty ArrayByteBufferPool"));

    private final Runs runs;
    private final Page page;

    OtherSections(Runs runs, Page page) {
        this.runs = runs;
        this.page = page;
    }

    static String liveName(String live) {
        return live.equals("half") ? "half the heap" : live;
    }

    static String flagsName(String group) {
        return group.equals("restrictContendedOff") ? "-XX:-RestrictContended" : "default flags";
    }

    void gc() {
        boolean any = false;
        for (String c : COLLECTORS) {
            List<Run> rs = runs.gcRuns(c);
            if (rs.isEmpty()) {
                continue;
            }
            if (!any) {
                page.section("Under the garbage collector");
                page.add("`GcPressureBenchmark`, 1 thread, fixed 1 GiB heap, with `-prof gc`. Live set "
                        + "*half*: about half the heap held in 1 KiB arrays for the whole trial. GC columns "
                        + "count what happened during the measurement iterations: B/op is "
                        + "`gc.alloc.rate.norm`, GCs is `gc.count`, GC ms is `gc.time`.\n\n");
                any = true;
            }
            List<String> impls = Names.impls(rs);
            List<String> pools = impls.stream().filter(i -> !i.equals("alloc")).collect(Collectors.toList());
            List<String> header = new ArrayList<>(List.of("payload", "live set"));
            impls.forEach(i -> header.add(Names.of(i)));
            header.add("striped-pool ÷ allocation");
            List<String> costHeader = new ArrayList<>(header.subList(0, header.size() - 1));
            List<List<String>> rows = new ArrayList<>();
            List<List<String>> costs = new ArrayList<>();
            List<String> groups = new ArrayList<>();
            List<Ratio[]> ratios = new ArrayList<>();
            for (String live : Runs.liveSets(rs)) {
                for (String size : Runs.sizes(rs)) {
                    List<String> row = new ArrayList<>(List.of(Format.size(size), liveName(live)));
                    List<String> cost = new ArrayList<>(row);
                    for (String impl : impls) {
                        Run r = runs.gcRun(c, impl, size, live);
                        row.add(r == null ? "–" : Format.score(r.score, r.error));
                        cost.add(r == null ? "–" : Format.bytes(r.metric("gc.alloc.rate.norm")) + " · "
                                + Format.number(r.metric("gc.count")) + " · " + Format.number(r.metric("gc.time")));
                    }
                    Run a = runs.gcRun(c, "alloc", size, live);
                    row.add(Ratio.text(Ratio.of(runs.gcRun(c, "striped", size, live), a)));
                    rows.add(row);
                    costs.add(cost);
                    groups.add(Format.size(size) + (live.equals("none") ? ", no live set" : ", live set " + liveName(live)));
                    Ratio[] bar = new Ratio[pools.size()];
                    for (int i = 0; i < pools.size(); i++) {
                        bar[i] = Ratio.of(runs.gcRun(c, pools.get(i), size, live), a);
                    }
                    ratios.add(bar);
                }
            }
            page.add("### " + COLLECTOR_NAMES.get(c) + "\n\n");
            page.table(header, rows);
            page.add("B/op · GCs · GC ms during the measurement:\n\n");
            page.table(costHeader, costs);
            page.ratioChart("gc-" + c + ".svg", COLLECTOR_NAMES.get(c) + ": each pool's throughput ÷ allocation's",
                    "pool ÷ allocation", groups, pools, ratios.toArray(new Ratio[0][]));
        }
    }

    void burst() {
        List<Run> rs = runs.burstRuns();
        if (rs.isEmpty()) {
            return;
        }
        page.section("Held across a blocking call");
        page.add("`BurstHoldBenchmark`: each thread acquires a 1 KiB payload, touches it, parks for "
                + "a few microseconds while holding it (longer in practice: the OS timer slack), and "
                + "releases it, so many payloads are out at once. *Created per cycle* counts "
                + "acquisitions that returned a payload nobody had used before, over the measurement "
                + "iterations: 1 for allocation, near 0 for a pool that keeps enough objects.\n\n");
        List<String> impls = Names.impls(rs);
        List<Integer> ts = Runs.threadCounts(rs);
        List<List<String>> rows = new ArrayList<>();
        double[][] values = new double[ts.size()][impls.size()];
        for (int g = 0; g < ts.size(); g++) {
            for (int i = 0; i < impls.size(); i++) {
                values[g][i] = Double.NaN;
                for (Run r : rs) {
                    if (r.threads == ts.get(g) && r.param("impl").equals(impls.get(i))) {
                        values[g][i] = Runs.perEvent(r, "creations", "cycles");
                        rows.add(Arrays.asList(Names.of(impls.get(i)), String.valueOf(r.threads),
                                Format.score(r.score, r.error), Format.number(values[g][i]),
                                Format.bytes(r.metric("gc.alloc.rate.norm"))));
                    }
                }
            }
        }
        page.table(List.of("implementation", "threads", "ops/µs", "created per cycle", "B/op"), rows);
        page.chart("burst.svg", "Payloads created per cycle when held across a blocking call",
                "created per cycle, lower is better", ts.stream().map(Names::threads).collect(Collectors.toList()),
                impls, values);
    }

    void falseSharing() {
        List<String> groups = new ArrayList<>();
        for (String g : List.of("defaultFlags", "restrictContendedOff")) {
            if (runs.falseSharing(g, "padded") != null || runs.falseSharing(g, "unpadded") != null) {
                groups.add(g);
            }
        }
        if (groups.isEmpty()) {
            return;
        }
        page.section("False sharing between stripes");
        page.add("`FalseSharingBenchmark`: two threads, each writing the hot field of its own stripe, "
                + "the two stripes allocated back to back. *padded* is the stripe as shipped (padded "
                + "by its class layout); *unpadded* has the same fields without padding, so both hot "
                + "fields share a cache line.\n\n");
        List<List<String>> rows = new ArrayList<>();
        double[][] values = new double[groups.size()][2];
        for (int g = 0; g < groups.size(); g++) {
            Run p = runs.falseSharing(groups.get(g), "padded");
            Run u = runs.falseSharing(groups.get(g), "unpadded");
            values[g][0] = p == null ? Double.NaN : p.score;
            values[g][1] = u == null ? Double.NaN : u.score;
            rows.add(Arrays.asList(flagsName(groups.get(g)), p == null ? "–" : Format.score(p.score, p.error),
                    u == null ? "–" : Format.score(u.score, u.error), Ratio.text(Ratio.of(p, u))));
        }
        page.table(List.of("JVM flags", "padded ops/µs", "unpadded ops/µs", "padded ÷ unpadded"), rows);
        page.chart("false-sharing.svg", "Two threads writing their own stripe's hot field",
                "ops/µs, both threads together", groups.stream().map(OtherSections::flagsName)
                        .collect(Collectors.toList()), List.of("padded (as shipped)", "unpadded"), values);
    }

    /** The seed's scenario: request bodies in a heap with little headroom, GC counts beside throughput. */
    void headroom() {
        List<List<String>> rows = new ArrayList<>();
        for (String c : COLLECTORS) {
            List<Run> rs = runs.named("HeadroomBenchmark." + c);
            for (String live : List.of("roomy", "tight")) {
                Run alloc = find(rs, "alloc", live);
                for (List<String> impl : HEADROOM) {
                    Run r = find(rs, impl.get(0), live);
                    // A failed fork leaves no result, only its error in the log (bench/run lets
                    // only OutOfMemoryError through in this benchmark).
                    if (r == null && runs.outOfMemory.headroom(c, impl.get(0), live)) {
                        rows.add(Arrays.asList(COLLECTOR_NAMES.get(c), live, impl.get(1), "**out of memory**",
                                "–", "–", "–", "–"));
                    } else if (r != null) {
                        rows.add(Arrays.asList(COLLECTOR_NAMES.get(c), live, impl.get(1), Format.score(r.score, r.error),
                                impl.get(0).equals("alloc") ? "1" : Ratio.text(Ratio.of(r, alloc)),
                                Format.number(r.metric("gc.count")), Format.number(r.metric("gc.time")),
                                Format.bytes(r.metric("gc.alloc.rate.norm"))));
                    }
                }
            }
        }
        if (rows.isEmpty()) {
            return;
        }
        page.section("Request bodies in a tight heap");
        page.add("`HeadroomBenchmark`, 1 thread, fixed 256 MiB heap: request bodies of 1 to 64 KiB read into "
                + "buffers, a burst of 2,048 held at once every 16,384 requests, and a quarter of each body's size "
                + "made as garbage by every implementation alike. Live set *roomy*: a quarter of the heap; *tight*: "
                + "three quarters. The pools have a 64 MiB budget. GCs and GC ms are `gc.count` and `gc.time` over "
                + "the measurement iterations, B/op is `gc.alloc.rate.norm`. *Out of memory*: the fork failed with "
                + "`OutOfMemoryError`, a result here, not an error of the run. See docs/buffers.md.\n\n");
        page.table(List.of("collector", "live set", "implementation", "requests/ms", "÷ allocation", "GCs", "GC ms",
                "B/op"), rows);
        headroomCharts();
    }

    /**
     * The table's two halves as charts, one beside the other as the seed's lesson asks: each
     * implementation's throughput against allocation in the same configuration, and the time the
     * collector took meanwhile. A configuration where an implementation ran out of memory has no
     * bar for it.
     */
    private void headroomCharts() {
        List<String> groups = new ArrayList<>();
        List<List<Run>> configurations = new ArrayList<>();
        for (String c : COLLECTORS) {
            List<Run> rs = runs.named("HeadroomBenchmark." + c);
            for (String live : List.of("roomy", "tight")) {
                List<Run> conf = rs.stream().filter(r -> r.param("liveSet").equals(live)).collect(Collectors.toList());
                if (!conf.isEmpty()) {
                    groups.add(COLLECTOR_NAMES.get(c) + ", " + live);
                    configurations.add(conf);
                }
            }
        }
        List<String> keys = new ArrayList<>();
        List<String> labels = new ArrayList<>();
        for (List<String> impl : HEADROOM) {
            if (configurations.stream().anyMatch(conf -> find(conf, impl.get(0)) != null)) {
                keys.add(impl.get(0));
                labels.add(impl.get(1));
            }
        }
        if (groups.isEmpty() || !keys.contains("alloc")) {
            return;
        }
        // The same series in both charts, so that each implementation keeps its colour; allocation
        // is the line at 1 of the first, not a bar.
        Ratio[][] ratios = new Ratio[groups.size()][keys.size()];
        double[][] gcMillis = new double[groups.size()][keys.size()];
        for (int g = 0; g < groups.size(); g++) {
            List<Run> conf = configurations.get(g);
            Run alloc = find(conf, "alloc");
            for (int i = 0; i < keys.size(); i++) {
                Run r = find(conf, keys.get(i));
                gcMillis[g][i] = r == null ? Double.NaN : r.metric("gc.time");
                ratios[g][i] = keys.get(i).equals("alloc") ? null : Ratio.of(r, alloc);
            }
        }
        page.ratioChart("headroom.svg", "Request bodies in a 256 MiB heap: requests/ms ÷ allocation's",
                "÷ allocation in the same configuration", groups, labels, ratios);
        page.chart("headroom-gc.svg", "Request bodies in a 256 MiB heap: time in the collector",
                "GC ms over the measurement iterations (gc.time)", groups, labels, gcMillis);
    }

    private static Run find(List<Run> rs, String impl) {
        return rs.stream().filter(r -> r.param("impl").equals(impl)).findFirst().orElse(null);
    }

    /** The run of {@code impl} with live set {@code live}, or null. */
    static Run find(List<Run> rs, String impl, String live) {
        return find(rs.stream().filter(r -> r.param("liveSet").equals(live)).collect(Collectors.toList()), impl);
    }

    /** Any benchmark the sections above do not know, so that a new one is never left out. */
    void others() {
        List<Run> rs = runs.select(r -> !KNOWN.contains(r.name.substring(0, r.name.indexOf('.'))));
        if (rs.isEmpty()) {
            return;
        }
        page.add("## Other benchmarks\n\n");
        List<List<String>> rows = new ArrayList<>();
        for (Run r : rs) {
            String score = Format.score(r.score, r.error) + ' ' + r.unit + (r.mode.equals("sample")
                    ? " (p50 " + Format.number(r.percentile("50.0")) + ", p99 " + Format.number(r.percentile("99.0"))
                    + ", max " + Format.number(r.percentile("100.0")) + ")" : "");
            rows.add(Arrays.asList(r.name, r.mode, r.params.entrySet().stream()
                    .map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", ")),
                    String.valueOf(r.threads), score, Format.bytes(r.metric("gc.alloc.rate.norm"))));
        }
        page.table(List.of("benchmark", "mode", "parameters", "threads", "score", "B/op"), rows);
    }
}
