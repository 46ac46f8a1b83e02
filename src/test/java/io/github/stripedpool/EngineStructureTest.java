package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The structure the engines' class comments promise, read from the compiled classes (with
 * {@code javap}), so that it cannot drift from the code without this test failing:
 * <ul>
 *   <li>no part of the bounded engine holds or calls the bounded pool: the parts depend on
 *       {@link BoundedStates} and the wait queue, never back on {@link BoundedPool};</li>
 *   <li>only {@link BoundedStates} and the two parts it names change an entry's state;</li>
 *   <li>following {@code acquire()} or {@code release()} of the bounded engine to its end opens
 *       no more source files of the library than the unbounded engine's do. "Following" is the
 *       call graph of the library's own methods, from the public call, stopping at the
 *       background threads, Flight Recorder and leak reports (a reader stops where work is handed
 *       to another thread or only reported); exception classes are not counted.</li>
 * </ul>
 */
class EngineStructureTest {
    private static final String PKG = "io/github/stripedpool/";
    /** Where a reader following a call stops: other threads' work, reporting. */
    private static final Set<String> STOP = Set.of("Background", "Lane", "Workers", "MaintenanceClock",
            "AgingClock", "ClockThread", "FlightRecorderEvents", "FactoryFailureEvent",
            "AcquireWaitEvent", "LeakEvent", "PoolStatsEvent", "ReportDelivery", "LeakReport", "CallSite");
    private static final Pattern CLASS = Pattern.compile(
            "^(?:[\\w$.<>, ]*\\s)?(?:class|interface|enum)\\s+([\\w.$]+)(?:<.*?>)?(?:\\s+extends\\s+([\\w.$]+))?.*\\{$");
    private static final Pattern METHOD = Pattern.compile(
            "^  (?:[\\w$<>\\[\\],.?\\s]*\\s)?([\\w$<>.]+)\\(.*\\)(?:\\s+throws [\\w.$, ]+)?;$");
    private static final Pattern INVOKE = Pattern.compile(
            "invoke\\w+\\s+#\\d+\\s+// (?:Interface)?Method (?:([\\w/$]+)\\.)?\"?([\\w$<>]+)\"?:");

    /** javap's text of every class of the package, by internal name. */
    private static final Map<String, String> TEXT = new HashMap<>();
    /** Each method ("Class.name") and the library methods it calls. */
    private static final Map<String, Set<String>> CALLS = new HashMap<>();
    private static final Map<String, String> SUPER = new HashMap<>();
    private static Path sources;

    @BeforeAll
    static void readClasses() throws Exception {
        Path dir = Paths.get(BoundedPool.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .resolve(PKG);
        sources = Paths.get("src/main/java").resolve(PKG);
        List<String> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.filter(p -> p.toString().endsWith(".class")).map(Path::toString).collect(Collectors.toList());
        }
        List<String> args = new ArrayList<>(List.of("-c", "-p"));
        args.addAll(files);
        StringWriter out = new StringWriter();
        ToolProvider javap = ToolProvider.findFirst("javap").orElseThrow();
        assertEquals(0, javap.run(new PrintWriter(out), new PrintWriter(new StringWriter()), args.toArray(new String[0])));
        String cls = null;
        String method = null;
        StringBuilder text = null;
        for (String line : out.toString().split("\n")) {
            Matcher m = CLASS.matcher(line);
            if (!line.startsWith(" ") && m.matches()) {
                if (cls != null) {
                    TEXT.put(cls, text.toString());
                }
                cls = m.group(1).replace('.', '/');
                SUPER.put(cls, m.group(2) == null ? "" : m.group(2).replace('.', '/'));
                text = new StringBuilder();
                continue;
            }
            if (text != null) {
                text.append(line).append('\n');
            }
            m = METHOD.matcher(line);
            if (m.matches()) {
                String name = m.group(1).contains(".") ? "<init>" : m.group(1);
                method = cls + "." + name;
                CALLS.computeIfAbsent(method, k -> new HashSet<>());
                continue;
            }
            m = INVOKE.matcher(line);
            if (m.find() && method != null) {
                String owner = m.group(1) != null ? m.group(1) : cls;
                if (owner.startsWith(PKG)) {
                    CALLS.get(method).add(owner + "." + m.group(2));
                }
            }
        }
        TEXT.put(cls, text.toString());
    }

    @Test
    void noPartOfTheBoundedEngineRefersBackToThePool() {
        List<String> offenders = new ArrayList<>();
        for (Map.Entry<String, String> c : TEXT.entrySet()) {
            String name = simple(c.getKey());
            if (name.startsWith("Bounded") && !name.startsWith("BoundedPool")
                    && c.getValue().contains(PKG + "BoundedPool")) {
                offenders.add(name);
            }
        }
        assertEquals(List.of(), offenders, "these bounded parts hold or call BoundedPool: make them "
                + "depend on BoundedStates and the wait queue instead");
    }

