package io.github.stripedpool.bench.report;

import java.util.Locale;

/** Number formats shared by the tables, the sentences and the charts. */
final class Format {
    private Format() {
    }

    /** About three significant digits, no exponent. */
    static String number(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        double a = Math.abs(v);
        String f = a == 0 ? "%.0f" : a >= 100 ? "%.0f" : a >= 10 ? "%.1f" : a >= 1 ? "%.2f"
                : a >= 0.01 ? "%.3f" : "%.2g";
        return String.format(Locale.ROOT, f, v);
    }

    /** An axis tick: no trailing zeros. */
    static String tick(double v) {
        return new java.math.BigDecimal(String.format(Locale.ROOT, "%.6g", v)).stripTrailingZeros()
                .toPlainString();
    }

    static String ratio(double r) {
        if (Double.isNaN(r) || Double.isInfinite(r)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, r >= 10 ? "%.0fx" : "%.2fx", r);
    }

    /** A score with its error (99.9% confidence half-width) when JMH computed one. */
    static String score(double score, double error) {
        if (Double.isNaN(error)) {
            return number(score);
        }
        return number(score) + " ± " + number(error);
    }

    /** Bytes per operation: whole bytes, two decimals below 10 so that amortised costs show. */
    static String bytes(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return String.format(Locale.ROOT, v < 10 ? "%.2f" : "%.0f", v);
    }

    /** {@code 16384} as {@code 16 KiB}. */
    static String size(String bytes) {
        try {
            long b = Long.parseLong(bytes);
            if (b >= 1024 && b % 1024 == 0) {
                return (b / 1024) + " KiB";
            }
            return b + " B";
        } catch (NumberFormatException e) {
            return bytes;
        }
    }
}
