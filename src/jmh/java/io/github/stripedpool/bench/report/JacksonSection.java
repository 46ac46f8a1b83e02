package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * {@code JacksonBenchmark}: Jackson's own workload with each recycler pool, one column for each
 * kind and number of threads the run has, requests per millisecond and each pool against the
 * floor (one recycler per carrier thread, the least any pool can cost there), with a chart of
 * the same ratios and a table of the bytes allocated per request.
 */
final class JacksonSection {
    /** Jackson's own pools, in table order: what the goals compare this library's pool with. */
    static final List<String> JACKSON = List.of("threadLocal", "lockFree", "concurrentDeque", "bounded");
    /** Every pool, in table order. */
    private static final List<String> POOLS = List.of("threadLocal", "lockFree", "concurrentDeque", "bounded",
            "striped", "nonRecycling", "floor");

    private final Runs runs;
    private final Page page;

    JacksonSection(Runs runs, Page page) {
        this.runs = runs;
        this.page = page;
    }

    /** One column: the runs of one benchmark method at one thread count. */
    private static final class Column {
        final String label;
        final List<Run> runs = new ArrayList<>();

        Column(String label) {
            this.label = label;
        }

        Run pool(String pool) {
            return runs.stream().filter(r -> r.param("pool").equals(pool)).findFirst().orElse(null);
        }

        /** The best of Jackson's own pools in this column by median, or null if none ran. */
        Run bestOfJackson() {
            return runs.stream().filter(r -> JACKSON.contains(r.param("pool")))
                    .max(Comparator.comparingDouble(Run::median)).orElse(null);
        }
    }

    void write() {
        List<Column> columns = columns();
        if (columns.isEmpty()) {
            return;
        }
        page.section("Jackson's buffer recyclers");
        page.add("`JacksonBenchmark`: an ObjectMapper writes a 3 KB document to bytes and reads it back, one "
                + "request per operation, its buffers from each recycler pool: Jackson's own four, this library's "
                + "(`striped`), a new recycler each time (`nonRecycling`) and the floor (one recycler per carrier "
                + "thread in a plain slot: the least any pool can cost on this workload, not a usable pool). "
                + "Requests per millisecond; *virtual* columns start one virtual thread per request. See "
                + "docs/jackson.md.\n\n");
        List<String> header = new ArrayList<>(List.of("pool"));
        columns.forEach(c -> header.add(c.label));
        List<List<String>> rows = new ArrayList<>();
        List<String> present = new ArrayList<>();
        for (String pool : POOLS) {
            List<String> row = new ArrayList<>(List.of(pool));
            boolean any = false;
            for (Column c : columns) {
                Run r = c.pool(pool);
                any |= r != null;
                row.add(r == null ? "–" : Format.score(r.score, r.error));
            }
            if (any) {
                rows.add(row);
                present.add(pool);
            }
        }
        rows.add(ratioRow("striped ÷ the best of Jackson's pools", columns, "striped"));
        rows.add(ratioRow("floor ÷ the best of Jackson's pools", columns, "floor"));
        page.table(header, rows);

        if (present.contains("floor")) {
            List<String> groups = new ArrayList<>();
            columns.forEach(c -> groups.add(c.label));
            List<String> pools = new ArrayList<>(present);
            pools.remove("floor"); // the 1 every bar is drawn from
            Ratio[][] toFloor = new Ratio[columns.size()][pools.size()];
            for (int g = 0; g < columns.size(); g++) {
                Column c = columns.get(g);
                for (int i = 0; i < pools.size(); i++) {
                    toFloor[g][i] = Ratio.of(c.pool(pools.get(i)), c.pool("floor"));
                }
            }
            page.ratioChart("jackson.svg", "Jackson's workload: each recycler pool ÷ the floor",
                    "requests per ms ÷ the floor's", groups, pools, toFloor);
        }

        List<List<String>> bytes = new ArrayList<>();
        for (String pool : present) {
            List<String> row = new ArrayList<>(List.of(pool));
            for (Column c : columns) {
                Run r = c.pool(pool);
                row.add(r == null ? "–" : Format.bytes(r.metric("gc.alloc.rate.norm")));
            }
            bytes.add(row);
        }
        page.add("Bytes allocated per request (`gc.alloc.rate.norm`): the document's own garbage is what the "
                + "floor allocates; what a pool adds above it is its recyclers'.\n\n");
        page.table(header, bytes);
    }

    /** {@code name}: {@code pool} ÷ the best of Jackson's pools in each column, and which one that was. */
    private static List<String> ratioRow(String name, List<Column> columns, String pool) {
        List<String> row = new ArrayList<>(List.of(name));
        for (Column c : columns) {
            Run best = c.bestOfJackson();
            Ratio r = Ratio.of(c.pool(pool), best);
            row.add(r == null ? "–" : r.text() + " (" + best.param("pool") + ")");
        }
        return row;
    }

    /** Platform threads by thread count, then 100 and 10,000 virtual threads, as far as they ran. */
    private List<Column> columns() {
        List<Column> out = new ArrayList<>();
        List<Run> platform = runs.named("JacksonBenchmark.platform");
        platform.stream().map(r -> r.threads).distinct().sorted().forEach(t -> {
            Column c = new Column(t + (t == 1 ? " platform thread" : " platform threads"));
            platform.stream().filter(r -> r.threads == t).forEach(c.runs::add);
            out.add(c);
        });
        for (List<String> v : Arrays.asList(List.of("virtual100", "100 virtual threads"),
                List.of("virtual10000", "10,000 virtual threads"))) {
            List<Run> rs = runs.named("JacksonBenchmark." + v.get(0));
            if (!rs.isEmpty()) {
                Column c = new Column(v.get(1));
                c.runs.addAll(rs);
                out.add(c);
            }
        }
        return out;
    }
}
