package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.stripedpool.buffer.BufferPool;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * What the README, the pages of docs/ and the public Javadoc say about thread names, defaults,
 * exceptions and benchmark figures is what the code does, as {@link QuickStartTest} checks the
 * README's example: a change on one side fails here until the other follows.
 */
class DocsMatchCodeTest {
    private static final Pattern THREAD_NAME = Pattern.compile(
            Pattern.quote(Background.THREAD_PREFIX) + "[a-z]+(?:-N|-\\d+)?");

    private static String read(String path) throws IOException {
        return Files.readString(Path.of(path), StandardCharsets.UTF_8);
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(Path.of("README.md")));
        try (Stream<Path> docs = Files.list(Path.of("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        return pages;
    }

    /** No page has a section twice (two copies of a section drift apart: one goes stale). */
    @Test
    void noPageHasASectionTwice() throws IOException {
        List<String> twice = new ArrayList<>();
        for (Path page : pages()) {
            Set<String> seen = new TreeSet<>();
            for (String line : read(page.toString()).split("\n")) {
                if (line.startsWith("## ") && !seen.add(line)) {
                    twice.add(page + ": " + line);
                }
            }
        }
        assertEquals(List.of(), twice, "sections that appear twice");
    }

    /** Every library thread a page or the Javadoc names is one the library starts. */
    @Test
    void everyDocumentedThreadNameIsOneTheLibraryUses() throws IOException {
        Set<String> known = Set.of(AgingClock.THREAD_NAME, MaintenanceClock.THREAD_NAME,
                LeakReaper.THREAD_NAME, Background.WORKER_NAME + "-N", Rehearsal.THREAD_NAME);
        List<Path> texts = new ArrayList<>(pages());
        try (Stream<Path> src = Files.walk(Path.of("src/main/java"))) {
            src.filter(p -> p.toString().endsWith(".java")).forEach(texts::add);
        }
        Set<String> unknown = new TreeSet<>();
        int found = 0;
        for (Path p : texts) {
            Matcher m = THREAD_NAME.matcher(read(p.toString()));
            while (m.find()) {
                found++;
                String name = m.group().replaceFirst("-\\d+$", "-N"); // worker-1, worker-2: examples
                if (!known.contains(name)) {
                    unknown.add(m.group() + " in " + p);
                }
            }
        }
        assertTrue(found > 10, "found only " + found + " thread names");
        assertTrue(unknown.isEmpty(), "names of no library thread: " + unknown + "; the threads are " + known);
    }

    /** The leak listener runs where finding-leaks.md and PoolBuilder.onLeak say it does. */
    @Test
    void theLeakListenerRunsOnTheDocumentedThread() throws Exception {
        BlockingQueue<String> threads = new ArrayBlockingQueue<>(16);
        Pool<byte[]> pool = Pool.builder(() -> new byte[16]).name("docs-leak-thread")
                .leakDetection(LeakDetection.PARANOID)
                .onLeak(r -> threads.offer(Thread.currentThread().getName())).build();
        pool.acquire()[0] = 1; // leaked
        String thread = null;
        for (int i = 0; i < 1000 && thread == null; i++) {
            System.gc();
            thread = threads.poll(20, TimeUnit.MILLISECONDS);
        }
        pool.close();
        assertTrue(thread != null, "no leak report within the deadline");
        String documented = Background.WORKER_NAME + "-N";
        assertTrue(thread.matches(Pattern.quote(Background.WORKER_NAME) + "-\\d+"),
                "the listener ran on " + thread + ", the docs say " + documented);
        assertSays("docs/finding-leaks.md", "It runs on one of the library's background workers\n  (`"
                + documented + "`");
        assertSays("src/main/java/io/github/stripedpool/PoolBuilder.java",
                "Recorder event. It runs on one of the library's background workers\n     * ({@code "
                + documented + "})");
    }

    /** minIdle is filled where bounded.md and PoolBuilder.minIdle say it is. */
    @Test
    void minIdleIsFilledOnTheDocumentedThread() throws Exception {
        BlockingQueue<String> threads = new ArrayBlockingQueue<>(16);
        Pool<Object> pool = Pool.builder(() -> {
            threads.offer(Thread.currentThread().getName());
            return new Object();
        }).maxTotal(2).minIdle(1).name("docs-min-idle-thread").build();
        String thread = threads.poll(10, TimeUnit.SECONDS);
        pool.close();
        assertTrue(thread != null, "minIdle was not filled within 10 s");
        String documented = Background.WORKER_NAME + "-N";
        assertTrue(thread.matches(Pattern.quote(Background.WORKER_NAME) + "-\\d+"),
                "minIdle was filled on " + thread + ", the docs say " + documented);
        assertSays("src/main/java/io/github/stripedpool/PoolBuilder.java",
                "They are created in the background, on one of the\n     * library's shared workers ({@code "
                + documented + "})");
        assertSays("docs/bounded.md", "maintenance runs, when due, on one of the library's shared background workers\n(`"
                + documented + "`)");
        assertSays("docs/bounded.md", "The same runs keep `minIdle`, on a worker too");
    }

    /** The defaults the pages state are the builder's. */
    @Test
    void documentedDefaultsAreTheBuildersDefaults() throws IOException {
        assertEquals(Duration.ofSeconds(30), PoolBuilder.DEFAULT_ACQUIRE_TIMEOUT);
        assertSays("docs/bounded.md", "| `acquireTimeout(Duration)` | "
                + PoolBuilder.DEFAULT_ACQUIRE_TIMEOUT.toSeconds() + " s |");
        assertSays("docs/bounded.md", "| `minIdle(int)` | 0 |");
        assertEquals(-1, new PoolBuilder<>(Object::new).minIdle, "minIdle unset reads as 0");
        assertSays("README.md", "runs at the first garbage collection after `agingInterval` (default "
                + PoolBuilder.DEFAULT_AGING_INTERVAL.toSeconds() + " s)");
        assertSays("docs/which-pool.md", "(the default is " + PoolBuilder.DEFAULT_MAX_IDLE_PER_PROCESSOR
                + " per processor)");
        try (BufferPool<byte[]> buffers = BufferPool.bytes().build()) {
            StringBuilder keeps = new StringBuilder("| idle buffers kept, at most |");
            for (int i = 0; i < buffers.stats().classCount(); i++) {
                keeps.append(' ').append(buffers.stats().classKeeps(i)).append(" |");
            }
            assertSays("docs/buffers.md", keeps.toString());
        }
        assertSays("README.md", "| `SAMPLED`, 1 in " + LeakSettings.DEFAULT_INTERVAL + " (default) |");
        assertSays("docs/finding-leaks.md", "| `SAMPLED`, 1 in " + LeakSettings.DEFAULT_INTERVAL + " (default) |");
        assertEquals(1_000_000L, BoundedWaitQueue.STARVATION_NANOS);
        assertSays("src/main/java/io/github/stripedpool/Pool.java", "oldest waiter has waited 1 ms");
        assertSays("README.md", "never past a thread that has waited its threshold");
        assertEquals(12, BoundedWaitQueue.MAX_SCALE, "the docs say a threshold grows to 12 ms at most");
        assertEquals(8, BoundedWaitQueue.TURNS, "the docs say eight turns of the queue");
        assertEquals(8, BoundedWaitQueue.LONG_QUEUE, "the docs say eight or more platform threads queued");
        assertSays("README.md", "eight turns of that queue served in order, 12 ms at most");
        assertSays("docs/bounded.md", "and at most **12 ms**");
        assertSays("src/main/java/io/github/stripedpool/Pool.java", "threshold is eight turns of the queue served in order, at most 12 ms");
    }

    /** The exceptions the Javadoc of Pool lists are the ones a bounded pool throws. */
    @Test
    void documentedExceptionsAreTheOnesThrown() throws IOException {
        Pool<Object> pool = Pool.builder(Object::new).maxTotal(1).acquireTimeout(Duration.ZERO)
                .name("docs-exceptions").build();
        try {
            assertThrows(IllegalArgumentException.class, () -> pool.release(new Object()));
            Object held = pool.acquire();
            assertThrows(PoolTimeoutException.class, pool::lease);
            Thread.currentThread().interrupt();
            try {
                assertThrows(PoolInterruptedException.class,
                        () -> pool.acquire(Duration.ofSeconds(1)));
            } finally {
                Thread.interrupted();
            }
            pool.release(held);
        } finally {
            pool.close();
        }
        String javadoc = read("src/main/java/io/github/stripedpool/Pool.java");
        assertTrue(javadocOf(javadoc, "void release(T object);").contains("@throws IllegalArgumentException"),
                "Pool.release must list the IllegalArgumentException of a bounded pool");
        String lease = javadocOf(javadoc, "Lease<T> lease();");
        assertTrue(lease.contains("@throws PoolTimeoutException"), "Pool.lease must list PoolTimeoutException");
        assertTrue(lease.contains("@throws PoolInterruptedException"), "Pool.lease must list PoolInterruptedException");
        assertFalse(javadoc.contains("arrival order"), "bounded waiters are not served in arrival order");
    }

    /**
     * A page that quotes the benchmark suite names the run, and that run is the one
     * benchmarks.md shows (the page the suite generates); every ratio which-pool.md quotes is
     * one of that page's.
     */
    @Test
    void quotedBenchmarkFiguresComeFromTheRunTheyName() throws IOException {
        String bench = read("docs/benchmarks.md");
        Matcher generated = Pattern.compile("Generated (\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC)").matcher(bench);
        assertTrue(generated.find(), "benchmarks.md names no run");
        String run = generated.group(1);
        Pattern named = Pattern.compile("(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d UTC)");
        for (String page : List.of("README.md", "docs/which-pool.md", "docs/finding-leaks.md")) {
            Matcher m = named.matcher(read(page));
            int n = 0;
            while (m.find()) {
                n++;
                assertEquals(run, m.group(1), page + " quotes a run that benchmarks.md no longer shows");
            }
            assertTrue(n > 0, page + " quotes benchmark figures without naming the run");
        }
        String whichPool = read("docs/which-pool.md");
        Matcher measured = Pattern.compile("\\*Measured\\*.*?(?:\\n\\n|$)", Pattern.DOTALL).matcher(whichPool);
        Pattern ratio = Pattern.compile("(?<![\\w.])(\\d+(?:\\.\\d+)?)x(?!\\w)");
        int ratios = 0;
        List<String> missing = new ArrayList<>();
        while (measured.find()) {
            Matcher r = ratio.matcher(measured.group());
            while (r.find()) {
                ratios++;
                if (!Pattern.compile("(?<![\\d.])" + Pattern.quote(r.group(1)) + "x").matcher(bench).find()) {
                    missing.add(r.group());
                }
            }
        }
        assertTrue(ratios > 20, "which-pool.md quotes only " + ratios + " ratios");
        assertTrue(missing.isEmpty(), "which-pool.md quotes ratios benchmarks.md does not have: " + missing);
    }

    /**
     * Every jcstress race of {@code src/jcstress/java} has its row in reliability.md's table (what
     * it races, what is allowed, what is forbidden), and every race the table names exists.
     */
    @Test
    void everyJcstressRaceIsInTheReliabilityTable() throws IOException {
        Set<String> races = new TreeSet<>();
        try (Stream<Path> files = Files.list(Path.of("src/jcstress/java/io/github/stripedpool"))) {
            files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith("Race.java"))
                    .forEach(n -> races.add(n.substring(0, n.length() - ".java".length())));
        }
        assertTrue(races.size() > 30, "only " + races.size() + " races found: " + races);
        String page = read("docs/reliability.md");
        Set<String> rows = new TreeSet<>();
        Matcher row = Pattern.compile("(?m)^\\| `(\\w+Race)` \\|").matcher(page);
        while (row.find()) {
            rows.add(row.group(1));
        }
        Set<String> undocumented = new TreeSet<>(races);
        undocumented.removeAll(rows);
        Set<String> gone = new TreeSet<>(rows);
        gone.removeAll(races);
        assertEquals(Set.of(), undocumented, "races without a row in docs/reliability.md");
        assertEquals(Set.of(), gone, "rows of docs/reliability.md for races that do not exist");
    }

    private static String javadocOf(String source, String declaration) {
        int at = source.indexOf(declaration);
        assertTrue(at > 0, declaration + " not found");
        int start = source.lastIndexOf("/**", at);
        return source.substring(start, at);
    }

    private static void assertSays(String path, String text) throws IOException {
        if (!read(path).contains(text)) {
            fail(path + " no longer says: " + text);
        }
    }
}
