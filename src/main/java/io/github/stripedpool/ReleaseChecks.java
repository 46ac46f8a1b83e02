package io.github.stripedpool;

/**
 * The unbounded engine's checks of a release's argument, and their exceptions. How it tells a
 * second release of an object from a legitimate one, without leak detection: the object is in the releasing thread's private slot, or it is the object that
 * thread last released to a stripe ({@link PrivateSlotFields#lastShared}) and it is still idle
 * there.
 *
 * <p>Why the second check scans. Another thread may have taken the object from the stripe since,
 * and handed it back to this thread (a producer and a consumer trading objects): its release is
 * then legitimate, and only the stripes can tell, because the owner-only {@code lastShared} is
 * not cleared by another thread's acquisition. The scan runs only when the released object is
 * {@code lastShared}, never on the fast path of a distinct object. Its reads race with takers:
 * an object seen idle in a stripe while the releasing thread also holds it is a double release
 * (a thread that got the object from its taker sees the taker's write), and an object taken and
 * pushed again by someone else is idle in the pool, so releasing it again is double too.
 * Stateless.
 */
final class ReleaseChecks {
    private ReleaseChecks() {
    }

    /**
     * Whether the slot's {@code lastShared} object is still idle in a stripe; if not, forgets it,
     * since this thread holds it again.
     */
    static boolean idle(Stripe[] stripes, PrivateSlot s) {
        Object x = s.lastShared;
        int n = stripes.length;
        for (int i = 0; i < n; i++) {
            if (stripes[(s.home + i) & (n - 1)].holds(x)) {
                return true;
            }
        }
        s.lastShared = null;
        return false;
    }

    /** The exception of a {@code release(null)} or an {@code invalidate(null)}. */
    static NullPointerException nullObject(String call, String pool) {
        return new NullPointerException(call + "(null) on pool '" + pool
                + "': pass the object that acquire() returned");
    }

    /** The exception of a release of an object that is already back in the pool. */
    static IllegalStateException doubleRelease(String pool, Object x) {
        return new IllegalStateException("pool '" + pool + "': a " + x.getClass().getName()
                + " was released twice: it is already back in the pool (this thread released it "
                + "last, and it is still idle there). This second release was ignored. After "
                + "release(x), x belongs to the pool: drop every reference to it. The default "
                + "mode catches only a double release on the same thread; leakDetection(PARANOID) "
                + "catches every one, with the stack of the first release");
    }
}
