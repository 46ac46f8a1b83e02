package io.github.stripedpool.bench.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry of a JMH JSON result: a benchmark method with one set of parameters and one thread
 * count, its score and its secondary metrics ({@code gc.*} from {@code -prof gc}, auxiliary
 * counters).
 */
final class Run {
    /** {@code Class.method}, without the package. */
    final String name;
    final Map<String, String> params;
    /** JMH's short mode name: thrpt, avgt, sample, ss. */
    final String mode;
    final int threads;
    final int forks;
    final double score;
    final double error;
    final String unit;
    /** Every measurement iteration's score, of every fork, sorted; empty in sample mode. */
    final double[] samples;
    /** Percentile (as JMH writes it, e.g. "99.0") to value; meaningful in sample mode. */
    final Map<String, Double> percentiles = new LinkedHashMap<>();
    /** Secondary metric name (without JMH's leading middle dot) to score. */
    final Map<String, Double> secondary = new LinkedHashMap<>();
    final List<String> jvmArgs;
    final String jvm;
    final String jdkVersion;
    final String vmName;
    final String vmVersion;
    final String jmhVersion;
    final String warmup;
    final String measurement;

    @SuppressWarnings("unchecked")
    Run(Map<String, Object> json) {
        String benchmark = (String) json.get("benchmark");
        String[] parts = benchmark.split("\\.");
        name = parts[parts.length - 2] + "." + parts[parts.length - 1];
        Map<String, String> p = new LinkedHashMap<>();
        Object rawParams = json.get("params");
        if (rawParams instanceof Map) {
            ((Map<String, Object>) rawParams).forEach((k, v) -> p.put(k, String.valueOf(v)));
        }
        params = p;
        mode = String.valueOf(json.get("mode"));
        threads = (int) Json.number(json.get("threads"));
        forks = (int) Json.number(json.get("forks"));
        Map<String, Object> primary = (Map<String, Object>) json.get("primaryMetric");
        score = Json.number(primary.get("score"));
        error = Json.number(primary.get("scoreError"));
        unit = (String) primary.get("scoreUnit");
        samples = samples(primary.get("rawData"));
        Object rawPercentiles = primary.get("scorePercentiles");
        if (rawPercentiles instanceof Map) {
            ((Map<String, Object>) rawPercentiles).forEach((k, v) -> percentiles.put(k, Json.number(v)));
        }
        Object rawSecondary = json.get("secondaryMetrics");
        if (rawSecondary instanceof Map) {
            ((Map<String, Object>) rawSecondary).forEach((k, v) -> secondary.put(
                    k.replace("\u00b7", ""), Json.number(((Map<String, Object>) v).get("score"))));
        }
        jvmArgs = (List<String>) (List<?>) json.getOrDefault("jvmArgs", List.of());
        jvm = String.valueOf(json.get("jvm"));
        jdkVersion = String.valueOf(json.get("jdkVersion"));
        vmName = String.valueOf(json.get("vmName"));
        vmVersion = String.valueOf(json.get("vmVersion"));
        jmhVersion = String.valueOf(json.get("jmhVersion"));
        warmup = (int) Json.number(json.get("warmupIterations")) + " x " + json.get("warmupTime");
        measurement = (int) Json.number(json.get("measurementIterations")) + " x "
                + json.get("measurementTime");
    }

    @SuppressWarnings("unchecked")
    private static double[] samples(Object rawData) {
        List<Double> all = new ArrayList<>();
        if (rawData instanceof List) {
            for (Object fork : (List<Object>) rawData) {
                for (Object v : (List<Object>) fork) {
                    all.add(Json.number(v));
                }
            }
        }
        double[] out = all.stream().mapToDouble(Double::doubleValue).filter(v -> !Double.isNaN(v)).toArray();
        Arrays.sort(out);
        return out;
    }

    /**
     * The {@code q}-quantile (0.5 the median) of the iteration scores, interpolated between
     * neighbours; JMH's mean score where there are no iteration scores.
     */
    double quantile(double q) {
        if (samples.length == 0) {
            return score;
        }
        double pos = q * (samples.length - 1);
        int lo = (int) Math.floor(pos);
        int hi = Math.min(lo + 1, samples.length - 1);
        return samples[lo] + (pos - lo) * (samples[hi] - samples[lo]);
    }

    double median() {
        return quantile(0.5);
    }

    /** A percentile of a sample-mode run, e.g. {@code "99.0"}, {@code "100.0"} for the maximum. */
    double percentile(String p) {
        return percentiles.getOrDefault(p, Double.NaN);
    }

    String param(String key) {
        return params.getOrDefault(key, "");
    }

    /** A secondary metric's score; a {@code gc.*} metric that JMH left out (nothing seen) is 0. */
    double metric(String key) {
        Double v = secondary.get(key);
        if (v != null) {
            return v;
        }
        return key.startsWith("gc.") && secondary.containsKey("gc.alloc.rate.norm") ? 0.0 : Double.NaN;
    }

    /** JMH's settings for this entry, as the report prints them. */
    String settings() {
        return "forks " + forks + ", warm-up " + warmup + ", measurement " + measurement
                + ", threads " + threads;
    }
}
