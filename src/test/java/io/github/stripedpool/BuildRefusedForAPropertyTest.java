package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A build refused for a bad leak-detection system property (a level that is no level, an
 * interval below 1) leaves nothing behind, the generated name included: the next unnamed pool
 * takes the next number. The name used to be taken before the properties were read.
 */
class BuildRefusedForAPropertyTest {

    @AfterEach
    void clear() {
        System.clearProperty(LeakSettings.LEVEL_PROPERTY);
        System.clearProperty(LeakSettings.INTERVAL_PROPERTY);
    }

    private static int generated() {
        try (Pool<Object> p = Pool.builder(Object::new).build()) {
            return Integer.parseInt(p.name().substring("pool-".length()));
        }
    }

    @Test
    void aBuildRefusedForABadLevelPropertyTakesNoGeneratedName() {
        int n = generated();
        System.setProperty(LeakSettings.LEVEL_PROPERTY, "bogus");
        for (int i = 0; i < 3; i++) {
            assertThrows(IllegalArgumentException.class, () -> Pool.builder(Object::new).build());
        }
        System.clearProperty(LeakSettings.LEVEL_PROPERTY);
        try (Pool<Object> p = Pool.builder(Object::new).build()) {
            assertEquals("pool-" + (n + 1), p.name(), "three builds refused for a bad property consumed generated names");
        }
    }

    @Test
    void aBuildRefusedForABadIntervalPropertyTakesNoGeneratedName() {
        int n = generated();
        System.setProperty(LeakSettings.LEVEL_PROPERTY, "sampled");
        System.setProperty(LeakSettings.INTERVAL_PROPERTY, "0");
        for (int i = 0; i < 3; i++) {
            assertThrows(IllegalArgumentException.class, () -> Pool.builder(Object::new).build());
        }
        clear();
        try (Pool<Object> p = Pool.builder(Object::new).build()) {
            assertEquals("pool-" + (n + 1), p.name(), "three builds refused for a bad property consumed generated names");
        }
    }

}
