package io.github.stripedpool;

import java.time.Duration;
import java.util.Objects;

/**
 * The checks and conversions behind {@link PoolBuilder}'s setters: what a valid name is, how a
 * duration is checked and saturated, the default number of stripes. Stateless.
 */
final class SettingChecks {
    private SettingChecks() {
    }

    /** {@code name} if it is valid, see {@link PoolBuilder#name(String)}; else throws, saying why. */
    static String name(String name) {
        Objects.requireNonNull(name, "name is null: pass a short name that identifies the pool in logs");
        if (name.isBlank()) {
            throw new IllegalArgumentException(
                    "name is blank: pass a short name that identifies the pool in logs");
        }
        if (name.length() > PoolBuilder.MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("name is " + name.length() + " characters long, "
                    + "at most " + PoolBuilder.MAX_NAME_LENGTH + " are allowed: pass a short name that "
                    + "identifies the pool in logs");
        }
        for (int i = 0; i < name.length(); ) {
            int c = name.codePointAt(i);
            if (!printable(c)) {
                throw new IllegalArgumentException(String.format("name has the character "
                        + "U+%04X at index %d, which does not print as itself in a log line "
                        + "(a control, format, invisible or unassigned character, or a space "
                        + "other than U+0020): use letters, digits, punctuation and plain "
                        + "spaces", c, i));
            }
            i += Character.charCount(c);
        }
        return name;
    }

    /** Whether {@code c} shows as itself in a log line; see {@link PoolBuilder#name(String)}. */
    private static boolean printable(int c) {
        switch (Character.getType(c)) {
            case Character.CONTROL:
            case Character.FORMAT:
            case Character.LINE_SEPARATOR:
            case Character.PARAGRAPH_SEPARATOR:
            case Character.SURROGATE:
            case Character.PRIVATE_USE:
            case Character.UNASSIGNED:
                return false;
            case Character.SPACE_SEPARATOR:
                return c == ' ';
            default:
                return true;
        }
    }

    static Duration positive(Duration d, String option) {
        Objects.requireNonNull(d, option + " is null: pass a Duration such as Duration.ofMinutes(5)");
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(option + " must be positive, got " + d
                    + ": pass a Duration above zero, such as Duration.ofSeconds(30)");
        }
        return saturated(d);
    }

    /** {@code d}, or {@link PoolBuilder#LONGEST} if {@code d} is longer: "forever" never overflows. */
    static Duration saturated(Duration d) {
        return d.compareTo(PoolBuilder.LONGEST) > 0 ? PoolBuilder.LONGEST : d;
    }

    /** The smallest power of two at least the number of processors, at most {@code max}. */
    static int defaultStripes(int max) {
        int cpus = Runtime.getRuntime().availableProcessors();
        int p = cpus <= 1 ? 1 : Integer.highestOneBit(cpus - 1) << 1;
        return Math.min(p, max);
    }

    /** A duration in nanoseconds, saturated: {@code Duration.toNanos} throws past 292 years. */
    static long nanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
        }
    }
}
