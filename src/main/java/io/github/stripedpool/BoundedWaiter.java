package io.github.stripedpool;

/**
 * A thread waiting in a {@link BoundedPool}'s queue, and how its wait ended.
 *
 * <p>Concurrency. A waiter is put in the queue and taken out of it only under the pool's lock,
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
    /** The entry handed over, BORROWED on the waiter's behalf, holding its object in {@code item}. */
    BoundedEntry entry;
    volatile int outcome;

    BoundedWaiter(Thread thread) {
        this.thread = thread;
    }
}
