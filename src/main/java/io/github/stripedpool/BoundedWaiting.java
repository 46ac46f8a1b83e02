package io.github.stripedpool;

import java.util.concurrent.locks.LockSupport;

/**
 * The wait of an acquirer of a {@link BoundedPool} that found nothing idle and no capacity left:
 * queue in the {@link BoundedWaitQueue}, park, and leave with an entry or a permit to create,
 * or with a timeout, an interrupt or the pool's close. Parks only, never spins and never waits
 * on a monitor, so that a waiting virtual thread frees its carrier.
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

    BoundedWaiting(BoundedStates states, BoundedWaitQueue queue) {
        this.states = states;
        this.queue = queue;
        this.name = states.name;
    }

    /**
     * Queues the caller and parks until it is handed an entry or a permit, finds one itself, or
     * gives up. Parks at most until it has waited the starvation threshold,
     * then switches the queue to starving mode (see {@link BoundedWaitQueue}).
     *
     * @return a BORROWED entry that is now the caller's, or {@link #PERMIT}
     */
    BoundedEntry await(int home, long start, long timeoutNanos) {
        long now = System.nanoTime();
        if (timeoutNanos - (now - start) <= 0) {
            throw timeout(timeoutNanos);
        }
        BoundedWaitQueue.Waiter w = new BoundedWaitQueue.Waiter(Thread.currentThread(), now);
        if (!queue.enqueue(w)) {
            throw new PoolClosedException(name);
        }
        Object recorded = FlightRecorderEvents.waitStarted();
        boolean timedOut = false;
        try {
            return awaitQueued(w, home, start, timeoutNanos);
        } catch (PoolTimeoutException e) {
            timedOut = true;
            throw e;
        } finally {
            queue.ended(w);
            FlightRecorderEvents.waitEnded(recorded, name, timedOut);
        }
    }

    private BoundedEntry awaitQueued(BoundedWaitQueue.Waiter w, int home, long start, long timeoutNanos) {
        for (;;) {
            if (w.outcome != BoundedWaitQueue.Waiter.WAITING) {
                return served(w);
            }
            // The waiter's half of the Dekker pair (class comment): queued or woken, look again.
            BoundedEntry found = states.takeIdle(home, null);
            if (found != null || states.tryReserve()) {
                BoundedEntry got = found != null ? found : PERMIT;
                if (queue.cancel(w)) {
                    return got;
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
            long toStarving = queue.starvationNanos - (now - w.since);
            if (toStarving <= 0 && !queue.starving()) {
                queue.starve();
                continue; // Dekker with a release that read "not starving": look once more
            }
            LockSupport.parkNanos(queue, toStarving > 0 ? Math.min(left, toStarving) : left);
        }
    }

    private BoundedEntry served(BoundedWaitQueue.Waiter w) {
        switch (w.outcome) {
            case BoundedWaitQueue.Waiter.ENTRY: return w.entry;
            case BoundedWaitQueue.Waiter.PERMIT: return PERMIT;
            default: throw new PoolClosedException(name);
        }
    }

    /** Returns an unwanted entry (BORROWED by the caller, object still in it) or permit. */
    private void giveBack(BoundedEntry e) {
        if (e == PERMIT) {
            states.capacityBack();
        } else {
            states.publish(e, e.item, e.stamp);
        }
    }

    /**
     * After a failed validation: the timeout bounds the whole acquire, so idle objects that keep
     * failing a slow validation cannot hold the caller past it.
     */
    void checkDeadline(long start, long timeoutNanos) {
        if (System.nanoTime() - start >= timeoutNanos) {
            throw timeout(timeoutNanos);
        }
    }

    /** Counts a timeout and describes it. */
    private PoolTimeoutException timeout(long timeoutNanos) {
        queue.timedOut();
        return new PoolTimeoutException("pool '" + name + "': no object became available within "
                + Math.max(0, timeoutNanos) / 1_000_000 + " ms; " + states.inUse() + " of maxTotal "
                + states.maxTotal + " in use, " + queue.size() + " other thread(s) waiting. Raise "
                + "maxTotal or the timeout, or look for objects held too long or never released");
    }
}
