package io.github.stripedpool.bench.report;

/**
 * A throughput ratio {@code A ÷ B} of one run, with its spread. The value is the ratio of the
 * medians of the two runs' iteration scores, which one slow iteration (a GC, a preempted core)
 * moves less than the mean. The range pairs the quartiles the unfavourable way and the
 * favourable way: {@code q1(A) ÷ q3(B)} to {@code q3(A) ÷ q1(B)}; half of each run's iterations
 * lie between its quartiles, so a target inside the range is not settled by this run.
 */
final class Ratio {
    final double value;
    final double lo;
    final double hi;

    private Ratio(double value, double lo, double hi) {
        this.value = value;
        this.lo = lo;
        this.hi = hi;
    }

    /** {@code a ÷ b}, or null if either is missing. */
    static Ratio of(Run a, Run b) {
        if (a == null || b == null) {
            return null;
        }
        return new Ratio(a.median() / b.median(), a.quantile(0.25) / b.quantile(0.75),
                a.quantile(0.75) / b.quantile(0.25));
    }

    /** {@code b ÷ a}: the same comparison from the other side. */
    Ratio inverse() {
        return new Ratio(1 / value, 1 / hi, 1 / lo);
    }

    /** Whether the whole range is at or above {@code target}: "yes", "no" or "unclear". */
    String atLeast(double target) {
        return value >= target ? (lo >= target ? "yes" : "yes, within the spread")
                : (hi >= target ? "no, within the spread" : "no");
    }

    /** {@code 1.23x (1.10–1.35)}. */
    String text() {
        return Format.ratio(value) + " (" + Format.number(lo) + "–" + Format.number(hi) + ")";
    }

    /**
     * As {@link #text()}, with one more digit where two would round the value onto
     * {@code target} from below or above, so that the figure printed beside a verdict never
     * reads as the target it missed ({@code 1.25x} for 1.2478 against 1.25).
     */
    String text(double target) {
        String t = text();
        if (!Double.isNaN(value) && value < 10 && value != target
                && Format.ratio(value).equals(Format.ratio(target))) {
            t = String.format(java.util.Locale.ROOT, "%.3fx", value) + t.substring(Format.ratio(value).length());
        }
        return t;
    }

    static String text(Ratio r) {
        return r == null ? "–" : r.text();
    }
}
