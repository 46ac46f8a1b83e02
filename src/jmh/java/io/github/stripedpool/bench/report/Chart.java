package io.github.stripedpool.bench.report;

import java.util.List;
import java.util.Locale;

/**
 * Horizontal grouped bar charts as SVG text: one row of bars per group, one bar per series, a
 * linear or logarithmic value axis, an optional dashed reference line (1.0 for ratios). No
 * dependencies; the output is plain SVG 1.1 that browsers and GitHub render.
 */
final class Chart {
    private static final String[] COLOURS = {
        "#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"
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
     * @param values {@code [group][series]}; NaN or, on a log axis, values of 0 or less draw no bar
     * @param reference a value to mark with a dashed line, or NaN for none
     */
    static String bars(String title, String axisLabel, List<String> groups, List<String> series,
            List<String> colours, double[][] values, boolean log, double reference) {
        double max = 0;
        double minPositive = Double.MAX_VALUE;
        for (double[] row : values) {
            for (double v : row) {
                if (v > max) {
                    max = v;
                }
                if (v > 0 && v < minPositive) {
                    minPositive = v;
                }
            }
        }
        if (!Double.isNaN(reference) && reference > max) {
            max = reference;
        }
        if (max <= 0) {
            max = 1;
            minPositive = 1;
        }
        Axis axis = log ? Axis.log(minPositive, max) : Axis.linear(max);
        int legendRows = (series.size() + 3) / 4;
        int top = 40 + legendRows * 18 + 8;
        int rowHeight = series.size() * (BAR + BAR_GAP) - BAR_GAP + GROUP_GAP;
        int plotHeight = groups.size() * rowHeight;
        int height = top + plotHeight + 44;
        int plotWidth = WIDTH - LEFT - RIGHT;

        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" "
                + "height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                WIDTH, height, WIDTH, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n",
                WIDTH, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"22\" font-size=\"15\" "
                + "font-weight=\"bold\">%s</text>%n", 10, esc(title)));
        for (int i = 0; i < series.size(); i++) {
            int x = 10 + (i % 4) * 200;
            int y = 40 + (i / 4) * 18;
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" "
                    + "fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    x, y - 10, colours.get(i), x + 16, y, esc(series.get(i))));
        }
        // grid and ticks
        for (double t : axis.ticks) {
            double x = LEFT + axis.fraction(t) * plotWidth;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                    + "stroke=\"#dddddd\"/>%n", x, top - 4, x, top + plotHeight));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\" "
                    + "fill=\"#555555\">%s</text>%n", x, top + plotHeight + 16, Format.tick(t)));
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" "
                + "fill=\"#333333\">%s</text>%n", LEFT + plotWidth / 2, top + plotHeight + 36,
                esc(axisLabel + (log ? " (log scale)" : ""))));
        for (int g = 0; g < groups.size(); g++) {
            int y0 = top + g * rowHeight;
            int groupMid = y0 + (rowHeight - GROUP_GAP) / 2;
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n",
                    LEFT - 8, groupMid + 4, esc(groups.get(g))));
            for (int i = 0; i < series.size(); i++) {
                double v = values[g][i];
                int y = y0 + i * (BAR + BAR_GAP);
                if (Double.isNaN(v) || (log && v <= 0)) {
                    continue;
                }
                double w = Math.max(1, axis.fraction(v) * plotWidth);
                s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" "
                        + "fill=\"%s\"><title>%s, %s: %s</title></rect>%n", LEFT, y, w, BAR,
                        colours.get(i), esc(groups.get(g)), esc(series.get(i)),
                        Format.number(v)));
                s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"11\" "
                        + "fill=\"#333333\">%s</text>%n", LEFT + w + 4, y + BAR - 3, Format.number(v)));
            }
        }
        if (!Double.isNaN(reference)) {
            double x = LEFT + axis.fraction(reference) * plotWidth;
            s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" "
                    + "stroke=\"#000000\" stroke-dasharray=\"4 3\"/>%n", x, top - 4, x, top + plotHeight));
        }
        s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" "
                + "stroke=\"#333333\"/>%n", LEFT, top - 4, LEFT, top + plotHeight));
        s.append("</svg>\n");
        return s.toString();
    }

    private static String esc(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
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

        static Axis log(double minPositive, double max) {
            int a = (int) Math.floor(Math.log10(minPositive));
            int b = (int) Math.ceil(Math.log10(max));
            if (b == a) {
                b = a + 1;
            }
            double[] ticks = new double[b - a + 1];
            for (int i = 0; i < ticks.length; i++) {
                ticks[i] = Math.pow(10, a + i);
            }
            return new Axis(Math.pow(10, a), Math.pow(10, b), true, ticks);
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
