package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.testing.MarkedBlock;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The README's quick start compiles, runs, and reuses the one buffer it made. */
class QuickStartTest {

    @Test
    void quickStartReusesOneBufferAndPrintsItsStats() {
        String out = captureStdout(() -> QuickStartExample.main(new String[0]));

        String[] lines = out.split("\\R");
        assertEquals(2, lines.length, out);
        // Before close(): the second acquisition found the buffer the first one released.
        assertTrue(lines[0].startsWith("Pool 'buffers': 1 idle (max 4096), 0 in use"), lines[0]);
        assertTrue(lines[0].contains("acquired 2, hit rate 50.00% (private 1, home 0, stolen 0, "
                + "victim 0, missed 1) | released 2 | created 1, dropped 0 | hook failures 0"), lines[0]);
        // After close(): the idle buffer went through the destroy hook.
        assertTrue(lines[1].startsWith("Pool 'buffers' (closed): 0 idle (max 4096), 0 in use"), lines[1]);
        assertTrue(lines[1].contains("created 1, dropped 1 | hook failures 0"), lines[1]);
    }

    @Test
    void readmeQuickStartIsTheCompiledExampleVerbatim() throws IOException {
        String expected = MarkedBlock.javaBlock(
                "src/test/java/io/github/stripedpool/QuickStartExample.java", "quick-start");
        long lines = expected.lines().count() - 2; // less the fences
        assertTrue(lines < 40, "the quick start has " + lines + " lines");

        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains(expected),
                "README.md must show QuickStartExample's marked block verbatim, as a java code block");
    }

    @Test
    void readmePomIsTheConsumerProjectCiBuildsVerbatim() throws IOException {
        String pom = Files.readString(Path.of(".ci/consumer-app/quickstart/pom.xml"), StandardCharsets.UTF_8).strip();
        String readme = Files.readString(Path.of("README.md"), StandardCharsets.UTF_8);
        assertTrue(readme.contains("```xml\n" + pom + "\n```"),
                "README.md must show .ci/consumer-app/quickstart/pom.xml verbatim, as an xml code block");
        assertTrue(pom.contains("<release>17</release>") && pom.contains("<artifactId>maven-compiler-plugin</artifactId>"),
                "the consumer pom must pin the compiler plugin and set release 17");
        String project = Files.readString(Path.of("pom.xml"), StandardCharsets.UTF_8);
        java.util.regex.Matcher version = java.util.regex.Pattern
                .compile("(?m)^  <version>([^<]+)</version>$").matcher(project);
        assertTrue(version.find(), "no project version in pom.xml");
        assertTrue(pom.contains("<artifactId>striped-pool</artifactId>\n      <version>" + version.group(1) + "</version>"),
                "the consumer pom must depend on the version this build makes, " + version.group(1));
    }

    private static String captureStdout(Runnable r) {
        PrintStream saved = System.out;
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        System.setOut(new PrintStream(buf, true, StandardCharsets.UTF_8));
        try {
            r.run();
        } finally {
            System.setOut(saved);
        }
        String out = buf.toString(StandardCharsets.UTF_8);
        saved.print(out);
        return out;
    }
}
