package io.github.stripedpool;

/**
 * Makes a thread that is about to take one of the library's locks first prove that its stack
 * has room for everything it does while it holds the lock, so that a
 * {@link StackOverflowError} is thrown before the lock is taken, never while it is held.
 *
 * <p>Why. A thread near the end of its stack (a deep recursion that calls the pool) can overflow
 * at any call. Inside a locked section, {@code finally { lock.unlock(); }} does not save it:
 * {@link java.util.concurrent.locks.ReentrantLock#lock()} runs in the JVM's reserved stack zone
 * and delivers the overflow when it returns, that is after the lock is taken and before the
 * {@code try} is entered; and {@code unlock()} is itself a chain of calls that can overflow
 * before the lock is released or its next waiter woken. Either way the lock stays held by a
 * thread that has moved on (or ended), and every later caller of the pool that needs it waits
 * for good: a bounded pool stopped handing out objects after a walk down to the end of a stack
 * ({@code StackLimitTest}).
 *
 * <p>How. Every method entry of the JVM (compiled or interpreted) touches the stack a fixed
 * shadow zone (tens of kilobytes) below its frame, and throws {@code StackOverflowError} if that
 * is out of the stack. {@link #ensure} descends {@value #FRAMES} frames, more than any locked
 * section of the library goes down (its deepest: a lock, a few calls of the library's own, an
 * unlock that wakes a thread, each a handful of frames), so a thread that comes back from it has
 * a shadow zone of stack below everything the locked section will call. The sections run no
 * user code (a rule of the library), so their depth is the library's to know.
 *
 * <p>A bounded pool's creation path ({@link #ensureForCreation}) is guarded as a whole, before
 * its unit of capacity is reserved: an overflow between the reservation and the entry that
 * records it would lose the unit for good, and the path holds locks at several depths.
 *
 * <p>Cost: {@value #FRAMES} calls on paths that take a lock: waiting, handing an object to a
 * waiter, creating or dropping a bounded pool's object, statistics and aging;
 * {@value #CREATION_FRAMES} before a bounded pool with room creates, and instead of
 * {@value #FRAMES} when a thread joins the wait queue (a wait may end with a unit to create
 * with); {@value #VALIDATION_FRAMES} at each acquire of a bounded pool with a validate hook,
 * whose refusals destroy and create while holding a unit ({@link #ensureForValidation}). The paths that take no lock (an unbounded pool's acquire and release, a bounded pool's
 * acquire and release when no thread waits) do not pay it. Side by side, with and without it:
 * BoundedBenchmark, 4 threads on 2 objects, hold 100, no loss (two pairs of runs, for the locks
 * and again for the creation path); ConnectionPoolShape, 64 platform threads on 8 objects, 50 µs
 * holds, 0.99x Vibur with it and 1.00x without (within noise), 0.99x and 0.98x for the creation
 * path. Where every acquisition waits and every release hands over it may cost more: 1,000
 * virtual threads on 16 objects, 50 µs holds, JDK 25, three pairs of quick runs: medians of
 * 88,000 to 93,000 acquisitions per second with it, 96,000 to 97,000 without, up to about 6 %;
 * but two later runs of the same code gave 83,000 and 100,000.
 *
 * <p>Concurrency. Stateless.
 */
final class StackHeadroom {
    /** Frames {@link #ensure} descends. */
    static final int FRAMES = 128;
    /**
     * Frames {@link #ensureForCreation} descends: {@link #FRAMES} below the deepest
     * {@link #ensure} of a bounded pool's creation path (a few frames under the acquire that
     * reserves: claiming an entry, indexing the object, giving the unit back), with room to spare.
     */
    static final int CREATION_FRAMES = FRAMES + 32;
    /**
     * Frames {@link #ensureForValidation} descends: twice {@link #FRAMES}. Proven where a
     * validated acquire begins, above the whole path of a refusal (take, validate, destroy, free
     * the entry, make the replacement), several frames deeper than the creation path's proof, and
     * their frames larger than the descent's: with {@link #CREATION_FRAMES} there, a walk to the
     * end of a 256 KiB stack still lost a unit or more in most runs ({@code BoundedRefusalTest}).
     */
    static final int VALIDATION_FRAMES = 2 * FRAMES;

    private StackHeadroom() {
    }

    /**
     * Returns if the stack has room for a locked section, and otherwise throws
     * {@link StackOverflowError}, holding nothing.
     */
    static void ensure() {
        if (descend(FRAMES) != FRAMES) {
            throw new AssertionError("the descent counts its frames"); // keeps its result used
        }
    }

    /**
     * Returns if the stack has room for a bounded pool's creation path, from a unit of capacity
     * reserved to the object handed out or the unit given back, locked sections included; and
     * otherwise throws {@link StackOverflowError}, holding nothing. Called before the unit is
     * reserved: an overflow on that path, between the reservation and the entry that records
     * it, would lose the unit for good. The factory runs deeper, and may overflow itself: that
     * is a factory failure, caught on the path, whose undo runs back within the room proven here.
     */
    static void ensureForCreation() {
        if (descend(CREATION_FRAMES) != CREATION_FRAMES) {
            throw new AssertionError("the descent counts its frames");
        }
    }

    /**
     * Returns if the stack has room for a validated acquire of a bounded pool, a refused
     * object's destroy and its replacement's creation included (the acquire holds a unit of
     * capacity from the destroy to the new entry); otherwise throws {@link StackOverflowError},
     * holding nothing. Costs {@value #VALIDATION_FRAMES} calls, next to a validation.
     */
    static void ensureForValidation() {
        if (descend(VALIDATION_FRAMES) != VALIDATION_FRAMES) {
            throw new AssertionError("the descent counts its frames");
        }
    }

    private static int descend(int n) {
        return n == 0 ? 0 : descend(n - 1) + 1;
    }
}
