package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.BufferRecycler;
import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.LeakReport;
import io.github.stripedpool.TestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A parser that is never closed keeps its recycler; leak detection reports where it was made. */
@Timeout(60)
class JacksonLeakTest {
    private static final byte[] JSON = "{\"id\":7,\"tags\":[\"a\",\"b\"]}".getBytes(StandardCharsets.UTF_8);

    @Test
    void aParserNeverClosedIsReportedWithTheCallThatCreatedIt() throws Exception {
        TestSupport.LeakReports reports = new TestSupport.LeakReports();
        StripedRecyclerPool pool = StripedRecyclerPool.newPool(
                b -> b.name("json-leaks").leakDetection(LeakDetection.PARANOID).onLeak(reports));
        try {
            JsonFactory factory = JsonFactory.builder().recyclerPool(pool).build();
            for (int i = 0; i < 100; i++) {
                try (JsonParser closed = factory.createParser(JSON)) {
                    readFirstToken(closed);
                }
            }
            openAndForget(factory);
            List<LeakReport> leaks = reports.await(1);
            LeakReport leak = leaks.get(0);
            String frames = Arrays.toString(leak.stackTrace());
            assertEquals("json-leaks", leak.poolName());
            assertEquals(BufferRecycler.class.getName(), leak.objectClass());
            assertTrue(TestSupport.hasFrame(leak.stackTrace(), "openAndForget"),
                    "the report must name the method that created the parser: " + frames);
            assertTrue(TestSupport.hasFrame(leak.stackTrace(), "aParserNeverClosedIsReportedWithTheCallThatCreatedIt"),
                    frames);
            assertTrue(TestSupport.hasFrame(leak.stackTrace(), "createParser"), frames);
            // the hundred closed parsers gave their recycler back: collections find nothing more
            TestSupport.gcUntil("the leak counted", () -> pool.stats().leaks() == 1);
            assertEquals(1, reports.soFar().size(), "closed parsers reported as leaks: " + reports.soFar());
            assertEquals(101, pool.stats().acquired());
            assertEquals(100, pool.stats().released());
        } finally {
            pool.pool().close();
        }
    }

    /** Creates a parser, reads from it and drops it without closing it. */
    private static void openAndForget(JsonFactory factory) throws IOException {
        JsonParser forgotten = factory.createParser(JSON);
        readFirstToken(forgotten);
    }

    private static void readFirstToken(JsonParser parser) throws IOException {
        assertEquals(JsonToken.START_OBJECT, parser.nextToken());
        assertEquals(JsonToken.FIELD_NAME, parser.nextToken());
    }
}
