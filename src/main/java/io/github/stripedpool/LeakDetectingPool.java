package io.github.stripedpool;

import java.lang.ref.Reference;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A pool with leak detection: tracks acquisitions of the pool it wraps, checks its releases, and
 * reports tracked objects that die unreleased. Built only for {@link LeakDetection#SAMPLED} and
 * {@link LeakDetection#PARANOID}; with {@link LeakDetection#DISABLED} the builder returns the
 * wrapped pool itself, so that the disabled level is the absence of this class rather than a
 * branch in the engine.
 *
 * <p>Tracking. A tracked acquisition puts a {@link LeakTracker} (a phantom reference to the
 * object) in {@link #table}; the release of a tracked object marks its tracker released, and the
 * tracker stays in the table until the object's next acquisition retires it, or until the object
 * dies and the {@link LeakReaper} removes it. When the reaper finds a tracker that was never
 * released, the object leaked. The pool never holds a borrowed object strongly: the table holds
 * trackers, and matches them by identity with {@link Reference#refersTo}.
 *
 * <p>Cost. {@link LeakDetection#PARANOID} tracks every acquisition and records a stack at every
 * acquisition and release. {@link LeakDetection#SAMPLED} tracks one acquisition in
 * {@link #interval}, at random (a thread-local generator, no shared write); an untracked
 * acquisition or release looks in the table only when the table is not empty, so while nothing
 * is tracked it costs a random number and one read of a counter.
 *
 * <p>Misuse. With a tracker at hand the pool can tell what the engine cannot: a second release
 * of a released object (its tracker is already marked) throws {@link IllegalStateException}
 * caused by the first release's stack (recorded in {@code PARANOID} only: in {@code SAMPLED} a
 * second stack per tracked cycle would double the cost of sampling); in {@code PARANOID}, where
 * every object handed out is tracked, the release of an untracked object throws
 * {@link IllegalArgumentException}. Neither
 * reaches the wrapped pool, which therefore never holds an object twice. In {@code SAMPLED}
 * misuse of untracked objects goes undetected and is passed on as the engine would see it.
 *
 * <p>Reclaiming. After reporting a leak, the pool tells the wrapped pool if it implements
 * {@link LeakAware}, so that a pool that counts its objects (a bounded pool) can give back the
 * capacity the leaked object held.
 */
final class LeakDetectingPool<T> implements Pool<T> {
    private final Pool<T> delegate;
    private final String name;
    private final boolean paranoid;
    /** Tracks one acquisition in this many (1 in PARANOID). */
    private final int interval;
    private final Consumer<? super LeakReport> listener;
    /** The wrapped pool if it wants to hear of leaks, else null. */
    private final LeakAware reclaimer;
    private final LeakTable table = new LeakTable();
    /** Written by the reaper thread only. */
    private final AtomicLong leaks = new AtomicLong();

    LeakDetectingPool(Pool<T> delegate, LeakDetection level, int interval,
            Consumer<? super LeakReport> listener) {
        if (level == LeakDetection.DISABLED) {
            throw new IllegalArgumentException("a disabled pool is not wrapped");
        }
        this.delegate = delegate;
        this.name = delegate.name();
        this.paranoid = level == LeakDetection.PARANOID;
        this.interval = paranoid ? 1 : interval;
        this.listener = listener;
        this.reclaimer = delegate instanceof LeakAware ? (LeakAware) delegate : null;
        LeakReaper.register(this); // the leak thread runs while this pool may report (see LeakReaper)
    }

    /** The engine it wraps; for tests that drive the engine's background work. */
    Pool<T> engine() {
        return delegate;
    }

    // ---------------------------------------------------------------- acquire, release

    @Override
    public T acquire() {
        return acquired(delegate.acquire());
    }

    @Override
    public T acquire(Duration timeout) {
        return acquired(delegate.acquire(timeout));
    }

    private T acquired(T x) {
        try {
            if (shouldTrack()) {
                track(x);
                return x;
            }
            if (!table.isEmpty()) {
                table.untrack(x); // retires the tracker of an earlier, released acquisition
            }
            return x;
        } catch (OutOfMemoryError | StackOverflowError noRoom) {
            // No memory for the tracker or its call site, or no stack for the table's lock (a
            // thread at the end of its stack): the acquire fails as a whole, the object back in
            // the engine, rather than the object be lost to its caller with its place in the
            // pool. (Not handed out untracked: under PARANOID its release would be refused.)
            try {
                delegate.release(x);
            } catch (Throwable t) {
                noRoom.addSuppressed(t);
            }
            throw noRoom;
        }
    }

    @Override
    public Lease<T> lease() {
        T x = delegate.acquire();
        if (shouldTrack()) {
            track(x);
            return new TrackedLease<>(this, x);
        }
        if (!table.isEmpty()) {
            table.untrack(x);
        }
        return new Lease<>(this, x);
    }

    private boolean shouldTrack() {
        return paranoid || ThreadLocalRandom.current().nextInt(interval) == 0;
    }

    /** Split from the acquire paths: the tracked case is the rare one in SAMPLED. */
    private void track(T x) {
        table.track(new LeakTracker(this, x, System.identityHashCode(x)), x);
        if (delegate.isClosed()) {
            // An acquire that raced close: the leak thread may have ended, or may end, once it
            // saw this pool closed with nothing tracked (LeakReaper): registered again, after the
            // tracker is in the table, so that one of the two sees the other.
            LeakReaper.register(this);
        }
    }

    @Override
    public void release(T object) {
        if (object == null || (!paranoid && table.isEmpty())) {
            delegate.release(object); // the engine reports null
            return;
        }
        releaseChecked(object, false);
    }

    /** Checked like a release: the tracker is marked, so an invalidated object is no leak. */
    @Override
    public void invalidate(T object) {
        if (object == null || (!paranoid && table.isEmpty())) {
            delegate.invalidate(object);
            return;
        }
        releaseChecked(object, true);
    }

    /** Split from {@link #release} so that the untracked SAMPLED path stays small. */
    private void releaseChecked(T object, boolean invalidate) {
        LeakTracker t = table.find(object);
        if (t == null) {
            if (paranoid) {
                throw trimmed(new IllegalArgumentException("pool '" + name + "': "
                        + (invalidate ? "invalidation" : "release") + " of a "
                        + object.getClass().getTypeName() + " that this pool did not hand out; the "
                        + "object was not pooled. Give objects back only to the pool they came from"));
            }
            giveBack(object, invalidate);
            return;
        }
        // PARANOID records where; SAMPLED only that it happened, because a second stack per
        // tracked cycle would double what sampling costs, for a report that already has two
        // stacks: the acquisition and the second release.
        CallSite here = paranoid
                ? new CallSite("released here", Thread.currentThread().getName())
                : CallSite.UNRECORDED;
        if (!t.markReleased(here)) {
            throw doubleRelease(object, t, invalidate ? "invalidate" : "release");
        }
        try {
            giveBack(object, invalidate);
        } finally {
            // The tracker is marked before the object can become unreachable: a release is
            // never mistaken for a leak, however early the JIT ends the object's liveness.
            Reference.reachabilityFence(object);
        }
    }

    private void giveBack(T object, boolean invalidate) {
        if (invalidate) {
            delegate.invalidate(object);
        } else {
            delegate.release(object);
        }
    }

    private IllegalStateException doubleRelease(T object, LeakTracker t, String call) {
        CallSite first = t.releasedAt();
        IllegalStateException e = ReleaseChecks.givenBackTwice(name, call, object,
                ReleaseChecks.WITH_STACKS);
        if (first != null && first != CallSite.UNRECORDED) {
            first.callerFrames();
            e.initCause(first);
        }
        t.acquiredAt.callerFrames();
        e.addSuppressed(t.acquiredAt);
        return trimmed(e);
    }

    /** Starts the exception's stack at the caller's frame, like the stacks it carries. */
    private static <X extends RuntimeException> X trimmed(X e) {
        e.setStackTrace(CallSite.trim(e.getStackTrace()));
        return e;
    }

    // ---------------------------------------------------------------- leaks

    /** Called on the {@link LeakReaper} thread when the object of {@code t} has died. */
    void reap(LeakTracker t) {
        if (!table.remove(t) || t.released()) {
            return; // retired meanwhile, or released: not a leak
        }
        LeakReport report = t.report(System.nanoTime());
        leaks.incrementAndGet();
        if (reclaimer != null) {
            // First: the listener is user code, which may acquire from this pool (the leaked
            // object's place must be free by then) or take its time.
            reclaimer.leaked(report);
        }
        ReportDelivery.deliver(report, name, listener);
    }

    // ---------------------------------------------------------------- sampling inside an engine

    /*
     * An unbounded pool under SAMPLED decides on its own acquire path, with a per-thread
     * countdown, which acquisitions to track, and is returned to the caller itself: this object
     * then only keeps the table and reports, and is never called on an untracked acquisition
     * while nothing is tracked.
     */

    /** Tracks an acquisition the engine sampled. */
    void trackSampled(T x) {
        track(x);
    }

    /** An untracked acquisition: retires the tracker of an earlier, released acquisition of x. */
    void acquiredUntracked(T x) {
        if (!table.isEmpty()) {
            table.untrack(x);
        }
    }

    /** The table, which the engine's release reads to skip {@link #releasedSampled}. */
    LeakTable table() {
        return table;
    }

    /** Whether nothing is tracked: the engine skips {@link #releasedSampled} then. */
    boolean nothingTracked() {
        return table.isEmpty();
    }

    /**
     * Checks the release of {@code x} by an engine that samples: marks its tracker released,
     * or throws on the second release of a tracked object. The engine then pools {@code x}.
     *
     * @return whether {@code x} was tracked
     */
    boolean releasedSampled(T x, String call) {
        LeakTracker t = table.find(x);
        if (t != null && !t.markReleased(CallSite.UNRECORDED)) {
            throw doubleRelease(x, t, call);
        }
        return t != null;
    }

    /** Whether {@code x} is tracked and not released: its lease records where it is closed. */
    boolean borrowedAndTracked(T x) {
        if (table.isEmpty()) {
            return false;
        }
        LeakTracker t = table.find(x);
        return t != null && !t.released();
    }

    long leakCount() {
        return leaks.get();
    }

    /** Trackers in the table (borrowed, or released and not yet retired); for tests. */
    int tracked() {
        return table.size();
    }

    // ---------------------------------------------------------------- the rest is the engine's

    @Override
    public PoolStats stats() {
        return delegate.stats().withLeaks(leaks.get());
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isClosed() {
        return delegate.isClosed();
    }

    /**
     * Closes the wrapped pool. Tracking goes on: objects in use when the pool closed are still
     * checked when they come back, and reported if they never do.
     */
    @Override
    public void close() {
        delegate.close();
    }

    @Override
    public String toString() {
        return "LeakDetectingPool[" + (paranoid ? "paranoid" : "sampled 1/" + interval) + ", "
                + delegate + "]";
    }
}
