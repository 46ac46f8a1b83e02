package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/** The implementations' display names and their order in every table and chart. */
final class Names {
    /** Table and chart order; an implementation not listed here follows, sorted by name. */
    static final List<String> ORDER = List.of("striped", "stripedReset", "stripedDestroy",
            "stripedHooks", "stripedSampled", "stripedParanoid", "floor", "floorExact", "floorStack", "netty", "stormpot", "vibur", "concurrentBag", "commonsPool2",
            "alloc", "ceiling");
    private static final Map<String, String> NAMES = Map.ofEntries(
            Map.entry("striped", "striped-pool"),
            Map.entry("stripedReset", "striped-pool, reset hook"),
            Map.entry("stripedDestroy", "striped-pool, destroy hook"),
            Map.entry("stripedHooks", "striped-pool, reset + destroy hooks"),
            Map.entry("stripedSampled", "striped-pool, leak detection SAMPLED"),
            Map.entry("stripedParanoid", "striped-pool, leak detection PARANOID"),
            Map.entry("floor", "floor (one plain slot per thread)"),
            Map.entry("floorExact", "exact floor (one slot per thread, taken and put by compare-and-set)"),
            Map.entry("floorStack", "floor for k objects (a plain stack of 8 per thread)"),
            Map.entry("netty", "Netty Recycler"),
            Map.entry("stormpot", "Stormpot"),
            Map.entry("vibur", "Vibur"),
            Map.entry("concurrentBag", "HikariCP ConcurrentBag"),
            Map.entry("commonsPool2", "commons-pool2"),
            Map.entry("alloc", "allocation (new)"),
            Map.entry("ceiling", "ceiling (no pool: each thread works on its own object)"));
    /** The library's mode rows: compared with the bare pool, not with the peers. */
    static final List<String> MODES = List.of("stripedReset", "stripedDestroy", "stripedHooks",
            "stripedSampled", "stripedParanoid");

    private Names() {
    }

    static String of(String impl) {
        return NAMES.getOrDefault(impl, impl);
    }

    /** The implementations present in {@code runs}, in table order. */
    static List<String> impls(List<Run> runs) {
        Set<String> present = new LinkedHashSet<>();
        runs.forEach(r -> present.add(r.param("impl")));
        List<String> out = new ArrayList<>();
        for (String i : ORDER) {
            if (present.remove(i)) {
                out.add(i);
            }
        }
        out.addAll(new TreeSet<>(present));
        return out;
    }

    /**
     * The peers of {@code impls}: everything but the library's own rows and the exact floor,
     * which is the limit of the destroy-hook mode, not of the bare pool, and has its own row.
     */
    static List<String> peers(List<String> impls) {
        List<String> out = new ArrayList<>(impls);
        out.remove("striped");
        out.removeAll(MODES);
        out.remove("floorExact");
        return out;
    }

    static String threads(int t) {
        return t + (t == 1 ? " thread" : " threads");
    }
}
