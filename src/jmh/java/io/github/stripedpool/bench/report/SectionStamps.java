package io.github.stripedpool.bench.report;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * When, at which commit and on which JVM each section of a full run finished: the {@code done}
 * stamps that {@code bench/run full} writes in each section's directory. A full run may be made
 * in several sittings ({@code bench/run full SECTION...}, {@code bench/run full resume}); the page
 * says so, and names every commit its figures come from, so that a figure measured before a change
 * is never read as one measured after it.
 */
final class SectionStamps {
    /** A section's name and its stamp's values. */
    private final Map<String, Properties> stamps;

    private SectionStamps(Map<String, Properties> stamps) {
        this.stamps = stamps;
    }

    /** The stamps of the sections under {@code results}; none for a quick or smoke run. */
    static SectionStamps read(Path results) throws IOException {
        Map<String, Properties> stamps = new LinkedHashMap<>();
        List<Path> dirs;
        try (Stream<Path> s = Files.list(results)) {
            dirs = s.filter(Files::isDirectory).sorted().collect(Collectors.toList());
        }
        for (Path d : dirs) {
            Path done = d.resolve("done");
            if (Files.isRegularFile(done)) {
                Properties p = new Properties();
                try (Reader r = Files.newBufferedReader(done, StandardCharsets.UTF_8)) {
                    p.load(r);
                }
                stamps.put(d.getFileName().toString(), p);
            }
        }
        return new SectionStamps(stamps);
    }

    boolean isEmpty() {
        return stamps.isEmpty();
    }

    /**
     * One sentence: the span of time the sections finished in, and the commit of each, e.g.
     * "Sections finished from 2026-11-29 11:40 UTC to 2026-11-30 10:02 UTC, at commit abc (all)."
     * Empty if there are no stamps.
     */
    String sentence() {
        if (stamps.isEmpty()) {
            return "";
        }
        TreeSet<String> times = new TreeSet<>();
        Map<String, List<String>> byCommit = new LinkedHashMap<>();
        for (Map.Entry<String, Properties> e : stamps.entrySet()) {
            times.add(e.getValue().getProperty("finished", "?"));
            byCommit.computeIfAbsent(e.getValue().getProperty("commit", "unknown"), k -> new ArrayList<>())
                    .add(e.getKey());
        }
        String when = times.size() == 1 ? "finished " + times.first()
                : "finished from " + times.first() + " to " + times.last();
        String commits;
        if (byCommit.size() == 1) {
            commits = "built from commit `" + byCommit.keySet().iterator().next() + "`";
        } else {
            commits = "built from commits " + byCommit.entrySet().stream()
                    .map(e -> "`" + e.getKey() + "` (" + String.join(", ", e.getValue()) + ")")
                    .collect(Collectors.joining(", "));
        }
        String changes = byCommit.keySet().stream().anyMatch(c -> c.endsWith("+changes"))
                ? " (`+changes`: with changes to the sources not yet committed)" : "";
        String which = stamps.size() == 1 ? "Its one section" : "Its " + stamps.size() + " sections";
        return which + " " + when + ", " + commits + changes + ".";
    }
}
