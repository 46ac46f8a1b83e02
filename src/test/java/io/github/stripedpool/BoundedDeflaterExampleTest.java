package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.testing.MarkedBlock;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.zip.Inflater;
import org.junit.jupiter.api.Test;

/** The documented example works: many threads compress through at most 8 pooled Deflaters. */
class BoundedDeflaterExampleTest {

    @Test
    void sixteenThreadsShareAtMostEightDeflatersAndEveryOutputInflatesBack() throws Exception {
        byte[] input = "pooled deflaters compress the same as new ones. ".repeat(200)
                .getBytes(StandardCharsets.UTF_8);
        ExecutorService threads = Executors.newFixedThreadPool(16);
        try (BoundedDeflaterExample example = new BoundedDeflaterExample()) {
            List<Future<byte[]>> results = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                results.add(threads.submit(() -> example.compress(input)));
            }
            for (Future<byte[]> r : results) {
                assertArrayEquals(input, inflate(r.get(), input.length));
            }
            PoolStats s = PoolAssertions.assertBalanced(example.pool());
            assertTrue(s.created() <= 8, s::toString);
            assertEquals(200, s.acquired());
        } finally {
            threads.shutdown();
        }
    }

    @Test
    void readmeAndBoundedPageShowTheCompiledExampleVerbatim() throws IOException {
        String expected = MarkedBlock.javaBlock(
                "src/test/java/io/github/stripedpool/BoundedDeflaterExample.java", "bounded-example");
        assertTrue(expected.contains("\nimport java.util.zip.Deflater;\n"), "the block must be a whole class, with its imports");
        for (String page : List.of("README.md", "docs/bounded.md")) {
            String text = Files.readString(Path.of(page), StandardCharsets.UTF_8);
            assertTrue(text.contains(expected),
                    page + " must show BoundedDeflaterExample's marked block verbatim, as a java code block");
        }
    }

    private static byte[] inflate(byte[] compressed, int length) throws Exception {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(compressed);
            byte[] out = new byte[length];
            int n = 0;
            while (n < length && !inflater.finished()) {
                n += inflater.inflate(out, n, length - n);
            }
            assertEquals(length, n);
            return out;
        } finally {
            inflater.end();
        }
    }
}
