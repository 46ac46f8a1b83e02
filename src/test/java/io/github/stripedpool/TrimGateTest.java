package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * {@link TrimGate}: after a trim that dropped objects, no other trim for
 * {@link TrimGate#HOLD_NANOS}, whatever the heap; a trim that dropped nothing holds nothing.
 * Readings and times are given, not measured, so every case is exact.
 */
class TrimGateTest {
    private static final long MAX = 1000;
    private static final long HOLD = TrimGate.HOLD_NANOS;

    @Test
    void aTrimThatDroppedObjectsHoldsTheNextForTheHoldWhateverTheHeap() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 0));
        g.trimmed(5, 0);
        // Young collections that leave the heap as full (the dropped objects are old garbage),
        // fuller, or emptier: none trims until the hold is over.
        assertEquals(HeapTrim.NONE, g.level(900, MAX, 1), "as full as at the trim");
        assertEquals(HeapTrim.NONE, g.level(990, MAX, 2), "fuller, even at the hard level");
        assertEquals(HeapTrim.NONE, g.level(860, MAX, HOLD - 1), "a little emptier");
        assertEquals(HeapTrim.HARD, g.level(990, MAX, HOLD), "the hold is over");
        g.trimmed(20, HOLD);
        assertEquals(HeapTrim.NONE, g.level(990, MAX, HOLD + 1));
    }

    @Test
    void theHoldCountsTimeAcrossTheWrapOfNanoTime() {
        TrimGate g = new TrimGate(0.85);
        long t0 = Long.MAX_VALUE - HOLD / 2;
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, t0));
        g.trimmed(3, t0);
        assertEquals(HeapTrim.NONE, g.level(920, MAX, t0 + HOLD - 1));
        assertEquals(HeapTrim.SOFT, g.level(920, MAX, t0 + HOLD));
    }

    @Test
    void aTrimThatDroppedNothingHoldsNothing() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 0));
        g.trimmed(0, 0); // a first soft trim only marks the idle objects as victims
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 1), "the second soft trim drops them");
    }

    @Test
    void noTrimWhereTheHeapHasRoomEvenAfterTheHold() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.HARD, g.level(950, MAX, 0));
        g.trimmed(20, 0);
        assertEquals(HeapTrim.NONE, g.level(500, MAX, HOLD));
    }

    @Test
    void thresholdZeroTrimsAfterEveryCollectionAndOneNever() {
        TrimGate always = new TrimGate(0);
        for (int i = 0; i < 3; i++) {
            assertEquals(HeapTrim.HARD, always.level(900, MAX, i));
            always.trimmed(10, i);
        }
        TrimGate never = new TrimGate(1);
        assertEquals(HeapTrim.NONE, never.level(MAX, MAX, 0));
        assertFalse(never.trims());
    }

    @Test
    void noHeapLimitNeverTrims() {
        assertEquals(HeapTrim.NONE, new TrimGate(0).level(900, Long.MAX_VALUE, 0));
    }
}
