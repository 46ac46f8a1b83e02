package io.github.stripedpool.buffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.github.stripedpool.testing.MarkedBlock;
import org.junit.jupiter.api.Test;

/** docs/buffers.md shows the compiled example verbatim, and the example does what it says. */
class BuffersExampleTest {

    @Test
    void theExampleReusesOneBufferForEveryCopy() throws IOException {
        BuffersExample.main(new String[0]);
        assertEquals(8192, BuffersExample.BUFFERS.stats().classSize(7));
        var s = BuffersExample.BUFFERS.stats().classStats(7);
        assertEquals(1, s.created(), s.toString());
        assertEquals(3, s.acquired(), s.toString());
        assertEquals(1, s.idle(), s.toString());
    }

    @Test
    void docsShowTheExampleVerbatim() throws IOException {
        String expected = MarkedBlock.javaBlock(
                "src/test/java/io/github/stripedpool/buffer/BuffersExample.java", "buffers");
        String page = Files.readString(Path.of("docs/buffers.md"), StandardCharsets.UTF_8);
        assertTrue(page.contains(expected),
                "docs/buffers.md must show BuffersExample's marked block verbatim, as a java code block");
    }
}
