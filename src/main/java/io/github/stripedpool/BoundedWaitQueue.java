package io.github.stripedpool;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The threads waiting in a {@link BoundedPool} for an object, oldest first, and the policy that
 * decides whether a release lets anyone take its object (barging) or hands it to the oldest
 * waiter (hand-off).
 *
 * <p>Two modes, after Go's {@code sync.Mutex}. In <em>normal</em> mode a release makes its
 * object idle, where any thread may take it, the releasing thread included (its next acquire
 * finds it through its hint without a lock or a wake-up), and wakes the oldest waiter to compete
 * for it, unless that waiter was already woken ({@link #frontSignalled}). A woken waiter that
 * loses keeps its place at the front and is not woken again by releases: it sleeps until it has
 * waited its threshold ({@link #starvationNanos}, 1 ms, longer for platform threads in a long
 * queue: see below), so a loop of releases and re-acquires costs no wake-up per
 * release. A waiter that has waited that long switches the queue to <em>starving</em> mode, in
 * which every release hands its object, still borrowed, directly to the oldest waiter: nothing
 * is idle for a barging thread to take. The mode ends when a hand-off empties the queue or goes
 * to a waiter that waited less than its threshold (all behind it waited less still). So a waiter
 * at the front waits at most the threshold plus the time until the next release (the hold time,
 * plus the wake-up), and the one behind it one hold time more; one release more, when the mode
 * ended while it slept without an alarm at its threshold (see {@link BoundedWaiting}).
 *
 * <p>The threshold of a long queue of platform threads ({@link #thresholdFor}). When more
 * threads want objects than the pool can serve within the threshold, every waiter waits longer
 * than it whatever the order: 64 threads on 8 objects held 50 µs wait about 1.5 ms each even
 * served strictly in order. A fixed threshold then keeps the queue starving for good, and every
 * acquisition costs a park and, on the releasing side, the wake-up of a thread that is not
 * running: two system calls and two context switches more than a release whose thread takes
 * its object straight back. On 2 cores that made such a pool 0.76x as fast as one that barges
 * (ConnectionPoolShape, 50 µs holds), and its strict order bought no bound it could keep. So a
 * platform thread's threshold, when {@link #LONG_QUEUE} or more wait, is the longer of
 * {@link #starvationNanos} and {@link #TURNS} turns of the queue in strict order (the waiters queued times the time between two hand-offs,
 * measured in starving mode only, where barging cannot shorten it), capped at
 * {@link #MAX_SCALE} times {@link #starvationNanos}: no waiter waits more than that many turns
 * of a fair queue, nor more than the cap plus one release, and between the switches releasing
 * threads take their objects back without a wake-up. With a short queue, or with a hold long
 * enough that a strict turn is longer than the cap allows, nothing changes. A virtual thread's
 * park and wake-up are no system calls, a hand-off to it costs little, and its threshold
 * stays {@link #starvationNanos}.
 *
 * <p>Invariants. {@link #queue} and {@link #closed} change only under {@link #lock};
 * {@link #size} is {@code queue.size()}, written under the lock and read without it by
 * releasers. {@link #frontSignalled} is true only while the waiter at the front has been woken
 * by a release; it is cleared, under the lock, whenever the front waiter leaves, or when that
 * waiter, a virtual thread woken while the queue starves, has looked and found nothing
 * ({@link #spendSignal}, after which that waiter looks once more, served or not, unless the
 * pool closed); and a waiter
 * that leaves while signalled, by its own cancel or by a hand-off to it, passes the signal on
 * to the new front, so a wake-up is never lost with a waiter that timed out or was served
 * otherwise (a release that saw the mark woke nobody for its object). A waiter is served (given an outcome) only while in the queue and
 * under the lock, so it is served at most once. The lock is held for a few field writes only, never
 * across user code or a park; it is a {@link ReentrantLock}, never {@code synchronized}, which
 * pins virtual threads on JDK 21 to 23.
 *
 * <p>Statistics: waits, timeouts and wait times are counted atomically when a wait ends; only
 * threads that parked pay for them.
 */
final class BoundedWaitQueue {
    /** A waiter that has waited this long makes every release hand its object over directly. */
    static final long STARVATION_NANOS = 1_000_000L;

    /**
     * How many times a first-come-first-served turn a platform thread may wait before it makes
     * releases hand their objects over, when that turn is longer than {@link #starvationNanos}:
     * see {@link #thresholdFor}.
     */
    static final int TURNS = 8;

    /** The most a platform thread's threshold grows to, in multiples of {@link #starvationNanos}. */
    static final int MAX_SCALE = 12;

    /**
     * The fewest waiters queued for a platform thread's threshold to grow. With fewer, a turn
     * longer than {@link #starvationNanos} means threads that hold objects wait for a processor
     * (4 threads on 2 objects and 2 cores: a hand-off can wait for a time slice), not a queue
     * longer than the pool serves, and barging longer would only lengthen the waits.
     */
    static final int LONG_QUEUE = 8;

    /** {@link #STARVATION_NANOS}, or another threshold for tests that race the switch. */
    final long starvationNanos;

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> queue = new ArrayDeque<>();
    private boolean closed;
    /** {@code queue.size()}; see the class comment. */
    private volatile int size;
    /** Releases hand objects to the oldest waiter rather than make them idle. */
    private volatile boolean starving;
    /** The waiter at the front has been woken and needs no other wake-up from a release. */
    private volatile boolean frontSignalled;
    /**
     * The time between two hand-offs in a row of starving mode, averaged (weight 1/8 to the
     * newest): how fast the queue moves when it is served strictly in order. Written under the
     * lock, read without it by {@link #thresholdFor}.
     */
    private volatile long handOffGap;
    /**
     * When the last hand-off of starving mode was made; 0 if the last release made none or the
     * queue emptied since. Under the lock.
     */
    private long lastHandOff;

    private final AtomicLong waits = new AtomicLong();
    private final AtomicLong timeouts = new AtomicLong();
    private final AtomicLong waitNanosTotal = new AtomicLong();
    private final AtomicLong waitNanosMax = new AtomicLong();

    BoundedWaitQueue(long starvationNanos) {
        this.starvationNanos = starvationNanos;
    }

    int size() {
        return size;
    }

    boolean starving() {
        return starving;
    }

    /** Whether the waiter at the front has been woken and not served since; for tests. */
    boolean frontSignalled() {
        return frontSignalled;
    }

    /** Switches to starving mode; by a waiter that has waited {@link #thresholdFor its threshold}. */
    void starve() {
        starving = true;
    }

    /**
     * How long {@code w} may wait before it switches the queue to starving mode. A virtual
     * thread, or a platform thread while the queue is short: {@link #starvationNanos}. A platform
     * thread while {@link #LONG_QUEUE} or more wait and the queue is so long that a turn in strict order (the waiters queued times the
     * time between two hand-offs: how long a thread that queues now waits when served in order)
     * takes longer: {@link #TURNS} such turns, at most
     * {@link #MAX_SCALE} times {@link #starvationNanos}. See the class comment for why.
     */
    long thresholdFor(Waiter w) {
        return w.virtual ? starvationNanos : threshold(starvationNanos, size, handOffGap);
    }

    /**
     * A platform thread's threshold: {@code base} while fewer than {@link #LONG_QUEUE} wait or
     * a turn in strict order ({@code queued} waiters, {@code gap} apart) is no longer, else {@link #TURNS} such turns, at most
     * {@link #MAX_SCALE} times {@code base}. Never overflows, whatever the arguments.
     */
    static long threshold(long base, int queued, long gap) {
        if (gap <= 0 || queued < LONG_QUEUE) {
            return base;
        }
        long cap = base > Long.MAX_VALUE / MAX_SCALE ? Long.MAX_VALUE : base * MAX_SCALE;
        long limit = cap / TURNS; // a turn this long or longer gets the cap
        long turn = queued > limit / gap ? limit : queued * gap;
        return turn <= base ? base : turn >= limit ? cap : turn * TURNS;
    }

    /** The averaged time between two hand-offs in a row of starving mode; 0 before two; for tests. */
    long handOffGap() {
        return handOffGap;
    }

    /** Queues {@code w} last; false if the queue was closed. */
    boolean enqueue(Waiter w) {
        // No overflow while the lock is held; and, since a wait may end with a unit of capacity
        // (a permit) that its acquire then creates with, before a unit can come: room for the
        // whole creation path, as a reservation proves it (BoundedStates.tryReserveToCreate).
        // One descent for both: the acquire creates a few frames above this one.
        StackHeadroom.ensureForCreation();
        boolean queued;
        lock.lock();
        try {
            queued = !closed;
            if (queued) {
                queue.addLast(w);
                size = queue.size();
            }
        } finally {
            lock.unlock();
        }
        // Counted either way: a wait that close ended before it could queue (a platform thread's
        // yields) is a wait too, and its time is recorded with the others (ended).
        waits.incrementAndGet();
        return queued;
    }

    /**
     * Takes {@code w} out of the queue; false if it was served (or woken by close) first. A
     * signal it had not used goes to the new front waiter. A platform front waiter that was
     * woken once (so sleeps until its threshold) is woken again if this makes its threshold
     * shorter, to set its alarm by it. A queue it empties leaves starving mode and starts the
     * next spell of hand-offs afresh ({@link #lastHandOff}).
     */
    boolean cancel(Waiter w) {
        Thread wake = null;
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            if (w.outcome != Waiter.WAITING) {
                return false;
            }
            boolean front = queue.peekFirst() == w;
            int before = queue.size();
            queue.remove(w);
            size = queue.size();
            if (front && frontSignalled) {
                frontSignalled = false;
                wake = signalLocked();
            } else if (frontSignalled && before >= LONG_QUEUE
                    && threshold(starvationNanos, size, handOffGap) < threshold(starvationNanos, before, handOffGap)) {
                // The front was woken once and lost: no release wakes it again, and it sleeps
                // until an alarm set at the threshold of the longer queue, which has just
                // shrunk: wake it to set its alarm again (an unpark before its park makes that
                // park return at once). Only then: a long queue whose threshold stays at the
                // cap pays no wake-up per cancel.
                Waiter f = liveFront();
                if (f != null && !f.virtual) {
                    wake = f.thread;
                }
            }
            if (queue.isEmpty()) {
                lastHandOff = 0; // the next hand-off follows a time with nobody queued, not a hand-off
                // Hand-offs last until the queue is empty: with nobody left to hand to, a release
                // makes its object idle again, and the next thread at the cap yields before it
                // queues, rather than parking for a hand-off as if it had waited its threshold.
                starving = false;
            }
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
        return true;
    }

    /**
     * Normal mode: wakes the oldest waiter to compete for an object just made idle, unless it was
     * woken already.
     */
    void signalFront() {
        if (frontSignalled) {
            return;
        }
        Thread wake;
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            wake = frontSignalled ? null : signalLocked();
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            LockSupport.unpark(wake);
        }
    }

    private Thread signalLocked() {
        Waiter w = liveFront();
        if (w == null) {
            return null;
        }
        frontSignalled = true;
        return w.thread;
    }

    /**
     * Called by {@code w} after a wake-up that served it nothing, once its look at the idle
     * stacks found nothing too: if the queue is starving and {@code w} is the front waiter
     * holding the signal, the signal is spent and is cleared. In starving mode a release hands
     * its object over and makes nothing idle, so the signal has nothing left to look for, and
     * kept, it would cost a wake-up per hand-off for good: the hand-off that serves {@code w}
     * would pass it to the next front ({@link #serveFront}), which would wake, find nothing,
     * sleep still holding it, and pass it on when served in turn (1,000 virtual threads on 16
     * objects: 1.9 parks per wait instead of 1.0, and about 15 % of the throughput, in the runs
     * where a signal of normal mode outlived the switch).
     *
     * <p>Only a virtual thread spends it ({@link BoundedWaiting}). Platform threads keep the signal
     * and its relay, measured: with 64 platform threads on 8 objects, 50 µs holds, 2 cores, spending it
     * made runs bimodal, half of them at 16,000 to 18,000 acquisitions per second instead of
     * 46,000 to 51,000, the queue starving a quarter of the time instead of a tenth and its
     * mode ending four times as often. There the relay keeps a front thread awake through the
     * spells of hand-offs, and the long-queue threshold ({@link #thresholdFor}, which a virtual
     * thread never gets) was tuned with it.
     *
     * @return whether the signal was cleared: the caller then owes one more look at the idle
     *         stacks, made even if it is served first (the waiter's half of a Dekker pair with a
     *         release that read "not starving" before the mode began, then the mark: see
     *         {@link BoundedWaiting})
     */
    boolean spendSignal(Waiter w) {
        if (!frontSignalled || !starving) {
            return false;
        }
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            // starving is cleared only under the lock, so the mode cannot end before the mark
            // is gone; a release of normal mode that read the mark earlier made its object idle
            // before, and the look the caller owes finds it
            if (!frontSignalled || !starving || liveFront() != w) {
                return false;
            }
            frontSignalled = false;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Hands {@code e}, which the caller owns (RESERVED or BORROWED), to the oldest waiter: it
     * becomes BORROWED on the waiter's behalf. False if nobody waits.
     */
    boolean handEntry(BoundedEntry e) {
        return serveFront(e, Waiter.ENTRY);
    }

    /** Hands a unit of capacity the caller holds to the oldest waiter; false if nobody waits. */
    boolean handPermit() {
        return serveFront(null, Waiter.PERMIT);
    }

    private boolean serveFront(BoundedEntry e, int outcome) {
        Waiter w;
        Thread passOn = null;
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            w = liveFront();
            if (w == null) {
                starving = false;
                lastHandOff = 0;
                return false;
            }
            queue.pollFirst();
            size = queue.size();
            if (frontSignalled) {
                // w was woken for an object a release made idle, and is served by this hand-off
                // instead: that object may still be idle, and a release that saw the mark woke
                // nobody else for it. The wake-up goes to the new front, as in cancel.
                frontSignalled = false;
                passOn = signalLocked();
            }
            if (e != null) {
                e.set(BoundedEntry.BORROWED);
                w.entry = e;
            }
            w.outcome = outcome;
            if (starving) {
                long now = System.nanoTime();
                if (lastHandOff != 0) {
                    long gap = handOffGap;
                    handOffGap = gap + ((now - lastHandOff - gap) >> 3);
                }
                lastHandOff = now;
                if (queue.isEmpty() || now - w.since < thresholdFor(w)) {
                    starving = false;
                    lastHandOff = 0; // the next hand-off follows a time of barging, not of hand-offs
                }
            }
        } finally {
            lock.unlock();
        }
        LockSupport.unpark(w.thread);
        if (passOn != null) {
            LockSupport.unpark(passOn);
        }
        return true;
    }

    /**
     * The oldest waiter still waiting, under the lock: drops from the front the waiters that
     * left their wait by an unexpected throwable and could not take themselves out
     * ({@link Waiter#abandoned}), so that no hand-off or wake-up goes to a thread that no longer
     * waits.
     */
    private Waiter liveFront() {
        Waiter w;
        while ((w = queue.peekFirst()) != null && w.abandoned) {
            queue.pollFirst();
            size = queue.size();
        }
        return w;
    }

    /** Closes the queue: every waiter is woken with {@link Waiter#CLOSED}, none may queue. */
    void close() {
        List<Waiter> woken;
        StackHeadroom.ensure(); // no overflow while it is held
        lock.lock();
        try {
            closed = true;
            woken = new ArrayList<>(queue);
            for (Waiter w : woken) {
                w.outcome = Waiter.CLOSED;
            }
            queue.clear();
            size = 0;
            frontSignalled = false;
            starving = false;
        } finally {
            lock.unlock();
        }
        for (Waiter w : woken) {
            LockSupport.unpark(w.thread);
        }
    }

    /** Counts an acquire that gave up with a {@link PoolTimeoutException}, queued or not. */
    void timedOut() {
        timeouts.incrementAndGet();
    }

    /**
     * Counts a wait that timed out during the yields before queueing ({@link BoundedWaiting}):
     * a wait like one in the queue, {@code waited} long, for the statistics.
     */
    void waitedWithoutQueueing(long waited) {
        waits.incrementAndGet();
        record(waited);
    }

    /** Records the length of a wait that has ended, however it ended. */
    void ended(Waiter w) {
        record(System.nanoTime() - w.since);
    }

    private void record(long waited) {
        waitNanosTotal.addAndGet(waited);
        for (long m = waitNanosMax.get(); waited > m; m = waitNanosMax.get()) {
            if (waitNanosMax.compareAndSet(m, waited)) {
                break;
            }
        }
    }

    /** The figures {@link PoolStats#bounded} takes, in its order. */
    long[] figures() {
        return new long[] {size, waits.get(), timeouts.get(), waitNanosTotal.get(), waitNanosMax.get()};
    }

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
    static final class Waiter {
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
        /** A virtual thread: its park and wake-up are no system calls, and its threshold never grows. */
        final boolean virtual;
        /** Set by the waiting thread when it takes its outcome; its own field. */
        boolean taken;
        /**
         * Set by the waiting thread as it leaves its wait by an unexpected throwable, before it
         * tries to take itself out: a {@link StackOverflowError} may stop that attempt, never
         * this write (no call), and the queue then skips the waiter ({@link #liveFront}).
         */
        volatile boolean abandoned;

        Waiter(Thread thread, long since) {
            this.thread = thread;
            this.since = since;
            this.virtual = Threads.VIRTUAL_THREADS && Threads.isVirtual(thread);
        }
    }
}
