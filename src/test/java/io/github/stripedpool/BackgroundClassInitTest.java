package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * No class of the library with a static initialiser, and none of {@code java.time} (a leak
 * report's time and its text), is initialised by one of the library's own threads: each is
 * initialised while a pool is built, on the caller's thread. A class whose static initialiser
 * fails (an {@link OutOfMemoryError} while the heap is exhausted) can never be used again, so
 * one first initialised by a background thread at such a moment would stop that background
 * work for good: {@code LeakReport.Kind}, first initialised by the first leak report, once
 * stopped every leak report of the JVM that way.
 *
 * <p>Checked with the JVM's class initialisation log, which names the initialising thread from
 * JDK 21 on; on an older JDK the child JVM runs on a JDK 21+ found beside it.
 */
@Timeout(180)
class BackgroundClassInitTest {

    @Test
    void everyClassOfTheLibraryIsInitialisedOnTheThreadThatBuildsAPool(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("class-init.log");
        // The log names the initialising thread from JDK 21 on: on an older JDK, the child runs on
        // a JDK 21+ found beside it (the test is skipped, saying where it looked, if there is none).
        Path jdk = Runtime.version().feature() >= 21 ? Path.of(System.getProperty("java.home"))
                : VirtualThreadTest.findJdk21();
        String out = ChildJvm.run(jdk, BackgroundClassInitApp.class, 120, "-Xlog:class+init=info:file=" + log,
                "-Djava.util.logging.config.file=" + System.getProperty("java.util.logging.config.file", ""));
        assertTrue(out.contains("every kind of background work ran"), out);
        // "(no method)": a class without a static initialiser, whose initialisation runs no code
        List<String> inits = Files.readAllLines(log).stream()
                .filter(l -> (l.contains(" Initializing 'io/github/stripedpool/")
                        || l.contains(" Initializing 'java/time/")) && !l.contains("(no method)"))
                .collect(Collectors.toList());
        assertTrue(inits.size() > 10, "too few initialisations logged: " + inits);
        assertTrue(inits.stream().allMatch(l -> l.contains(" by thread \"")),
                "the class initialisation log does not name the thread: " + inits.get(0));
        List<String> byLibraryThreads = inits.stream()
                .filter(l -> l.contains(" by thread \"" + Background.THREAD_PREFIX))
                .map(l -> l.substring(l.indexOf("Initializing")))
                .collect(Collectors.toList());
        assertEquals(List.of(), byLibraryThreads, "classes initialised by a background thread of the "
                + "library: initialise each when the pool that needs it is built (Background.prepare)");
    }
}
