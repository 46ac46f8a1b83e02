package io.github.stripedpool.bench.report;

import java.util.List;
import java.util.Locale;

/**
 * Horizontal grouped bar charts as SVG text: one row of bars per group, one bar per series.
 * Two kinds: {@link #bars} from 0 on a linear axis (throughputs, counts), and {@link #ratios}
 * from 1 on a logarithmic axis, so that a ratio of 0.8 and one of 1.25 are bars of the same
 * length on either side of 1, each with an error bar for its range. No dependencies; the output
 * is plain SVG 1.1 that browsers and GitHub render.
 */
final class Chart {
    private static final String[] COLOURS = {
        "#4e79a7", "#a0cbe8", "#86bcb6", "#2f6f89", "#f28e2b", "#e15759", "#b07aa1", "#59a14f",
        "#edc948", "#9c755f", "#bab0ac", "#ff9da7"
    };
    private static final int WIDTH = 820;
    private static final int LEFT = 200;
    private static final int RIGHT = 80;
    private static final int BAR = 14;
    private static final int BAR_GAP = 2;
    private static final int GROUP_GAP = 12;

    private Chart() {
    }

    /** The palette's colour number {@code i}, so that callers can keep a series' colour across charts. */
    static String colour(int i) {
        return COLOURS[i % COLOURS.length];
    }

    /**
     * @param colours one per series, e.g. from {@link #colour(int)}
     * @param values {@code [group][series]}; NaN draws no bar
     */
    static String bars(String title, String axisLabel, List<String> groups, List<String> series,
            List<String> colours, double[][] values) {
        double max = 0;
        for (double[] row : values) {
            for (double v : row) {
                max = v > max ? v : max;
            }
        }
        Axis axis = Axis.linear(max <= 0 ? 1 : max);
        Frame f = new Frame(title, axisLabel, groups, series, colours, axis);
        for (int g = 0; g < groups.size(); g++) {
            for (int i = 0; i < series.size(); i++) {
                double v = values[g][i];
                if (!Double.isNaN(v)) {
                    f.bar(g, i, 0, v, Format.number(v));
                }
            }
        }
        return f.end(Double.NaN);
    }

    /**
     * @param values {@code [group][series]}; null draws no bar
     */
    static String ratios(String title, String axisLabel, List<String> groups, List<String> series,
            List<String> colours, Ratio[][] values) {
        double lo = 1;
        double hi = 1;
        for (Ratio[] row : values) {
            for (Ratio r : row) {
                if (r != null && r.lo > 0 && r.hi > 0) {
                    lo = Math.min(lo, Math.min(r.lo, r.value));
                    hi = Math.max(hi, Math.max(r.hi, r.value));
                }
            }
        }
        Axis axis = Axis.log(lo, hi);
        Frame f = new Frame(title, axisLabel + " (log scale; right of 1 = faster)", groups, series,
                colours, axis);
        for (int g = 0; g < groups.size(); g++) {
            for (int i = 0; i < series.size(); i++) {
                Ratio r = values[g][i];
                if (r != null && r.value > 0) {
                    f.bar(g, i, 1, r.value, Format.ratio(r.value));
                    f.errorBar(g, i, r.lo, r.hi);
                }
            }
        }
        return f.end(1);
    }

    private static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    /** The SVG being drawn: title, legend, grid, group labels; then bars; then {@link #end}. */
    private static final class Frame {
        final StringBuilder s = new StringBuilder();
        final List<String> groups;
        final List<String> series;
        final List<String> colours;
        final Axis axis;
        final int top;
        final int rowHeight;
        final int plotHeight;
        final int plotWidth = WIDTH - LEFT - RIGHT;

