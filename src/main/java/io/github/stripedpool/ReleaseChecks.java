package io.github.stripedpool;

/**
 * The unbounded engine's checks of a release's argument, and their exceptions. How it tells a
 * second release of an object from a legitimate one, without leak detection: the object is in
 * the releasing thread's private slot or one of its spare entries, or it is the object that thread last released to
 * a stripe ({@link PrivateSlotFields#lastShared}) and it is still idle in the stripe slot where
 * that release put it ({@link PrivateSlotFields#lastSharedStripe},
 * {@link PrivateSlotFields#lastSharedIndex}), or the object that thread last gave back and saw
 * dropped ({@link PrivateSlot#recordDropped}): the pool never hands that one out again, so no
 * check of a stripe is needed, and its destroy hook must not run a second time. After close the
 * slots are gone; {@link ClosedPoolGiveBacks} keeps that record instead.
 *
 * <p>Why the second check looks at the stripe slot. Another thread may have taken the object
 * from the stripe since, and handed it back to this thread (a producer and a consumer trading
 * objects): its release is then legitimate, and only the stripe can tell, because the owner-only
 * {@code lastShared} is not cleared by another thread's acquisition. The check reads one slot,
 * whatever the stripes' size: an earlier version scanned every stripe, a cost that grew with
 * {@code maxIdle} on every release of a traded object. Its read races with takers: an object
 * seen idle in that slot while the releasing thread also holds it is a double release (a thread
 * that got the object from its taker sees the taker's write). An object that someone else took
 * and pushed again into another slot is idle in the pool too, and releasing it again is double
 * as well; the check no longer sees that rarer case, which {@link LeakDetection#PARANOID}
 * catches (see {@link Pool#release}). Stateless.
 */
final class ReleaseChecks {
    private ReleaseChecks() {
    }

    /**
     * Whether a release of {@code x} by the owner of {@code s}, whose {@link PrivateSlotFields#item}
     * it read as {@code cur}, is a second one: {@code x} is idle in the slot, in a spare entry, or in
     * the stripe slot where this thread pushed it last.
     */
    static boolean twice(Stripe[] stripes, PrivateSlot s, Object cur, Object x) {
        return cur == x || s.spareHolds(x) || x == s.lastShared && idle(stripes, s) || s.droppedLast(x);
    }

    /**
     * Whether the owner of {@code s} gave {@code x} back while the hooks of its release of
     * {@code x} ran (a reset or {@code retainIf} that releases or invalidates its own object):
     * it is in the slot or a spare entry, or it is the last object this thread gave back. Sound
     * because the release checked before its hooks that none of these held ({@link #twice}
     * clears a {@code lastShared} record that does not, and a checked release forgets
     * {@code lastDropped} after it). A hook that gives back its object and then another one
     * replaces that record and is not seen here.
     */
    static boolean givenBackInHooks(PrivateSlot s, Object x) {
        return x == s.item || x == s.lastShared || s.spareHolds(x) || s.droppedLast(x);
    }

    /**
     * Whether the slot's {@code lastShared} object is still idle where this thread pushed it; if
     * not, forgets it, since this thread holds it again. One read, whatever the stripes' size.
     */
    static boolean idle(Stripe[] stripes, PrivateSlot s) {
        if (stripes[s.lastSharedStripe].holdsAt(s.lastSharedIndex, s.lastShared)) {
            return true;
        }
        s.lastShared = null;
        return false;
    }

    /** The exception of a {@code release(null)} or an {@code invalidate(null)}. */
    static NullPointerException nullObject(String call, String pool) {
        return new NullPointerException(call + "(null) on pool '" + pool
                + "': pass the object that acquire() returned");
    }

    /** What {@link #givenBackTwice} adds in the default mode, which sees only some of them. */
    static final String SAME_THREAD_ONLY = "The default mode catches only a second release on "
            + "the thread that released the object last, while it is still idle; "
            + "leakDetection(PARANOID) catches every one, with the stack of the first release.";

    /** What {@link #givenBackTwice} adds under leak detection, which attaches the stacks. */
    static final String WITH_STACKS = "The cause is the first release's stack (recorded under "
            + "PARANOID), the suppressed exception the acquisition's.";

    /**
     * The one text, for every engine and mode, of a {@code release} or {@code invalidate} of an
     * object that is already back in the pool; {@code detail} says what the mode can tell more
     * (empty: nothing).
     */
    static IllegalStateException givenBackTwice(String pool, String call, Object x, String detail) {
        return new IllegalStateException("pool '" + pool + "': a " + x.getClass().getTypeName()
                + ("release".equals(call) ? " was released twice"
                        : " was invalidated after it was already given back")
                + "; this second " + call + "() was ignored and the pool was not changed. After "
                + "release(x) or invalidate(x), x belongs to the pool: drop every reference to it."
                + (detail.isEmpty() ? "" : " " + detail));
    }
}
