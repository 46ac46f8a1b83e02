package io.github.stripedpool;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * An object that was acquired from a pool and became garbage without being released: what it
 * was, who took it, when, and from where. Made in the background (on a
 * {@code striped-pool-worker-N} thread) once the garbage collector has found the object
 * unreachable, and
 * handed to the {@link PoolBuilder#onLeak(java.util.function.Consumer) listener}, to the
 * {@link System.Logger} {@code io.github.stripedpool} and to the JDK Flight Recorder.
 *
 * <p>A bounded pool built with {@link PoolBuilder#reportHeldLongerThan(Duration)} sends two more
 * {@link #kind() kinds} of report through the same channels: an object still borrowed past the
 * threshold ({@link Kind#HELD_TOO_LONG}, once per borrowing), and the later release of such an
 * object ({@link Kind#RETURNED}). A listener that cares only for leaks checks
 * {@code report.kind() == LeakReport.Kind.LEAKED}.
 *
 * <p>{@link #toString()} reads like a stack trace:
 *
 * <pre>
 * LEAK: pool 'buffers': a com.example.Buffer acquired 2417 ms ago (2026-11-22T04:31:07.112Z) by thread 'worker-3' was garbage-collected without release(). Acquired at:
 *     at com.example.Handler.handle(Handler.java:42)
 *     at ...
 * </pre>
 *
 * The first frame is the call to {@code acquire()} or {@code lease()}: the pool's own frames are
 * left out. Look for the path from that call on which the object is not released.
 */
public final class LeakReport {
    /** What a report is about. */
    public enum Kind {
        /** The object became garbage without being released. */
        LEAKED,
        /**
         * The object has been borrowed longer than the pool's
         * {@link PoolBuilder#reportHeldLongerThan(Duration) threshold} and is still not released;
         * {@link #age()} is how long so far.
         */
        HELD_TOO_LONG,
        /**
         * An object reported as {@link #HELD_TOO_LONG} was released; {@link #age()} is how long
         * it was held in all.
         */
        RETURNED
    }

    private final Kind kind;
    private final String poolName;
    private final String objectClass;
    private final String threadName;
    private final Instant acquiredAt;
    private final Duration age;
    private final StackTraceElement[] stackTrace;

    LeakReport(String poolName, String objectClass, String threadName, Instant acquiredAt,
            Duration age, StackTraceElement[] stackTrace) {
        this(Kind.LEAKED, poolName, objectClass, threadName, acquiredAt, age, stackTrace);
    }

    LeakReport(Kind kind, String poolName, String objectClass, String threadName, Instant acquiredAt,
            Duration age, StackTraceElement[] stackTrace) {
        this.kind = Objects.requireNonNull(kind);
        this.poolName = Objects.requireNonNull(poolName);
        this.objectClass = Objects.requireNonNull(objectClass);
        this.threadName = Objects.requireNonNull(threadName);
        this.acquiredAt = Objects.requireNonNull(acquiredAt);
        this.age = Objects.requireNonNull(age);
        this.stackTrace = stackTrace.clone();
    }

    /**
     * What the report is about: a leak, or, in a bounded pool that watches how long objects are
     * held, an object held too long or its late return.
     *
     * @return the kind of the report; {@link Kind#LEAKED} unless the pool was built with
     *         {@link PoolBuilder#reportHeldLongerThan(Duration)}
     */
    public Kind kind() {
        return kind;
    }

    /**
     * The name of the pool the object was acquired from.
     *
     * @return the pool's {@link Pool#name() name}
     */
    public String poolName() {
        return poolName;
    }

    /**
     * The class of the leaked object.
     *
     * @return its fully qualified name, as {@link Class#getTypeName()} gives it ({@code byte[]}
     *         for an array of bytes)
     */
    public String objectClass() {
        return objectClass;
    }

    /**
     * The thread that acquired the object.
     *
     * @return its name at the time of the acquisition
     */
    public String threadName() {
        return threadName;
    }

    /**
     * When the object was acquired, by the wall clock.
     *
     * @return the instant of the acquisition, to the millisecond
     */
    public Instant acquiredAt() {
        return acquiredAt;
    }

    /**
     * How long the object had been out of the pool when the leak was found: from the acquisition
     * to the report, measured with {@link System#nanoTime()}. The object became garbage at some
     * point in between, at the latest at the garbage collection that preceded the report. For
     * {@link Kind#HELD_TOO_LONG}, how long it had been held when reported; for
     * {@link Kind#RETURNED}, how long it was held until its release.
     *
     * @return the time from the acquisition to the report
     */
    public Duration age() {
        return age;
    }

    /**
     * Where the object was acquired: the stack of the acquiring thread, starting at the caller of
     * {@code acquire()} or {@code lease()}.
     *
     * @return a new array on each call; empty if the JVM records no stack traces
     *         ({@code -XX:-StackTraceInThrowable})
     */
    public StackTraceElement[] stackTrace() {
        return stackTrace.clone();
    }

    /**
     * The report as several lines: a summary line, then the acquisition stack trace, one
     * {@code at} line per frame, as a printed exception shows it.
     *
     * @return the report's text, without a trailing line separator
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(256 + 80 * stackTrace.length);
        // if, not a switch: javac compiles a switch on an enum of another class to a lookup
        // class whose static initialiser runs at the first report, on a background thread (see
        // Background.prepare).
        if (kind == Kind.HELD_TOO_LONG) {
            sb.append("HELD TOO LONG: pool '").append(poolName).append("': a ").append(objectClass)
                    .append(" acquired ").append(formatAge(age)).append(" ago (").append(acquiredAt)
                    .append(") by thread '").append(threadName)
                    .append("' is still not released. Acquired at:");
        } else if (kind == Kind.RETURNED) {
            sb.append("RETURNED: pool '").append(poolName).append("': a ").append(objectClass)
                    .append(" acquired at ").append(acquiredAt).append(" by thread '").append(threadName)
                    .append("', reported as held too long, was released after ").append(formatAge(age))
                    .append(". Acquired at:");
        } else {
            sb.append("LEAK: pool '").append(poolName).append("': a ").append(objectClass)
                    .append(" acquired ").append(formatAge(age)).append(" ago (").append(acquiredAt)
                    .append(") by thread '").append(threadName)
                    .append("' was garbage-collected without release(). Acquired at:");
        }
        for (StackTraceElement frame : stackTrace) {
            sb.append(System.lineSeparator()).append("\tat ").append(frame);
        }
        return sb.toString();
    }

    /** Milliseconds below ten seconds, seconds with millisecond precision above. */
    static String formatAge(Duration age) {
        long ms = age.toMillis();
        if (ms < 10_000) {
            return ms + " ms";
        }
        return String.format(java.util.Locale.ROOT, "%.3f s", ms / 1000.0);
    }
}
