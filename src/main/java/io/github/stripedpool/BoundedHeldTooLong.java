package io.github.stripedpool;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * The "held too long" watch of a {@link BoundedPool} built with
 * {@link PoolBuilder#reportHeldLongerThan(Duration)}: reports, once, an object borrowed longer
 * than the threshold, with the stack of its acquisition, and reports it again when it comes
 * back, with how long it was held. Exists only when the option is set: without it the pool has
 * no instance and pays one null check per acquire and release.
 *
 * <p>Concurrency. Each acquisition puts a new {@link Borrow} in its entry's volatile
 * {@link BoundedEntry#borrow} field; the borrow's fields are final but {@link Borrow#state} and
 * {@link Borrow#returnedNanos}. The state goes from OUT to REPORTING (by the maintenance run that
 * reports it, during its scan), then to REPORTED once its report was delivered; or to RETURNED
 * (by the release) or FORGOTTEN (a borrowing whose object was garbage), each by one atomic
 * operation. The check's CAS OUT to REPORTING and the release's getAndSet to RETURNED decide
 * between them, so a borrow is reported as held too long at most once, and its return is
 * reported exactly when it was reported as held too long, and after that report: a release that
 * finds REPORTED reports the return itself; one that finds REPORTING leaves it to the check,
 * whose CAS REPORTING to REPORTED then fails on RETURNED, and which reports the return right
 * after the held-too-long report, with the time the release wrote before its getAndSet. A
 * check that reads a stale borrow (the entry moved on to a later borrowing) finds it RETURNED
 * and does nothing. Only maintenance runs check, and they never overlap for one pool.
 *
 * <p>Reports leave through the channels of leak reports ({@link ReportDelivery}): Flight
 * Recorder, the {@code io.github.stripedpool} logger, and the onLeak listener, called with no
 * lock held: held-too-long reports after a maintenance run's scan, on the worker that runs the
 * pool's jobs ({@link Lane}), return reports on
 * the releasing thread after the object is back in the pool.
 */
final class BoundedHeldTooLong {
    private final String name;
    final long thresholdNanos;
    private final Consumer<? super LeakReport> listener;
    private final AtomicLong reported = new AtomicLong();

    BoundedHeldTooLong(String name, long thresholdNanos, Consumer<? super LeakReport> listener) {
        this.name = name;
        this.thresholdNanos = thresholdNanos;
        this.listener = listener;
    }

    /** One borrowing of an entry's object, from its acquisition to its return. */
    static final class Borrow {
        static final int OUT = 0;
        static final int REPORTING = 1;
        static final int REPORTED = 2;
        static final int RETURNED = 3;
        static final int FORGOTTEN = 4;

        final CallSite acquiredAt;
        final String threadName;
        final String objectClass;
        final long sinceNanos;
        final Instant sinceWall;
        final AtomicInteger state = new AtomicInteger(OUT);
        /** When the release ended the borrowing; written before its getAndSet of the state. */
        volatile long returnedNanos;

        Borrow(Object x) {
            this.threadName = Thread.currentThread().getName();
            this.acquiredAt = new CallSite("acquired here", threadName);
            this.objectClass = x.getClass().getTypeName();
            this.sinceNanos = System.nanoTime();
            this.sinceWall = Instant.now();
        }

        LeakReport report(String pool, LeakReport.Kind kind, long nowNanos) {
            return new LeakReport(kind, pool, objectClass, threadName, sinceWall,
                    Duration.ofNanos(Math.max(0, nowNanos - sinceNanos)), acquiredAt.callerFrames());
        }
    }

    /** On the acquiring thread, after the acquire: records where and when {@code e} was borrowed. */
    void borrowed(BoundedEntry e, Object x) {
        e.borrow = new Borrow(x);
    }

    /**
     * On the releasing thread, as the owner of {@code e}: ends its borrowing; returns the borrow
     * if it was reported as held too long, for {@link #reportReturned} once the object is back.
     */
    Borrow returned(BoundedEntry e) {
        Borrow b = e.borrow;
        if (b == null) {
            return null;
        }
        e.borrow = null;
        b.returnedNanos = System.nanoTime(); // before the getAndSet: a check reporting it reads it after
        // REPORTING: the check reports the return, after its held-too-long report (class comment).
        return b.state.getAndSet(Borrow.RETURNED) == Borrow.REPORTED ? b : null;
    }

    /** A borrowing that ends without a return (its object was garbage): never reported again. */
    static void forget(BoundedEntry e) {
        Borrow b = e.borrow;
        if (b != null) {
            b.state.set(Borrow.FORGOTTEN);
            e.borrow = null;
        }
    }

    void reportReturned(Borrow b) {
        ReportDelivery.deliver(b.report(name, LeakReport.Kind.RETURNED, b.returnedNanos), name, listener);
    }

    /**
     * Reports every borrowing of {@code entries} older than the threshold at {@code nowNanos} and
     * not reported yet; by maintenance runs only. The reports go out after the scan.
     */
    void check(BoundedEntry[] entries, long nowNanos) {
        List<Borrow> due = null;
        for (BoundedEntry e : entries) {
            Borrow b = e.borrow;
            if (b != null && nowNanos - b.sinceNanos >= thresholdNanos
                    && b.state.get() == Borrow.OUT && b.state.compareAndSet(Borrow.OUT, Borrow.REPORTING)) {
                if (due == null) {
                    due = new ArrayList<>();
                }
                due.add(b);
            }
        }
        if (due != null) {
            reported.addAndGet(due.size());
            for (Borrow b : due) {
                ReportDelivery.deliver(b.report(name, LeakReport.Kind.HELD_TOO_LONG, nowNanos), name, listener);
                if (!b.state.compareAndSet(Borrow.REPORTING, Borrow.REPORTED) && b.state.get() == Borrow.RETURNED) {
                    reportReturned(b); // released while its report waited: see the class comment
                }
            }
        }
    }

    /** Borrowings reported as held too long since the pool was built. */
    long reported() {
        return reported.get();
    }
}
