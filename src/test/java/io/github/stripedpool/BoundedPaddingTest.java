package io.github.stripedpool;

import org.junit.jupiter.api.Test;

/**
 * The padding of a bounded pool's hot objects, measured with JOL as {@link PaddingLayoutTest}
 * does: an entry's state, written by CAS on every acquire and release, and a thread's counters,
 * written on every cycle, are at least 128 bytes from both ends of their objects.
 */
class BoundedPaddingTest {
    @Test
    void entryStateIsPaddedOnBothSides() {
        PaddingLayoutTest.assertHotFieldPadded(BoundedEntry.class, "state");
    }

    @Test
    void threadCountersAndHintArePaddedOnBothSides() {
        for (String field : new String[] {"hint", "released", "privateHits", "homeHits",
                "stolenHits", "misses"}) {
            PaddingLayoutTest.assertHotFieldPadded(BoundedThreads.Local.class, field);
        }
    }
}
