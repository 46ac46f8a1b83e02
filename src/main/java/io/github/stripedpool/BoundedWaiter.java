package io.github.stripedpool;

/**
 * A thread waiting in a {@link BoundedWaitQueue}, and how its wait ended.
 *
 * <p>Concurrency. A waiter is put in the queue and taken out of it only under the queue's lock,
 * so exactly one of these happens to it: a releaser hands it an entry ({@link #ENTRY}), a
 * destroyer hands it a unit of capacity ({@link #PERMIT}), close wakes it ({@link #CLOSED}), or
 * the waiter takes itself out (timeout, interrupt, or it found an object by itself). The first
 * three write {@link #entry} and then {@link #outcome} (volatile), then unpark the thread, which
 * reads {@code outcome} and then {@code entry}.
 */
final class BoundedWaiter {
    static final int WAITING = 0;
    static final int ENTRY = 1;
    static final int PERMIT = 2;
    static final int CLOSED = 3;

    final Thread thread;
    /** {@code System.nanoTime()} when the thread queued: how long it has waited decides starvation. */
    final long since;
    /** The entry handed over, BORROWED on the waiter's behalf, holding its object in {@code item}. */
    BoundedEntry entry;
    volatile int outcome;

    BoundedWaiter(Thread thread, long since) {
        this.thread = thread;
        this.since = since;
    }
}
