package io.github.stripedpool.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The benchmark configurations whose forks ran out of memory, read from the JMH console logs
 * that {@code bench/run} keeps beside the JSON (a failed fork leaves no result in the JSON, only
 * its error in the log). A configuration is a benchmark's short name and its parameters as JMH
 * prints them, e.g. {@code HeadroomBenchmark.zgc (impl = pool, liveSet = tight)}; it ran out of
 * memory if an {@code OutOfMemoryError} is printed between its {@code # Parameters} line and the
 * next configuration. Only what was run is reported: a configuration that a mode of bench/run
 * does not run is not "out of memory", whatever the other configurations did.
 */
final class OutOfMemory {
    private final Set<String> failed;

    private OutOfMemory(Set<String> failed) {
        this.failed = failed;
    }

    /** Reads every {@code *.log} in {@code dir}. */
    static OutOfMemory read(Path dir) throws IOException {
        List<Path> logs;
        try (Stream<Path> s = Files.walk(dir, 2)) { // a full run keeps each section's in a directory
            logs = s.filter(p -> p.toString().endsWith(".log")).sorted().collect(Collectors.toList());
        }
        Set<String> failed = new HashSet<>();
        for (Path log : logs) {
            failed.addAll(parse(Files.readAllLines(log, StandardCharsets.ISO_8859_1)));
        }
        return new OutOfMemory(failed);
    }

    /** The configurations of one log that printed an {@code OutOfMemoryError}. */
    static Set<String> parse(List<String> lines) {
        Set<String> failed = new HashSet<>();
        String benchmark = null;
        String current = null;
        for (String line : lines) {
            if (line.startsWith("# Benchmark: ")) {
                String name = line.substring("# Benchmark: ".length()).trim();
                int dot = name.lastIndexOf('.', name.lastIndexOf('.') - 1);
                benchmark = name.substring(dot + 1);
                current = null;
            } else if (line.startsWith("# Parameters: ") && benchmark != null) {
                current = key(benchmark, line.substring("# Parameters: ".length()).trim());
            } else if (line.startsWith("# Run complete")) {
                current = null;
            } else if (current != null && line.contains("java.lang.OutOfMemoryError")) {
                failed.add(current);
            }
        }
        return failed;
    }

    static String key(String benchmark, String parameters) {
        return benchmark + " " + parameters;
    }

    /**
     * Whether {@code benchmark} (short name, e.g. {@code HeadroomBenchmark.zgc}) with exactly
     * these parameters, as JMH prints them ({@code (impl = pool, liveSet = tight)}), ran out of memory.
     */
    boolean in(String benchmark, String parameters) {
        return failed.contains(key(benchmark, parameters));
    }

    /** {@link #in} for HeadroomBenchmark's two parameters. */
    boolean headroom(String collector, String impl, String live) {
        return in("HeadroomBenchmark." + collector, "(impl = " + impl + ", liveSet = " + live + ")");
    }
}
