package io.github.stripedpool;

import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * The wait of an acquirer of a {@link BoundedPool} that found nothing idle and no capacity left:
 * a platform thread first yields its processor a few times ({@link #yieldFor}), then it queues
 * in the {@link BoundedWaitQueue}, parks, and leaves with an entry or a permit to create, or
 * with a timeout, an interrupt or the pool's close. Never spins without yielding and never waits
 * on a monitor; a virtual thread does not yield, it parks at once and frees its carrier.
 *
 * <p>Why yield before queueing. With more platform threads than processors, the holder of an
 * object is often a thread that waits for a processor itself; a park and the unpark that ends
 * it are a system call on each side, and the releaser pays its half on every release that finds
 * a waiter. A waiter that yields gives its processor to such a holder, which usually releases
 * within a few yields, and then takes the idle object without a queue, a park or a wake-up
 * (BoundedBenchmark, 4 threads on 2 objects and 2 cores: see {@link #YIELDS}). The yields come
 * before the thread queues and stop after {@link #YIELD_NANOS}, so they add at most that and
 * one yield (one time slice when every processor is busy) to its wait, and change no bound of
 * the queue. In starving mode nothing is idle for the thread to find (every release hands its
 * object to the oldest waiter), so a thread that finds the queue starving, before any yield or
 * between two, queues at once: with many platform threads on few objects the queue starves for
 * good, and the yields were system calls and context switches that could find nothing
 * (ConnectionPoolShape, 64 platform threads on 8 objects, hold 50 µs, 2 cores: 3.3 context
 * switches per acquisition with them, 2.4 without, and 7 to 16 % less processor time per
 * acquisition, at the same rate). An object it finds counts as a
 * hit, not a wait; a thread that queues after its yields counts them in its wait (statistics and
 * starvation threshold alike). A virtual thread's yield is an unmount and a remount, dearer than its park,
 * and takes carrier time from the threads that hold objects: virtual threads skip it.
 *
 * <p>The lost wake-up. A waiter queues and then parks; a releaser that saw no waiter marks its
 * entry IDLE. If the two cross, the waiter could sleep next to an idle object. Both sides make a
 * pair of sequentially consistent accesses in opposite order (Dekker): the releaser writes IDLE
 * (volatile) then reads the queue's size and mode (volatile, see {@link BoundedStates#publish});
 * the waiter writes the size (under the queue's lock, volatile), or the starving mode, then pops
 * the idle stacks, whose heads and flags are volatile too (an IDLE entry is always in a stack or
 * held by a taker that will try it: see {@link BoundedEntryTable}). At least one sees the other: the releaser wakes the front
 * waiter, or takes its entry back (CAS IDLE to RESERVED) and hands it over, or the waiter finds
 * it, cancels its place in the queue and takes it. A waiter that was woken once and lost the
 * race is not woken again until it has waited the starvation threshold; an entry may then stay
 * idle that long while it sleeps, which is the price of waking no thread per release in a tight
 * loop, and within the bound. Freed capacity follows the same pattern with the live count in
 * place of an entry's state, and the pool's closed flag with close (see {@link BoundedStates}).
 *
 * <p>Waking at the threshold. A waiter parks until it is served, or until it has waited the
 * starvation threshold, when it switches the queue to starving mode. If the queue is starving
 * already when it parks, it does not set that second alarm: nothing would be left to do when it
 * rang, and with many waiters on few objects (each waits longer than the threshold) it was one
 * more park, timer and wake-up per acquisition. The mode can end while such a waiter sleeps,
 * only by a hand-off to a waiter younger than its own threshold (so the sleeper is younger
 * too, though past its own threshold if that is shorter: a virtual thread's 1 ms behind a
 * platform thread's longer one, see {@link BoundedWaitQueue#thresholdFor}); in normal
 * mode the next release wakes the front waiter, which, if it has waited its threshold by then,
 * switches the mode before it parks again. So its bound grows by at most that one release,
 * whose object a barging thread may take.
 *
 * <p>A spent signal. A virtual thread woken without being served while the queue starves, whose
 * look then finds nothing, clears the queue's mark that its front was woken, if it is that front
 * ({@link BoundedWaitQueue#spendSignal}, which says why and why only a virtual thread), and then
 * owes one more look: a release that read the mark before it was cleared (it read "not
 * starving" before another waiter switched the mode) woke nobody for the object it made idle,
 * and that look finds it (the same Dekker pair, the mark in place of the queue's size). It
 * makes that look even if it is served first, and gives what it finds back through the release
 * path, to the next waiter: a waiter that keeps the mark passes it on when served, and one that
 * spent it must not leave that object behind unseen. The waiter that switched the mode owes a
 * look too and skips it if served first; that one is covered by whoever holds the mark: the
 * front that keeps it passes it on, the front that spends it looks.
 *
 * <p>A wake-up taken by the queue's lock. A waiter that takes the queue's lock (to spend the
 * signal) may park inside it; the unpark of a hand-off made meanwhile, or of a mark passed on
 * to it, then ends that park, and the waiter's own park would find no permit left: it would
 * sleep to its timeout with the object handed over, or, marked, with no alarm in a mode that
 * ended meanwhile, next to an idle object no release wakes it for. So a waiter that kept the
 * signal goes round its loop again (outcome, look, mode, all read afresh) before it parks, and
 * every park is preceded by a read of the outcome: a server writes it under the lock before it
 * unparks.
 *
 * <p>Served twice. A waiter that finds an entry or a unit by itself cancels its place; if the
 * cancel fails, it was served meanwhile and holds two: it keeps what it was handed and gives the
 * other back through the same release path ({@link #giveBack}). A waiter that times out or is
 * interrupted after being served gives back what it was handed too, so nothing is lost.
 */
final class BoundedWaiting {
    /** The outcome of a wait that brought a unit of capacity rather than an entry. */
    static final BoundedEntry PERMIT = new BoundedEntry(-1);

    private final BoundedStates states;
    private final BoundedWaitQueue queue;
    private final String name;

    /**
     * At most this many yields of a platform thread before it queues, and for at most
     * {@link #YIELD_NANOS}. BoundedBenchmark (4 threads on 2 objects, 2 cores, JDK 17, 2 forks,
     * throughput ÷ ConcurrentBag's and ÷ the ceiling, no pool, side by side): at a hold of 100
     * tokens, 0.85x and 0.79x without yields, 1.00x and 0.91x with them; at 1000 tokens, 0.85x
     * and 0.84x, then 0.93x and 0.91x. The p99.9 of a cycle at hold 100 went from 17 to 3 µs;
     * the connection-pool shapes did not change.
     */
    static final int YIELDS = 32;

    /**
     * How long the yields may last in all: 20 µs. A yield can give the processor away for a
     * whole time slice of the operating system (milliseconds) when every processor is busy; 32
     * yields with no bound on their time raised the throughput at hold 1000 to 0.96x the bag's but
     * made the longest cycle 57 to 68 ms instead of 12 to 16: the bound on waiting comes first.
     */
    static final long YIELD_NANOS = 20_000L;

    /** What a platform thread does between two looks before it queues. */
    interface Pause {
        void pause();
    }

    /** {@link Thread#yield}: the pause of every pool but the tests' (which count or stall it). */
    static final Pause YIELD = new Pause() {
        @Override
        public void pause() {
            Thread.yield();
        }
    };

    private final Pause pause;
    /** Parks of queued waiters, counted before each; for tests (a park costs far more). */
    private final LongAdder parks = new LongAdder();

    BoundedWaiting(BoundedStates states, BoundedWaitQueue queue, Pause pause) {
        this.states = states;
        this.queue = queue;
        this.name = states.name;
        this.pause = pause;
    }

    /**
     * Queues the caller and parks until it is handed an entry or a permit, finds one itself, or
     * gives up. Parks at most until it has waited the starvation threshold,
     * then switches the queue to starving mode (see {@link BoundedWaitQueue}).
     *
     * @param start when the acquire's timeout began
     * @param waitStart when the caller began to wait, before its yields: its wait time, for the
     *        statistics and the starvation threshold, counts from here
     * @param recorded the Flight Recorder wait event begun with {@code waitStart}
     *        ({@link FlightRecorderEvents#waitStarted}, null if none), ended here whatever the
     *        outcome, so that its duration counts the yields as the statistics do
     * @return a BORROWED entry that is now the caller's, or {@link #PERMIT}
     */
    BoundedEntry await(int home, long start, long timeoutNanos, long waitStart, Object recorded) {
        boolean timedOut = false;
        try {
            long now = System.nanoTime();
            if (timeoutNanos - (now - start) <= 0) {
                timedOut = true; // the yields took the whole timeout: a wait that timed out
                if (waitStart - start < timeoutNanos) {
                    // Time was left when the wait began (a zero timeout, or one the validations
                    // used up, never waited): counted as a wait, as one in the queue is.
                    queue.waitedWithoutQueueing(now - waitStart);
                }
                throw timeout(timeoutNanos);
            }
            // Waited since before its yields: the statistics and the starvation threshold count them.
            BoundedWaitQueue.Waiter w = new BoundedWaitQueue.Waiter(Thread.currentThread(), waitStart);
            try {
                if (!queue.enqueue(w)) {
                    throw new PoolClosedException(name);
                }
                return awaitQueued(w, home, start, timeoutNanos);
            } catch (PoolTimeoutException e) {
                timedOut = true;
                throw e;
            } catch (PoolInterruptedException | PoolClosedException e) {
                throw e; // each path that throws these has left the queue and given back what it had
            } catch (Throwable t) {
                w.abandoned = true; // first, and with no call: see Waiter.abandoned
                abandon(w);
                throw t;
            } finally {
                queue.ended(w);
            }
        } finally {
            FlightRecorderEvents.waitEnded(recorded, name, timedOut);
        }
    }

    /**
     * Before a platform thread queues: up to {@link #YIELDS} yields, each followed by a look at
     * the idle stacks (see the class comment), while the timeout and the budget last and the
     * queue is not starving. A pool
     * closed meanwhile has nothing idle to find (close destroys what is idle, a release after it
     * destroys its object), and {@link #await} then throws its {@link PoolClosedException}.
     *
     * @param start when the acquire's timeout began
     * @param first when the caller began to wait: the budget counts from here
     * @return an entry the caller now holds (BORROWED), or null: then it waits in the queue
     */
    BoundedEntry yieldFor(int home, BoundedThreads.Local l, long start, long timeoutNanos, long first) {
        for (int i = 0; i < YIELDS; i++) {
            long now = i == 0 ? first : System.nanoTime();
            if (now - start >= timeoutNanos || now - first >= YIELD_NANOS || queue.starving()) {
                return null; // await throws the timeout exception, or queues and parks
            }
            pause.pause();
            BoundedEntry e = states.takeIdle(home, l);
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    private BoundedEntry awaitQueued(BoundedWaitQueue.Waiter w, int home, long start, long timeoutNanos) {
        boolean woken = false; // back from a park with nothing handed over
        boolean owesLook = false; // spent the queue's signal and has not looked since
        for (;;) {
            if (w.outcome != BoundedWaitQueue.Waiter.WAITING) {
                if (owesLook && w.outcome != BoundedWaitQueue.Waiter.CLOSED) {
                    lookForTheNext(home); // served before the look it owes: see the class comment
                }
                return served(w);
            }
            if (states.isClosed()) {
                // Closed before the look: what is idle now was idle when close() was called, or
                // was released after it, and is close's or that release's to destroy before they
                // return. A look would reserve it out of close's sweep and give it back to be
                // destroyed here, after close() returned. Leave the queue instead.
                if (queue.cancel(w)) {
                    throw new PoolClosedException(name);
                }
                return served(w); // closed, or handed an object before close: it is in use
            }
            // The waiter's half of the Dekker pair (class comment): queued or woken, look again.
            // Reserved, not borrowed: whether it keeps the entry, the cancel below decides.
            BoundedEntry found = states.reserveIdle(home);
            owesLook = false;
            if (found != null || states.tryReserve()) {
                BoundedEntry got = found != null ? found : PERMIT;
                if (queue.cancel(w)) {
                    if (found != null) {
                        BoundedStates.keep(found);
                    }
                    return got;
                }
                if (found != null && (w.outcome == BoundedWaitQueue.Waiter.CLOSED || states.isClosed())) {
                    // Closed after the pool was seen open, before the look reserved an idle
                    // object or after: close's sweep skips a RESERVED entry, so the object must
                    // not go back to be destroyed after close returned. The waiter keeps it, as
                    // an acquire that took an idle object just before close does: in use at
                    // close, destroyed at its release. What a release handed it meanwhile (an
                    // object, or a unit of capacity to create with) goes back instead: an object
                    // handed over was in use, not idle, and a unit is given back to a closed pool.
                    BoundedEntry handed = w.outcome == BoundedWaitQueue.Waiter.CLOSED ? null : served(w);
                    w.taken = true;
                    BoundedStates.keep(found);
                    if (handed != null) {
                        giveBack(handed);
                    }
                    return found;
                }
                giveBack(got); // served meanwhile as well: keep what was handed, return the other
                return served(w);
            }
            if (w.thread.isInterrupted()) {
                if (!queue.cancel(w) && w.outcome != BoundedWaitQueue.Waiter.CLOSED) {
                    giveBack(served(w));
                }
                throw new PoolInterruptedException("pool '" + name + "': interrupted while waiting "
                        + "for an object; nothing was taken, and the thread's interrupt status is still set");
            }
            long now = System.nanoTime();
            long left = timeoutNanos - (now - start);
            if (left <= 0) {
                if (queue.cancel(w)) {
                    throw timeout(timeoutNanos);
                }
                return served(w);
            }
            long toStarving = queue.thresholdFor(w) - (now - w.since);
            boolean starving = queue.starving();
            if (toStarving <= 0 && !starving) {
                queue.starve();
                continue; // Dekker with a release that read "not starving": look once more
            }
            if (woken && starving && w.virtual) {
                woken = false;
                if (queue.spendSignal(w)) {
                    owesLook = true;
                    continue; // Dekker with a release that read the mark: look once more
                }
                // Kept: while it waited for the queue's lock the mode may have ended and a mark
                // been passed on to it (a hand-off to the front it followed), and the lock's park
                // may have taken that wake-up: read everything again and look again, or it would
                // park without an alarm, marked, in normal mode, and no release would wake it.
                continue;
            }
            if (w.outcome != BoundedWaitQueue.Waiter.WAITING) {
                // Served since the loop's first line, maybe while waiting for the queue's lock
                // (spendSignal): that lock's park may have taken the hand-off's unpark, and a
                // park now would sleep to the timeout with the object handed over.
                continue;
            }
            // Wake at the threshold only to switch the mode: in starving mode there is nothing
            // to switch, and every release hands its object to the oldest waiter, so sleep until
            // served (see the class comment for a mode that ends meanwhile).
            parks.increment();
            LockSupport.parkNanos(queue, toStarving > 0 && !starving ? Math.min(left, toStarving) : left);
            woken = true;
        }
    }

    /**
     * The look a waiter owes after it spent the queue's signal, made after it was served: an
     * object it finds (reserved, so that no second release of it can win meanwhile) is not its
     * own to keep, and goes back through the release path, which hands it to the oldest waiter,
     * or makes it idle and wakes the front waiter unless that one was woken already.
     */
    private void lookForTheNext(int home) {
        if (states.isClosed()) {
            return; // what is idle is close's to destroy: see awaitQueued
        }
        BoundedEntry e = states.reserveIdle(home);
        if (e != null) {
            giveBack(e);
        }
    }

    /** Parks of queued waiters so far; for tests. */
    long parks() {
        return parks.sum();
    }

    /**
     * The caller leaves its wait by an unexpected throwable (a {@link StackOverflowError} or
     * {@link OutOfMemoryError} in a look at the idle stacks, in a park, in the queue's own code):
     * it must not stay queued, or the next hand-off would go to a thread that no longer waits
     * and its object would be lost for good; and what was handed to it and not yet taken goes
     * back. Best effort: this may fail for the same reason.
     */
    private void abandon(BoundedWaitQueue.Waiter w) {
        if (!queue.cancel(w) && !w.taken
                && (w.outcome == BoundedWaitQueue.Waiter.ENTRY || w.outcome == BoundedWaitQueue.Waiter.PERMIT)) {
            giveBack(served(w));
        }
    }

    private BoundedEntry served(BoundedWaitQueue.Waiter w) {
        w.taken = true; // the caller now holds what was handed over, or knows of the close
        switch (w.outcome) {
            case BoundedWaitQueue.Waiter.ENTRY: return w.entry;
            case BoundedWaitQueue.Waiter.PERMIT: return PERMIT;
            default: throw new PoolClosedException(name);
        }
    }

    /**
     * Returns an unwanted entry (RESERVED or BORROWED by the caller, object still in it) or
     * permit.
     */
    private void giveBack(BoundedEntry e) {
        if (e == PERMIT) {
            states.capacityBack();
        } else {
            states.publish(e, e.item, e.stamp);
        }
    }

    /**
     * After a failed validation: whether the acquire's timeout has passed (it bounds the whole
     * acquire, so idle objects that keep failing a slow validation cannot hold the caller past it).
     */
    boolean pastDeadline(long start, long timeoutNanos) {
        return System.nanoTime() - start >= timeoutNanos;
    }

    /** The exception of an acquire whose timeout passed: counted, and described. */
    PoolTimeoutException timedOut(long timeoutNanos) {
        return timeout(timeoutNanos);
    }

    /**
     * A timeout as the user would write it: in nanoseconds below a microsecond ({@code 15 ns}),
     * else in microseconds below a millisecond ({@code 500 µs}, {@code 1.5 µs}), else in
     * milliseconds ({@code 2000 ms}, {@code 1.9 ms}), with at most three decimal places and no
     * trailing zeros, so that a timeout below a millisecond never reads as {@code 0 ms}.
     */
    static String describe(long nanos) {
        if (nanos < 1_000) {
            return nanos + " ns";
        }
        return nanos < 1_000_000 ? decimals(nanos / 1e3) + " µs" : decimals(nanos / 1e6) + " ms";
    }

    private static String decimals(double v) {
        String s = String.format(java.util.Locale.ROOT, "%.3f", v);
        s = s.replaceAll("0+$", "");
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** Counts a timeout and describes it. */
    private PoolTimeoutException timeout(long timeoutNanos) {
        queue.timedOut();
        return new PoolTimeoutException("pool '" + name + "': no object became available within "
                + describe(Math.max(0, timeoutNanos)) + "; " + states.inUse() + " of maxTotal "
                + states.maxTotal + " in use, " + queue.size() + " other thread(s) waiting. Raise "
                + "maxTotal or the timeout, or look for objects held too long or never released");
    }
}
