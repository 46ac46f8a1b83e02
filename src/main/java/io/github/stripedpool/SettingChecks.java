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
        int length = name.codePointCount(0, name.length()); // characters, not UTF-16 units
        if (length > PoolBuilder.MAX_NAME_LENGTH) {
            throw new IllegalArgumentException("name is " + length + " characters long, "
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
        if (isMark(name.codePointAt(0))) {
            throw new IllegalArgumentException(String.format("name starts with the combining "
                    + "mark U+%04X, which has no character to combine with and may print as "
                    + "nothing: start with a letter or a digit", name.codePointAt(0)));
        }
        return name;
    }

    /**
     * Letters and symbols by their Unicode category that print as nothing: Hangul fillers and
     * the blank Braille pattern, used to make names that look empty.
     */
    private static final int[] BLANK_LETTERS = {0x115F, 0x1160, 0x2800, 0x3164, 0xFFA0};

    private static boolean isMark(int c) {
        int t = Character.getType(c);
        return t == Character.NON_SPACING_MARK || t == Character.ENCLOSING_MARK
                || t == Character.COMBINING_SPACING_MARK;
    }

    /** Whether {@code c} shows as itself in a log line; see {@link PoolBuilder#name(String)}. */
    private static boolean printable(int c) {
        for (int blank : BLANK_LETTERS) {
            if (c == blank) {
                return false;
            }
        }
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
