package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.stripedpool.TestSupport;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ObjectMapper round trips on virtual threads, and on virtual and platform threads at once: every
 * one succeeds, no recycler is used by two threads at once, every recycler comes back, virtual
 * threads take no private slot, and thousands of them share a few recyclers (see
 * {@link JacksonVirtualThreadExperiment}). Needs JDK 21+; on an older JVM it runs in a child JVM
 * on a JDK 21+ found beside this one, and is skipped with a message saying where it looked if
 * there is none.
 */
@Timeout(240)
class JacksonVirtualThreadTest {
    /**
     * Most recyclers the threads may create once the mapper is warm: a tenth of the 2,000
     * virtual threads, since a recycler per virtual thread would be 2,000. Round trips on bytes
     * never block, so about one recycler per carrier or platform thread is in use at a time, and
     * a quiet run creates 2 to 12; stripe misses under contention add some, and so does aging,
     * which after each collection drops recyclers idle across two of them (80 seen once while
     * the rest of the test suite ran; the result line carries the drops, aging cycles and trims
     * that explain such a count).
     */
    private static final long MAX_CREATED = 200;

    private static List<String> lines;

    private static synchronized String result(String scenario) throws Exception {
        if (lines == null) {
            if (TestSupport.virtualThreadsHere()) {
                lines = JacksonVirtualThreadExperiment.run();
            } else {
                String out = TestSupport.runOnVirtualThreadJdk(JacksonVirtualThreadExperiment.class, 200,
                        JsonFactory.class, ObjectMapper.class, JsonProperty.class);
                lines = out.lines().filter(l -> l.startsWith(JacksonVirtualThreadExperiment.RESULT)).toList();
                System.out.print(out);
            }
        }
        String line = lines.stream().filter(l -> l.contains(" scenario=" + scenario + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no result of scenario " + scenario + " in " + lines));
        System.out.println(line);
        return line;
    }

    @Test
    void roundTripsOnThousandsOfVirtualThreadsShareAFewRecyclersExclusively() throws Exception {
        String line = result("virtual");
        assertEverySucceededExclusivelyAndGaveBack(line);
        assertEquals(0, value(line, "privateHits"), "virtual threads must not use private slots: " + line);
        assertTrue(value(line, "created") <= MAX_CREATED, "virtual threads should share recyclers: " + line);
    }

    @Test
    void roundTripsOnVirtualAndPlatformThreadsAtOnceShareOnePool() throws Exception {
        String line = result("mixed");
        assertEverySucceededExclusivelyAndGaveBack(line);
        assertTrue(value(line, "privateHits") > 0, "platform threads should use their private slots: " + line);
        assertTrue(value(line, "created") <= MAX_CREATED, line);
    }

    private static void assertEverySucceededExclusivelyAndGaveBack(String line) {
        assertEquals(0, value(line, "failures"), line);
        assertEquals(value(line, "threads"), value(line, "finished"), line);
        assertEquals(0, value(line, "violations"), "recyclers used by two threads at once: " + line);
        assertTrue(value(line, "acquired") >= 2 * JacksonVirtualThreadExperiment.VIRTUAL_THREADS
                * JacksonVirtualThreadExperiment.TRIPS_PER_VIRTUAL_THREAD, "Jackson did not use the pool: " + line);
        assertEquals(value(line, "acquired"), value(line, "released"), "every recycler must come back: " + line);
        assertEquals(0, value(line, "inUse"), line);
    }

    private static long value(String line, String key) {
        return JacksonVirtualThreadExperiment.value(line, key);
    }
}
