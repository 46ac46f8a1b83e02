package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;
import java.time.Duration;
import java.time.Instant;

/**
 * The record of one tracked acquisition: a phantom reference to the borrowed object, which the
 * garbage collector enqueues on the {@link LeakReaper}'s queue once the object is unreachable.
 *
 * <p>States. A tracker is <em>borrowed</em> from its creation ({@link #releasedAt} null),
 * <em>released</em> once {@link #markReleased} wins ({@code releasedAt} set, by one
 * compare-and-set, so two racing releases of one object cannot both win), and <em>retired</em>
 * when it leaves its pool's {@link LeakTable}: at the object's next acquisition, or when the
 * reaper takes it from the queue. A released tracker stays in the table until then so that a
 * second release of the object finds it and is reported with the first release's stack.
 *
 * <p>Reachability. The table holds the tracker strongly until it is retired, so a tracker is
 * always reachable when the collector finds its object unreachable, and is enqueued. A retired
 * tracker is cleared and dropped: the collector never enqueues it. The tracker holds no strong
 * reference to the object, only the facts needed for a report, all captured on the acquiring
 * thread: two clock readings, two strings already held elsewhere, and an unthrown
 * {@link CallSite} whose frames are only materialised if a report is made.
 */
final class LeakTracker extends PhantomReference<Object> {
    private static final VarHandle RELEASED_AT;

    static {
        try {
            RELEASED_AT = MethodHandles.lookup()
                    .findVarHandle(LeakTracker.class, "releasedAt", CallSite.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final LeakDetectingPool<?> pool;
    /** The object's identity hash: the tracker's key in {@link LeakTable}. */
    final int hash;
    final String objectClass;
    final String threadName;
    final long acquiredNanos;
    final long acquiredMillis;
    final CallSite acquiredAt;
    /** Next tracker with the same {@link #hash}; written under the table's bin lock. */
    volatile LeakTracker next;
    /** Null while borrowed; set once by the first release, through {@link #RELEASED_AT}. */
    private volatile CallSite releasedAt;

    LeakTracker(LeakDetectingPool<?> pool, Object object, int hash) {
        super(object, LeakReaper.queue());
        this.pool = pool;
        this.hash = hash;
        this.objectClass = object.getClass().getTypeName();
        Thread t = Thread.currentThread();
        this.threadName = t.getName();
        this.acquiredMillis = System.currentTimeMillis();
        this.acquiredNanos = System.nanoTime();
        this.acquiredAt = new CallSite("acquired here", threadName);
    }

    /**
     * Records the first release of the object.
     *
     * @return false if the object had already been released (the caller has a double release)
     */
    boolean markReleased(CallSite site) {
        return RELEASED_AT.compareAndSet(this, (CallSite) null, site);
    }

    boolean released() {
        return releasedAt != null;
    }

    /** The first release's site, or null while borrowed. */
    CallSite releasedAt() {
        return releasedAt;
    }

    LeakReport report(long nowNanos) {
        return new LeakReport(pool.name(), objectClass, threadName,
                Instant.ofEpochMilli(acquiredMillis), Duration.ofNanos(nowNanos - acquiredNanos),
                acquiredAt.callerFrames());
    }
}
