package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Virtual threads get no private slot, so a wave of them that blocks while holding objects does
 * not strand one object per thread: the next wave reuses what the first one created.
 *
 * <p>Needs JDK 21+. On an older JVM the test looks for one at run time (the
 * {@code JAVA_HOME*} environment variables, then the JDKs installed next to the running one) and
 * runs {@link VirtualThreadExperiment} in a child JVM on the same classes.
 */
@Timeout(180)
class VirtualThreadTest {
    /** Wave 2 may create a few objects: stripe hints lost to racing pushes hide some until aging. */
    private static final long MAX_WAVE2_CREATED = 16;

    @Test
    void secondWaveOfBlockingVirtualThreadsReusesTheFirstWavesObjects() throws Exception {
        VirtualThreadExperiment.Outcome o;
        if (Runtime.version().feature() >= 21) {
            o = VirtualThreadExperiment.run();
            System.out.println(o.stats);
        } else {
            o = runInChildJvm(findJdk21());
        }
        System.out.println(o.line());
        int n = VirtualThreadExperiment.THREADS;
        assertEquals(2 * n, o.virtualThreads, "every task must run on a virtual thread");
        // All of wave 1 holds an object at once, from an empty pool: exactly one creation each.
        assertEquals(n, o.wave1Created, "wave 1 created " + o.wave1Created + " objects for " + n + " threads");
        assertTrue(o.wave2Created <= MAX_WAVE2_CREATED, "wave 2 created " + o.wave2Created
                + " objects; it should reuse wave 1's " + o.wave1Created);
        assertEquals(n, o.wave1Distinct, "two virtual threads held the same object at once");
        assertEquals(n, o.wave2Distinct, "two virtual threads held the same object at once");
        assertEquals(0, o.imbalance, "created - dropped must equal idle + inUse: " + o.line());
        assertEquals(0, o.privateHits, "virtual threads must not use private slots");
        assertEquals(0, o.privateSlots, "virtual threads must not register private slots");
    }

    private static VirtualThreadExperiment.Outcome runInChildJvm(Path jdk) throws Exception {
        System.out.println("running " + VirtualThreadExperiment.class.getName() + " in a child JVM on " + jdk);
        // ChildJvm: its timeout holds even if the child hangs (it reads the output from a file).
        String out = ChildJvm.run(jdk, childClassPath(), VirtualThreadExperiment.class, 120, "-Xmx256m");
        System.out.print(out);
        String line = out.lines().filter(l -> l.startsWith(VirtualThreadExperiment.RESULT)).findFirst()
                .orElse(null);
        assertNotNull(line, "the child JVM printed no result line:\n" + out);
        return VirtualThreadExperiment.Outcome.parse(line);
    }

