package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Runs a main class of the test sources in a child JVM of the running JDK, for experiments that
 * must not share a JVM with other tests (heap exhaustion, JVM-wide threads).
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * Runs {@code main} with {@code jvmArgs}, waits up to {@code timeoutSeconds}, asserts exit
     * status 0 and returns everything it printed.
     */
    public static String run(Class<?> main, long timeoutSeconds, String... jvmArgs) throws Exception {
        return run(Path.of(System.getProperty("java.home")), main, timeoutSeconds, jvmArgs);
    }

    /** As {@link #run(Class, long, String...)}, on the JDK at {@code jdk}. */
    static String run(Path jdk, Class<?> main, long timeoutSeconds, String... jvmArgs) throws Exception {
        return run(jdk, classPath(), main, timeoutSeconds, jvmArgs);
    }

    /** As {@link #run(Path, Class, long, String...)}, on the class path {@code classPath}. */
    static String run(Path jdk, String classPath, Class<?> main, long timeoutSeconds, String... jvmArgs)
            throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(jdk.resolve("bin").resolve("java").toString());
        cmd.addAll(List.of(jvmArgs));
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        // To a file, not a pipe read to its end: reading a pipe to its end waits as long as the
        // child lives, so a child that hung was never timed out.
        Path log = Files.createTempFile("child-jvm-", ".log");
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        String out;
        try {
            if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                throw new AssertionError("the child JVM did not finish in " + timeoutSeconds + " s:\n"
                        + new String(Files.readAllBytes(log), StandardCharsets.UTF_8));
            }
            out = new String(Files.readAllBytes(log), StandardCharsets.UTF_8);
        } finally {
            Files.deleteIfExists(log);
        }
        assertEquals(0, p.exitValue(), "the child JVM failed: " + String.join(" ", cmd) + "\n" + out);
        return out;
    }

    /**
     * The directories of the test classes and of the library classes. Not
     * {@code java.class.path}: the test runner may have replaced it by a manifest-only jar.
     */
    static String classPath() throws URISyntaxException {
        List<String> entries = new ArrayList<>();
        for (Path e : new Path[] {locationOf(ChildJvm.class), locationOf(Pool.class)}) {
            if (!entries.contains(e.toString())) {
                entries.add(e.toString());
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    static Path locationOf(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
