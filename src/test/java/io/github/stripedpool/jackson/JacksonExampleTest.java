package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.PoolStats;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The examples of docs/jackson.md compile, run, and are on the page verbatim. */
class JacksonExampleTest {
    private static final Path PAGE = Path.of("docs/jackson.md");
    private static final Path SOURCES = Path.of("src/test/java/io/github/stripedpool/jackson");

    @Test
    void theExampleRoundTripsThroughOneRecycler() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            JacksonExample.main(new String[0]);
        } finally {
            System.setOut(saved);
        }
        String[] lines = buf.toString(StandardCharsets.UTF_8).split("\\R");
        assertEquals("hello, world", lines[0]);
        assertTrue(lines[1].startsWith("Pool 'jackson-recyclers': 1 idle"), lines[1]);
        assertTrue(lines[1].contains("acquired 2, hit rate 50.00%"), lines[1]);
        assertTrue(lines[1].contains("created 1,"), lines[1]);
    }

    @Test
    void theSettingsExampleBuildsWhatItSays() {
        StripedRecyclerPool recyclers = JacksonSettingsExample.recyclers();
        try {
            PoolStats s = recyclers.stats();
            assertEquals("api-json", s.name());
            assertEquals(256, s.idleCapacity());
            assertEquals(0, s.maxTotal());
        } finally {
            recyclers.pool().close();
        }
    }

    @Test
    void thePageShowsBothExamplesVerbatim() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        for (String marker : List.of("jackson", "jackson-settings")) {
            Path source = SOURCES.resolve(marker.equals("jackson") ? "JacksonExample.java" : "JacksonSettingsExample.java");
            List<String> lines = Files.readAllLines(source, StandardCharsets.UTF_8);
            int begin = indexOf(lines, "// " + marker + ":begin");
            int end = indexOf(lines, "// " + marker + ":end");
            assertTrue(begin >= 0 && end > begin, marker + " markers missing or out of order");
            String block = String.join("\n", lines.subList(begin + 1, end)).stripIndent().strip();
            assertTrue(page.contains("```java\n" + block + "\n```"),
                    PAGE + " must show the " + marker + " block of " + source + " verbatim, as a java code block");
        }
    }

    @Test
    void thePageStatesTheDefaultsTheCodeHas() throws IOException {
        String page = Files.readString(PAGE, StandardCharsets.UTF_8);
        int perProcessor = 16;
        int atLeast = 64;
        assertEquals(Math.max(atLeast, perProcessor * Runtime.getRuntime().availableProcessors()),
                StripedRecyclerPool.DEFAULT_MAX_IDLE);
        assertTrue(page.contains("`maxIdle` of " + perProcessor + " per processor (" + atLeast + " at least), the name `"
                + StripedRecyclerPool.DEFAULT_NAME + "`"), PAGE + " no longer states the default settings");
    }

    private static int indexOf(List<String> lines, String marker) {
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).strip().equals(marker)) {
                return i;
            }
        }
        return -1;
    }
}