        Frame(String title, String axisLabel, List<String> groups, List<String> series,
                List<String> colours, Axis axis) {
            this.groups = groups;
            this.series = series;
            this.colours = colours;
            this.axis = axis;
            int legendRows = (series.size() + 2) / 3;
            top = 40 + legendRows * 18 + 8;
            rowHeight = series.size() * (BAR + BAR_GAP) - BAR_GAP + GROUP_GAP;
            plotHeight = groups.size() * rowHeight;
            int height = top + plotHeight + 44;
            s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                    + "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                    WIDTH, height, WIDTH, height));
            s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n",
                    WIDTH, height));
            s.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"15\" "
                    + "font-weight=\"bold\">%s</text>%n", esc(title)));
            for (int i = 0; i < series.size(); i++) {
                int x = 10 + (i % 3) * 270;
                int y = 40 + (i / 3) * 18;
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                        + "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                        x, y - 10, colours.get(i), x + 16, y, esc(series.get(i))));
            }
            for (double t : axis.ticks) {
                double x = x(t);
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                        + "stroke=\"#dddddd\"/>%n", x, top - 4, x, top + plotHeight));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                        + "fill=\"#555555\">%s</text>%n", x, top + plotHeight + 16, Format.tick(t)));
            }
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
                    + "fill=\"#333333\">%s</text>%n", LEFT + plotWidth / 2, top + plotHeight + 36,
                    esc(axisLabel)));
            for (int g = 0; g < groups.size(); g++) {
                int mid = top + g * rowHeight + (rowHeight - GROUP_GAP) / 2;
                s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                        LEFT - 8, mid + 4, esc(groups.get(g))));
            }
        }

        double x(double v) {
            return LEFT + axis.fraction(v) * plotWidth;
        }

        int y(int group, int bar) {
            return top + group * rowHeight + bar * (BAR + BAR_GAP);
        }

        /** A bar from {@code from} to {@code v}, labelled beyond its far end. */
        void bar(int g, int i, double from, double v, String label) {
            double x0 = Math.min(x(from), x(v));
            double w = Math.max(1, Math.abs(x(v) - x(from)));
            int y = y(g, i);
            s.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                    + "fill=\"%s\"><title>%s, %s: %s</title></rect>%n", x0, y, w, BAR, colours.get(i),
                    esc(groups.get(g)), esc(series.get(i)), esc(label)));
            boolean left = v < from;
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" fill=\"#333333\"%s>"
                    + "%s</text>%n", left ? x0 - 4 : x0 + w + 4, y + BAR - 3,
                    left ? " text-anchor=\"end\"" : "", esc(label)));
        }

        /** A thin line with end caps across the middle of bar {@code i}, from {@code lo} to {@code hi}. */
        void errorBar(int g, int i, double lo, double hi) {
            if (!(lo > 0) || !(hi > 0)) {
                return;
            }
            int mid = y(g, i) + BAR / 2;
            s.append(String.format(Locale.ROOT, "<path d=\"M%.1f %dV%dM%.1f %dH%.1fM%.1f %dV%d\" "
                    + "stroke=\"#222222\" fill=\"none\"/>%n", x(lo), mid - 4, mid + 4, x(lo), mid, x(hi),
                    x(hi), mid - 4, mid + 4));
        }

        /** Closes the chart, with a dashed line at {@code reference} unless it is NaN. */
        String end(double reference) {
            if (!Double.isNaN(reference)) {
                double x = x(reference);
                s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                        + "stroke=\"#000000\" stroke-dasharray=\"4 3\"/>%n", x, top - 4, x, top + plotHeight));
            } else {
                s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                        + "stroke=\"#333333\"/>%n", LEFT, top - 4, LEFT, top + plotHeight));
            }
            return s.append("</svg>\n").toString();
        }
    }

    /** Maps values to [0, 1] of the plot width and says where the ticks go. */
    private static final class Axis {
        final double lo;
        final double hi;
        final boolean log;
        final double[] ticks;

        private Axis(double lo, double hi, boolean log, double[] ticks) {
            this.lo = lo;
            this.hi = hi;
            this.log = log;
            this.ticks = ticks;
        }

        static Axis linear(double max) {
            double step = niceStep(max / 5);
            int n = (int) Math.ceil(max / step - 1e-9);
            double[] ticks = new double[n + 1];
            for (int i = 0; i <= n; i++) {
                ticks[i] = i * step;
            }
            return new Axis(0, n * step, false, ticks);
        }

        /**
         * A log axis over [lo, hi] widened by a tenth on each side, ticks at 1, 2 and 5 times
         * powers of ten (and at 1.25, 0.8 for narrow ranges, where ratios near 1 matter).
         */
        static Axis log(double lo, double hi) {
            double a = Math.log10(lo) - 0.1;
            double b = Math.log10(hi) + 0.1;
            java.util.List<Double> ticks = new java.util.ArrayList<>();
            double[] steps = b - a < 1.2 ? new double[] {1, 1.25, 1.6, 2, 2.5, 4, 5, 8}
                    : new double[] {1, 2, 5};
            for (int e = (int) Math.floor(a) - 1; e <= (int) Math.ceil(b); e++) {
                for (double m : steps) {
                    double t = m * Math.pow(10, e);
                    double l = Math.log10(t);
                    if (l >= a && l <= b) {
                        ticks.add(t);
                    }
                }
            }
            return new Axis(Math.pow(10, a), Math.pow(10, b), true,
                    ticks.stream().mapToDouble(Double::doubleValue).toArray());
        }

        double fraction(double v) {
            double f = log ? (Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))
                    : (v - lo) / (hi - lo);
            return Math.max(0, Math.min(1, f));
        }

        private static double niceStep(double raw) {
            double p = Math.pow(10, Math.floor(Math.log10(raw)));
            double m = raw / p;
            return (m <= 1 ? 1 : m <= 2 ? 2 : m <= 5 ? 5 : 10) * p;
        }
    }
}
