package io.github.stripedpool;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The fixtures of this package's tests that the tests of the integration packages
 * ({@code io.github.stripedpool.jackson}) use too: leak reports, collections until a condition
 * holds, virtual threads and the child JVM of a JDK 21+ that runs them where this JVM has none.
 */
public final class TestSupport {
    private TestSupport() {
    }

    /** An {@code onLeak} listener whose reports a test awaits: see {@link LeakTesting.Reports}. */
    public static final class LeakReports implements Consumer<LeakReport> {
        private final LeakTesting.Reports reports = new LeakTesting.Reports();

        /** A listener that has received no report yet. */
        public LeakReports() {
        }

        @Override
        public void accept(LeakReport r) {
            reports.accept(r);
        }

        /** Forces collections until {@code n} reports have arrived, or fails at the deadline. */
        public List<LeakReport> await(int n) throws InterruptedException {
            return reports.await(n);
        }

        /** Every report that arrived so far, without waiting. */
        public List<LeakReport> soFar() {
            return reports.soFar();
        }
    }

    /** Forces collections until {@code done} holds, or fails at the deadline. */
    public static void gcUntil(String what, BooleanSupplier done) {
        LeakTesting.gcUntil(what, done);
    }

    /** Whether any of the frames is in a method of that name. */
    public static boolean hasFrame(StackTraceElement[] frames, String method) {
        return LeakTesting.hasFrame(frames, method);
    }

    /** Whether this JVM has virtual threads (JDK 21+). */
    public static boolean virtualThreadsHere() {
        return VirtualThreads.AVAILABLE;
    }

    /** Starts a virtual thread running {@code body}; needs {@link #virtualThreadsHere()}. */
    public static Thread startVirtual(Runnable body) {
        return VirtualThreads.start(body);
    }

    /**
     * Runs {@code main} in a child JVM of a JDK 21+ found beside this one, with the library, the
     * test classes and the jars of {@code alsoOnClassPath} on its class path; asserts exit status
     * 0 and returns what it printed. Aborts the test, saying where it looked, if there is no
     * such JDK.
     */
    public static String runOnVirtualThreadJdk(Class<?> main, long timeoutSeconds, Class<?>... alsoOnClassPath)
            throws Exception {
        Path jdk = VirtualThreadTest.findJdk21();
        List<String> entries = new ArrayList<>(List.of(ChildJvm.classPath()));
        for (Class<?> c : alsoOnClassPath) {
            String e = ChildJvm.locationOf(c).toString();
            if (!entries.contains(e)) {
                entries.add(e);
            }
        }
        return ChildJvm.run(jdk, String.join(File.pathSeparator, entries), main, timeoutSeconds, "-Xmx256m");
    }
}
