package io.github.stripedpool;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jol.vm.VM;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Scenario 4, false sharing between stripes: two threads, each writing the hot field
 * ({@code hint}, written by every push and pop) of its own stripe, with the two stripes allocated
 * one after the other. {@code padded} is {@link Stripe} as shipped (padded by its class
 * hierarchy); {@code unpadded} is {@link UnpaddedStripe}, the same fields without the padding,
 * whose two instances then share a cache line. Each layout runs in a fork with default flags and
 * in one with {@code -XX:-RestrictContended}, which makes the JVM honour {@code Stripe}'s
 * {@code @Contended} as well. The score is the two threads' writes together; if the padding works,
 * {@code padded} runs well above {@code unpadded} with either flag set, provided both threads
 * really run at the same time (on a machine busy with other work they often do not).
 *
 * <p>Lives in the library's package to reach the package-private {@code Stripe}.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar FalseSharingBenchmark
 * </pre>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FalseSharingBenchmark {
    /** Slots per stripe: the default maxIdle of a 2-processor machine spread over 2 stripes. */
    private static final int CAPACITY = 32;
    private static final int CACHE_LINE = 64;

    @Param({"padded", "unpadded"})
    public String layout;

    private boolean padded;
    private Stripe paddedA;
    private Stripe paddedB;
    private UnpaddedStripe unpaddedA;
    private UnpaddedStripe unpaddedB;

    @Setup(Level.Trial)
    public void setUp() {
        switch (layout) {
            case "padded":
                padded = true;
                paddedA = new Stripe(CAPACITY);
                paddedB = new Stripe(CAPACITY);
                report(paddedA, paddedB, StripeFields.class);
                break;
            case "unpadded":
                allocateSharingPair();
                report(unpaddedA, unpaddedB, UnpaddedStripe.class);
                break;
            default:
                throw new IllegalArgumentException("layout must be padded or unpadded, got " + layout);
        }
    }

    /**
     * Two unpadded stripes back to back (objects first, arrays after), their hot fields 32 bytes
     * apart. Whether that puts both on one 64-byte line depends on where the first one starts, so
     * allocate again, a few bytes further, until they share one: the case to measure.
     */
    private void allocateSharingPair() {
        List<Object> shifts = new ArrayList<>();
        for (int attempt = 0; attempt < 16; attempt++) {
            UnpaddedStripe a = new UnpaddedStripe();
            UnpaddedStripe b = new UnpaddedStripe();
            unpaddedA = a;
            unpaddedB = b;
            if (line(a, UnpaddedStripe.class) == line(b, UnpaddedStripe.class)) {
                break;
            }
            shifts.add(new Object()); // 16 bytes: moves the next pair along the line
        }
        unpaddedA.attachArrays(CAPACITY);
        unpaddedB.attachArrays(CAPACITY);
    }

    private static long hintAddress(Object o, Class<?> declaring) {
        try {
            return VM.current().addressOf(o) + VM.current().fieldOffset(declaring.getDeclaredField("hint"));
        } catch (NoSuchFieldException e) {
            throw new IllegalStateException(e);
        }
    }

    private static long line(Object o, Class<?> declaring) {
        return hintAddress(o, declaring) / CACHE_LINE;
    }

    /** Prints, for the log, how far apart the two hot fields are. */
    private void report(Object a, Object b, Class<?> declaring) {
        long distance = Math.abs(hintAddress(b, declaring) - hintAddress(a, declaring));
        System.out.println();
        System.out.println("# " + layout + ": hot fields " + distance + " bytes apart, "
                + (line(a, declaring) == line(b, declaring) ? "on one 64-byte cache line"
                        : "on different 64-byte cache lines"));
    }

    private int writeA() {
        if (padded) {
            Stripe s = paddedA;
            return s.hint = s.hint + 1; // the stripe's plain hot field
        }
        UnpaddedStripe s = unpaddedA;
        return s.hint = s.hint + 1;
    }

    private int writeB() {
        if (padded) {
            Stripe s = paddedB;
            return s.hint = s.hint + 1;
        }
        UnpaddedStripe s = unpaddedB;
        return s.hint = s.hint + 1;
    }

    @Benchmark
    @Group("defaultFlags")
    @GroupThreads(1)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
    public int defaultFlagsA() {
        return writeA();
    }

    @Benchmark
    @Group("defaultFlags")
    @GroupThreads(1)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
    public int defaultFlagsB() {
        return writeB();
    }

    @Benchmark
    @Group("restrictContendedOff")
    @GroupThreads(1)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:-RestrictContended"})
    public int restrictContendedOffA() {
        return writeA();
    }

    @Benchmark
    @Group("restrictContendedOff")
    @GroupThreads(1)
    @Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-XX:-RestrictContended"})
    public int restrictContendedOffB() {
        return writeB();
    }
}
