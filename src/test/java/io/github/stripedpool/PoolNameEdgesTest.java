package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link PoolBuilder#name(String)}: "not blank, printable ... no invisible ... characters, ... at
 * most 200 characters", and the default name "pool-N".
 */
class PoolNameEdgesTest {

    /**
     * Names that print as nothing at all in a log line (blank-looking glyphs of the categories
     * Lo and So, and combining marks with nothing to combine with) are accepted: a pool whose
     * logs, JMX name and stats all show an empty name.
     */
    @ParameterizedTest(name = "U+{0}")
    @ValueSource(strings = {"2800", "3164", "FFA0", "115F", "0300 0301"})
    void aNameThatPrintsAsNothingIsRejected(String codePoints) {
        StringBuilder sb = new StringBuilder();
        for (String cp : codePoints.split(" ")) {
            sb.appendCodePoint(Integer.parseInt(cp, 16));
        }
        String name = sb.toString();
        try {
            Pool.builder(Object::new).name(name);
        } catch (IllegalArgumentException expected) {
            return;
        }
        fail("name(\"" + name + "\") (U+" + codePoints + ", invisible in a log line) was accepted, "
                + "though names must be printable and not blank");
    }

    /** 150 characters, under the documented 200: rejected as "300 characters long". */
    @Test
    void theLengthLimitCountsCharactersNotUtf16Units() {
        String name = "\uD83D\uDE00".repeat(150); // 150 emoji: 150 characters, 300 chars
        assertEquals(150, name.codePointCount(0, name.length()));
        try {
            Pool.builder(Object::new).name(name);
        } catch (IllegalArgumentException e) {
            fail("a name of 150 characters was rejected: " + e.getMessage());
        }
    }

    /** A rejected build uses up a generated name: the next pool is not pool-(N+1). */
    @Test
    void aRejectedBuildDoesNotConsumeAGeneratedName() {
        String first;
        try (Pool<Object> p = Pool.builder(Object::new).leakDetection(LeakDetection.DISABLED).build()) {
            first = p.name();
        }
        int n = Integer.parseInt(first.substring("pool-".length()));
        for (int i = 0; i < 3; i++) {
            assertThrows(IllegalStateException.class,
                    () -> Pool.builder(Object::new).leakDetection(LeakDetection.DISABLED).minIdle(0).build());
        }
        try (Pool<Object> p = Pool.builder(Object::new).leakDetection(LeakDetection.DISABLED).build()) {
            assertEquals("pool-" + (n + 1), p.name(), "three rejected builds consumed generated names");
        }
    }
}