    /**
     * The directories of the test classes and of the library classes. Not
     * {@code java.class.path}: the test runner may have replaced it by a manifest-only jar.
     */
    static String childClassPath() throws URISyntaxException {
        List<String> entries = new ArrayList<>();
        for (Class<?> c : new Class<?>[] {VirtualThreadExperiment.class, Pool.class}) {
            String e = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
            if (!entries.contains(e)) {
                entries.add(e);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    /** A JDK 21+ home, or aborts the test naming every place it searched. */
    static Path findJdk21() throws IOException {
        List<String> searched = new ArrayList<>();
        Optional<Path> jdk = findJdk21(System.getenv(), Path.of(System.getProperty("java.home")), searched);
        if (jdk.isEmpty()) {
            Assumptions.abort("virtual threads need JDK 21+; this JVM is " + Runtime.version()
                    + " and no JDK 21+ (a 'release' file with JAVA_VERSION >= 21 and a bin/java) "
                    + "was found in: " + String.join(", ", searched));
        }
        return jdk.get();
    }

    /**
     * Looks in the {@code JAVA_HOME*} variables of {@code env} (as CI images set them, e.g.
     * {@code JAVA_HOME_21_X64}), then in the directories next to {@code javaHome}.
     */
    static Optional<Path> findJdk21(Map<String, String> env, Path javaHome, List<String> searched)
            throws IOException {
        for (Map.Entry<String, String> e : new TreeMap<>(env).entrySet()) {
            if (e.getKey().startsWith("JAVA_HOME")) {
                searched.add("$" + e.getKey() + "=" + e.getValue());
                Optional<Path> jdk = jdk21At(Path.of(e.getValue()));
                if (jdk.isPresent()) {
                    return jdk;
                }
            }
        }
        Path parent = javaHome.toAbsolutePath().getParent();
        if (parent != null && Files.isDirectory(parent)) {
            searched.add("the directories in " + parent);
            List<Path> siblings;
            try (Stream<Path> s = Files.list(parent)) {
                siblings = s.sorted().toList();
            }
            for (Path sibling : siblings) {
                Optional<Path> jdk = jdk21At(sibling);
                if (jdk.isPresent()) {
                    return jdk;
                }
            }
        }
        return Optional.empty();
    }

    private static Optional<Path> jdk21At(Path home) {
        Path release = home.resolve("release");
        Path java = home.resolve("bin").resolve(isWindows() ? "java.exe" : "java");
        if (!Files.isRegularFile(release) || !Files.isExecutable(java)) {
            return Optional.empty();
        }
        try {
            for (String line : Files.readAllLines(release, StandardCharsets.UTF_8)) {
                if (line.startsWith("JAVA_VERSION=")) {
                    return featureVersion(line) >= 21 ? Optional.of(home) : Optional.empty();
                }
            }
        } catch (IOException | RuntimeException e) {
            return Optional.empty(); // unreadable or odd release file: not a candidate
        }
        return Optional.empty();
    }

    /** {@code JAVA_VERSION="21.0.2"} gives 21, {@code "1.8.0_402"} gives 8. */
    static int featureVersion(String releaseLine) {
        String v = releaseLine.substring(releaseLine.indexOf('=') + 1).replace("\"", "").trim();
        String[] parts = v.split("[._+-]");
        int first = Integer.parseInt(parts[0]);
        return first == 1 && parts.length > 1 ? Integer.parseInt(parts[1]) : first;
    }

    private static boolean isWindows() {
        return System.getProperty("os.name", "").startsWith("Windows");
    }

    @Test
    void jdkSearchFindsAJdk21NextToTheRunningOneAndNamesWhereItLooked(@TempDir Path jvms) throws IOException {
        Path running = fakeJdk(jvms.resolve("jdk-17"), "17.0.15");
        fakeJdk(jvms.resolve("jdk-11"), "11.0.2");
        List<String> searched = new ArrayList<>();
        assertEquals(Optional.empty(), findJdk21(Map.of("JAVA_HOME", running.toString()), running, searched));
        assertEquals(List.of("$JAVA_HOME=" + running, "the directories in " + jvms), searched);

        Path jdk22 = fakeJdk(jvms.resolve("jdk-22"), "22.0.1");
        assertEquals(Optional.of(jdk22), findJdk21(Map.of(), running, new ArrayList<>()));
        Path fromEnv = fakeJdk(jvms.resolve("elsewhere").resolve("jdk-21"), "21.0.2");
        assertEquals(Optional.of(fromEnv),
                findJdk21(Map.of("JAVA_HOME_21_X64", fromEnv.toString()), running, new ArrayList<>()));
    }

    private static Path fakeJdk(Path home, String version) throws IOException {
        Path bin = Files.createDirectories(home.resolve("bin"));
        Path java = Files.createFile(bin.resolve(isWindows() ? "java.exe" : "java"));
        assertTrue(java.toFile().setExecutable(true));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"test\"\nJAVA_VERSION=\"" + version + "\"\n");
        return home;
    }

    @Test
    void releaseFileVersionsAreReadAsFeatureReleases() {
        assertEquals(21, featureVersion("JAVA_VERSION=\"21.0.2\""));
        assertEquals(25, featureVersion("JAVA_VERSION=\"25\""));
        assertEquals(17, featureVersion("JAVA_VERSION=\"17.0.15\""));
        assertEquals(8, featureVersion("JAVA_VERSION=\"1.8.0_402\""));
        assertEquals(22, featureVersion("JAVA_VERSION=\"22-ea\""));
    }
}