    @Test
    void onlyTheStateMachinesOwnerAndItsTwoPartsChangeAnEntrysState() {
        Set<String> allowed = Set.of("BoundedStates", "BoundedEntryTable", "BoundedWaitQueue", "BoundedEntry");
        List<String> offenders = new ArrayList<>();
        for (Map.Entry<String, Set<String>> m : CALLS.entrySet()) {
            String owner = sourceOf(m.getKey().substring(0, m.getKey().lastIndexOf('.')));
            for (String called : m.getValue()) {
                if ((called.equals(PKG + "BoundedEntry.cas") || called.equals(PKG + "BoundedEntry.set"))
                        && !allowed.contains(owner)) {
                    offenders.add(m.getKey() + " -> " + called);
                }
            }
        }
        assertEquals(List.of(), offenders, "an entry's state changed outside BoundedStates: add a "
                + "named transition there and call it");
    }

    @Test
    void theBoundedEngineOpensNoMoreFilesThanTheUnboundedOne() {
        Set<String> boundedAcquire = files("BoundedPool.acquire");
        Set<String> unboundedAcquire = files("UnboundedPool.acquire");
        Set<String> boundedRelease = files("BoundedPool.release");
        Set<String> unboundedRelease = files("UnboundedPool.release");
        System.out.println("files opened by acquire: bounded " + boundedAcquire.size() + " " + boundedAcquire
                + ", unbounded " + unboundedAcquire.size() + " " + unboundedAcquire);
        System.out.println("files opened by release: bounded " + boundedRelease.size() + " " + boundedRelease
                + ", unbounded " + unboundedRelease.size() + " " + unboundedRelease);
        assertTrue(boundedAcquire.contains("BoundedStates") && boundedAcquire.contains("BoundedWaiting"),
                "the call graph misses the state machine or the wait: " + boundedAcquire);
        assertTrue(boundedAcquire.size() <= unboundedAcquire.size(), "acquire of the bounded engine opens "
                + boundedAcquire + ", more than the unbounded engine's " + unboundedAcquire);
        assertTrue(boundedRelease.size() <= unboundedRelease.size(), "release of the bounded engine opens "
                + boundedRelease + ", more than the unbounded engine's " + unboundedRelease);
    }

    /** The source files, exceptions aside, whose methods a call of {@code start} can run. */
    private static Set<String> files(String start) {
        Set<String> seen = new HashSet<>();
        Deque<String> todo = new ArrayDeque<>(List.of(PKG + start));
        while (!todo.isEmpty()) {
            String m = resolve(todo.pop());
            if (m == null || !seen.add(m)) {
                continue;
            }
            for (String called : CALLS.get(m)) {
                if (!STOP.contains(sourceOf(called.substring(0, called.lastIndexOf('.'))))) {
                    todo.push(called);
                }
            }
        }
        Set<String> files = new TreeSet<>();
        for (String m : seen) {
            String f = sourceOf(m.substring(0, m.lastIndexOf('.')));
            if (!f.endsWith("Exception")) {
                files.add(f);
            }
        }
        return files;
    }

    /** {@code m}, or the method it inherits from a superclass; null if it is not the library's. */
    private static String resolve(String m) {
        int dot = m.lastIndexOf('.');
        String c = m.substring(0, dot);
        String name = m.substring(dot);
        while (c != null && !c.isEmpty() && !CALLS.containsKey(c + name)) {
            c = SUPER.get(c);
        }
        return c == null || c.isEmpty() ? null : c + name;
    }

    /** The source file of a class: its own, its outer class's, or the file that declares it too. */
    private static String sourceOf(String internalName) {
        String n = simple(internalName);
        int nested = n.indexOf('$');
        if (nested > 0) {
            n = n.substring(0, nested);
        }
        if (Files.exists(sources.resolve(n + ".java"))) {
            return n;
        }
        Pattern declares = Pattern.compile("\\bclass " + Pattern.quote(n) + "\\b");
        try (Stream<Path> s = Files.list(sources)) {
            for (Path p : (Iterable<Path>) s::iterator) {
                if (p.toString().endsWith(".java") && declares.matcher(Files.readString(p)).find()) {
                    String f = p.getFileName().toString();
                    return f.substring(0, f.length() - ".java".length());
                }
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return n;
    }

    private static String simple(String internalName) {
        return internalName.substring(internalName.lastIndexOf('/') + 1);
    }
}
