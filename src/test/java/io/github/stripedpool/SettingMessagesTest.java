package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A bad setting must get a clear exception whose message says what to do, as most of the
 * builder's messages do ("pass a Duration above zero, such as ...", "call maxTotal(n) ... or
 * remove ...").
 */
class SettingMessagesTest {

    @AfterEach
    void clear() {
        System.clearProperty(LeakSettings.LEVEL_PROPERTY);
        System.clearProperty(LeakSettings.INTERVAL_PROPERTY);
    }

    /**
     * -Dstripedpool.leakDetection.samplingInterval=4294967296 is a whole number at least 1, yet
     * the message says "use a whole number, at least 1": it never says the value is too large.
     */
    @Test
    void anIntervalPropertyTooLargeForAnIntSaysItIsTooLarge() {
        String v = "4294967296";
        System.setProperty(LeakSettings.LEVEL_PROPERTY, "sampled");
        System.setProperty(LeakSettings.INTERVAL_PROPERTY, v);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Pool.builder(Object::new).build());
        String m = e.getMessage();
        assertTrue(m.contains(String.valueOf(Integer.MAX_VALUE)) || m.contains("at most")
                        || m.contains("too large"),
                "the message tells the user to do what they did (a whole number, at least 1): " + m);
    }

    @Test
    void aNegativeAcquireTimeoutSaysWhatToPass() {
        String m = assertThrows(IllegalArgumentException.class,
                () -> Pool.builder(Object::new).acquireTimeout(Duration.ofSeconds(-1))).getMessage();
        assertTrue(m.contains("pass") || m.contains("use") || m.contains("ZERO"),
                "no remedy in: " + m);
    }

    @Test
    void aNegativeAgingIntervalSaysWhatToPass() {
        String m = assertThrows(IllegalArgumentException.class,
                () -> Pool.builder(Object::new).agingInterval(Duration.ofSeconds(-1))).getMessage();
        assertTrue(m.contains("pass") || m.contains("use") || m.contains("ZERO"),
                "no remedy in: " + m);
    }

    @Test
    void minIdleAboveMaxTotalSaysWhatToChange() {
        String m = assertThrows(IllegalStateException.class,
                () -> Pool.builder(Object::new).maxTotal(1).minIdle(2).build()).getMessage();
        assertTrue(m.contains("lower") || m.contains("raise") || m.contains("call") || m.contains("set"),
                "no remedy in: " + m);
    }
}
