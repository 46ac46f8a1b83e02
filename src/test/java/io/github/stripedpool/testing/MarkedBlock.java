package io.github.stripedpool.testing;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** A compiled example's marked block, as the Markdown pages must show it. */
public final class MarkedBlock {
    private MarkedBlock() {
    }

    /**
     * The lines of the source file between {@code // NAME:begin} and {@code // NAME:end}, as a
     * fenced java code block; fails if the markers are missing or out of order.
     */
    public static String javaBlock(String source, String name) throws IOException {
        List<String> lines = Files.readAllLines(Path.of(source), StandardCharsets.UTF_8);
        int begin = lines.indexOf("// " + name + ":begin");
        int end = lines.indexOf("// " + name + ":end");
        assertTrue(begin >= 0 && end > begin, name + " markers missing or out of order in " + source);
        return "```java\n" + String.join("\n", lines.subList(begin + 1, end)) + "\n```";
    }
}
