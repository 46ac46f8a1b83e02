package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import org.junit.jupiter.api.Test;

/**
 * {@link TrimGate}: after a trim that dropped objects, no other trim for
 * {@link TrimGate#HOLD_NANOS}, whatever the heap, but one soft trim that finishes what a soft
 * one started; a trim that dropped nothing holds nothing.
 * Readings and times are given, not measured, so every case is exact.
 */
class TrimGateTest {
    private static final long MAX = 1000;
    private static final long HOLD = TrimGate.HOLD_NANOS;

    @Test
    void aTrimThatDroppedObjectsHoldsTheNextForTheHoldWhateverTheHeap() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 0));
        g.trimmed(5, 0, false); // a bounded pool's, or a hard one: nothing left marked
        // Young collections that leave the heap as full (the dropped objects are old garbage),
        // fuller, or emptier: none trims until the hold is over.
        assertEquals(HeapTrim.NONE, g.level(900, MAX, 1), "as full as at the trim");
        assertEquals(HeapTrim.NONE, g.level(990, MAX, 2), "fuller, even at the hard level");
        assertEquals(HeapTrim.NONE, g.level(860, MAX, HOLD - 1), "a little emptier");
        assertEquals(HeapTrim.HARD, g.level(990, MAX, HOLD), "the hold is over");
        g.trimmed(20, HOLD, false);
        assertEquals(HeapTrim.NONE, g.level(990, MAX, HOLD + 1));
    }

    @Test
    void theHoldCountsTimeAcrossTheWrapOfNanoTime() {
        TrimGate g = new TrimGate(0.85);
        long t0 = Long.MAX_VALUE - HOLD / 2;
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, t0));
        g.trimmed(3, t0, false);
        assertEquals(HeapTrim.NONE, g.level(920, MAX, t0 + HOLD - 1));
        assertEquals(HeapTrim.SOFT, g.level(920, MAX, t0 + HOLD));
    }

    /**
     * A soft trim that dropped the objects idle for a cycle also marked the others: the next
     * trim may drop those inside the hold, once, and at the soft level only, so that what was
     * idle when the heap became short is gone within two collections, and nothing made since.
     */
    @Test
    void aSoftTrimThatDroppedObjectsMayBeFinishedOnceInsideTheHold() {
        TrimGate g = afterASoftTrimThatDroppedOne();
        assertEquals(HeapTrim.SOFT, g.level(990, MAX, 1), "the finishing trim, soft even on a heap at the hard level");
        g.trimmed(20, 1, true);
        assertEquals(HeapTrim.NONE, g.level(990, MAX, 2), "one finishing trim per hold");
        assertEquals(HeapTrim.NONE, g.level(990, MAX, HOLD), "the hold restarted at the finishing trim");
        assertEquals(HeapTrim.HARD, g.level(990, MAX, HOLD + 1));
    }

    @Test
    void theFinishingTrimWaitsForAShortHeapAndAnEmptyOneGrantsNoOther() {
        TrimGate g = afterASoftTrimThatDroppedOne();
        assertEquals(HeapTrim.NONE, g.level(500, MAX, 1), "the heap has room: nothing to finish yet");
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 2), "short again inside the hold: finished now");
        g.trimmed(0, 2, true); // it found nothing left to drop
        assertEquals(HeapTrim.NONE, g.level(900, MAX, 3), "still held by the first trim");
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, HOLD));
    }

    /** A gate whose soft trim at time 0 dropped one object and marked the others. */
    private static TrimGate afterASoftTrimThatDroppedOne() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 0));
        g.trimmed(1, 0, true);
        return g;
    }

    /**
     * A finishing trim given but never reported (the aging cycle threw): the next soft trim that
     * drops objects is a first one again, with a finishing trim of its own.
     */
    @Test
    void aFinishingTrimThatNeverReportedLeavesTheNextFirstTrimItsOwn() {
        TrimGate g = afterASoftTrimThatDroppedOne();
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 1)); // the finishing trim; trimmed() never comes
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, HOLD + 1));
        g.trimmed(2, HOLD + 1, true);
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, HOLD + 2), "this first trim's finishing trim");
    }

    /**
     * An aging cycle of the interval ran in the hold: it dropped what the trim marked and marked
     * objects made since, which a finishing trim would then drop.
     */
    @Test
    void anAgingCycleInTheHoldTakesTheFinishingTrimsPlace() {
        TrimGate g = afterASoftTrimThatDroppedOne();
        g.aged();
        assertEquals(HeapTrim.NONE, g.level(900, MAX, 1));
    }

    @Test
    void aTrimThatLeftNothingMarkedGrantsNoFinishingTrim() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.HARD, g.level(990, MAX, 0));
        g.trimmed(7, 0, false);
        assertEquals(HeapTrim.NONE, g.level(990, MAX, 1));
        assertEquals(HeapTrim.NONE, g.level(900, MAX, HOLD - 1));
    }

    @Test
    void aTrimThatDroppedNothingHoldsNothing() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 0));
        g.trimmed(0, 0, true); // a first soft trim only marks the idle objects as victims
        assertEquals(HeapTrim.SOFT, g.level(900, MAX, 1), "the second soft trim drops them");
    }

    @Test
    void noTrimWhereTheHeapHasRoomEvenAfterTheHold() {
        TrimGate g = new TrimGate(0.85);
        assertEquals(HeapTrim.HARD, g.level(950, MAX, 0));
        g.trimmed(20, 0, false);
        assertEquals(HeapTrim.NONE, g.level(500, MAX, HOLD));
    }

    @Test
    void thresholdZeroTrimsAfterEveryCollectionAndOneNever() {
        TrimGate always = new TrimGate(0);
        for (int i = 0; i < 3; i++) {
            assertEquals(HeapTrim.HARD, always.level(900, MAX, i));
            always.trimmed(10, i, i % 2 == 0);
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
