package io.github.stripedpool;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Tells every live unbounded pool when a garbage collection has happened, so that pools age
 * their idle objects in step with the collector, as Go's {@code sync.Pool} does, and give them
 * back at once when the collection left the heap short ({@link HeapTrim}); every bounded pool is
 * told too, to trim if built with a threshold and to give back the places of leaked objects when
 * it has none left ({@link AfterCollection}).
 *
 * <p>Mechanism. The JVM offers libraries no hook at the start of a collection, but a
 * collection clears a weak reference to a young, otherwise unreachable object (not the young
 * cycles of generational ZGC, which process no weak references: on that collector the clock
 * also reads the count of young cycles every {@link #UNSEEN_CHECK_MILLIS} and counts a
 * collection when it moved; see docs/design.md). The
 * clock keeps one such sentinel, and one daemon thread ({@value #THREAD_NAME}, shared by every
 * pool in the JVM) blocks on the sentinel's reference queue. When the sentinel is cleared the
 * thread arms a new one and submits an aging job to each registered pool's {@link Lane}; the
 * pool ages if its own {@code agingInterval} has passed since its last cycle. The clock thread
 * itself runs no user code, so a destroy hook that blocks delays only its own pool.
 *
 * <p>Concurrency. {@link #POOLS} is a lock-free queue of weak registrations: registering
 * never blocks on the clock, and a pool that became unreachable without {@code close()} is
 * forgotten at the next collection. Registrations add to the queue and {@code close()} removes
 * from it; only the clock thread walks it to age the pools, and only it writes
 * {@link #sentinel}. A registration's {@code pending} flag is set when its aging job is queued
 * and cleared when the job ends, so a pool that is slow to age gets one job, not one per
 * collection. The thread is started by the first registration and ends when it finds no
 * registered pool left ({@link ClockThread} says why no registration is missed).
 *
 * <p>Failure. The clock's loop survives every throwable, its own allocations' and its own
 * failure report's included (the report is made in a try whose catch is empty): an
 * {@link OutOfMemoryError} while arming the sentinel leaves it unarmed, and the next turn of the
 * loop (at most {@link #IDLE_CHECK_MILLIS} later) arms it again. After a failure the loop pauses
 * briefly, so that a heap that stays full does not spin it. After each collection it also makes
 * sure the maintenance clock still has its thread ({@link MaintenanceClock#watch}).
 */
final class AgingClock {
    static final String THREAD_NAME = Background.THREAD_PREFIX + "aging";

    /**
     * How long the clock waits for a collection before it looks whether any pool is left (and
     * re-arms a sentinel that could not be armed): one second, so that the thread ends about a
     * second after the last pool closed.
     */
    static final long IDLE_CHECK_MILLIS = 1000;

    /**
     * How often the clock looks for collections its sentinel cannot see (generational ZGC's
     * young cycles, {@link HeapReadings#unseenCycles}), on a JVM that runs them: often enough
     * that a pool ages about as it does on other collectors (its default interval is a second),
     * and a heap that becomes short is trimmed within a fraction of a second.
     */
    static final long UNSEEN_CHECK_MILLIS = 100;

    private static final ReferenceQueue<Object> COLLECTIONS = new ReferenceQueue<>();
    private static final ConcurrentLinkedQueue<Registration> POOLS = new ConcurrentLinkedQueue<>();
    private static final ClockThread THREAD = new ClockThread(THREAD_NAME, new Runnable() {
        @Override
        public void run() {
            AgingClock.run(); // no method reference: see ClockThread
        }
    });
    /**
     * Set once a bounded pool scheduled maintenance: from then on this clock checks after each
     * collection that the maintenance clock still has its thread. Not before, so that a JVM with
     * no bounded pool never loads the maintenance clock here, where a full heap could fail it.
     */
    static volatile boolean watchMaintenance;
    /** Clock thread only. Strongly held so that the reference itself survives until enqueued. */
    private static Reference<Object> sentinel;
    /** Clock thread only: idle checks in a row that found the sentinel cleared ({@link #sentinelLost}). */
    private static int clearedChecks;
    /** Clock thread only: collections seen, for {@link #describe}. */
    private static long collectionsSeen;
    /** Clock thread only: the last count of {@link HeapReadings#unseenCycles}; -1 if none is kept. */
    private static long unseenCycles = -1;

    private AgingClock() {
    }

    /** A pool, held weakly, and whether an aging job of it is queued or running. */
    private static final class Registration extends WeakReference<AfterCollection> {
        final AtomicBoolean pending = new AtomicBoolean();

        Registration(AfterCollection pool) {
            super(pool);
        }
    }

    /**
     * Starts aging {@code pool} at the collections to come; starts the clock thread if none runs.
     *
     * @throws OutOfMemoryError if no thread could be started; the pool is then not registered
     */
    static void register(AfterCollection pool) {
        Registration r = new Registration(pool);
        POOLS.add(r);
        try {
            THREAD.ensureRunning();
        } catch (Throwable e) {
            POOLS.remove(r);
            throw e;
        }
    }

    static void unregister(AfterCollection pool) {
        for (Iterator<Registration> it = POOLS.iterator(); it.hasNext(); ) {
            if (it.next().get() == pool) {
                it.remove();
            }
        }
    }

    private static void run() {
        try {
            // Here, not at the first collection, which may come with the heap exhausted: see
            // HeapReadings. Done once per JVM; tried again at a collection if it failed.
            HeapReadings.AFTER_COLLECTIONS.lookUp();
        } catch (Throwable e) {
            // a StackOverflowError, say: the collections retry it
        }
        for (;;) {
            try {
                if (!tick()) {
                    return;
                }
            } catch (InterruptedException e) {
                // Nothing owns this thread but the clock, which ends it only when idle.
            } catch (Throwable e) {
                ClockThread.failed("the aging clock failed; it keeps running", e);
                try {
                    if (endIfIdle()) {
                        return; // no pool left: a failure that repeats at every collection must not keep it
                    }
                } catch (Throwable again) {
                    // the next turn looks again
                }
            }
        }
    }

    /**
     * One wait for a collection (or for {@link #IDLE_CHECK_MILLIS}), then the pools' aging if a
     * collection came. Returns false once no pool is left and the thread may end: looked at
     * every turn, since collections may come more often than the idle check.
     */
    private static boolean tick() throws InterruptedException {
        if (sentinel == null) {
            sentinel = new WeakReference<>(new Object(), COLLECTIONS);
        }
        Reference<?> cleared = COLLECTIONS.remove(unseenCycles < 0 ? IDLE_CHECK_MILLIS : UNSEEN_CHECK_MILLIS);
        if (endIfIdle()) {
            // Before any work: with no pool left, a collection is nobody's business, and the work
            // may need a class its loader can no longer load (a container closes an undeployed
            // application's class loader once its pools are closed): the thread must end anyway.
            // The Flight Recorder registry forgets the pools dropped without close() first, as
            // the collections the thread saw would have made it (its classes are loaded: every
            // build used them).
            try {
                FlightRecorderEvents.prune();
            } catch (Throwable e) {
                // forgotten at the next build's prune instead
            }
            return false;
        }
        if (cleared != null && cleared != sentinel) {
            cleared = null; // a sentinel counted already, when sentinelLost gave it up
        }
        if (cleared == null && sentinelLost()) {
            cleared = sentinel;
        }
        long unseen = HeapReadings.AFTER_COLLECTIONS.unseenCycles(cleared != null);
        boolean unseenRan = unseen > unseenCycles && unseenCycles >= 0;
        unseenCycles = unseen;
        if (cleared != null || unseenRan) {
            if (cleared != null) {
                sentinel = null; // armed again at the next turn
                clearedChecks = 0;
                // Only at a collection that cleared the sentinel: on generational ZGC the heap's
                // figures after a young cycle count the old generation as its last major cycle
                // left it, and readings every 100 ms made pools trim a heap three quarters empty.
                HeapReadings.AFTER_COLLECTIONS.record(); // before the pools' trims read it
            }
            collectionsSeen++;
            ageAll(System.nanoTime());
            if (cleared != null) {
                FlightRecorderEvents.prune(); // pools dropped without close(), as ageAll forgets them
            }
            if (watchMaintenance) {
                MaintenanceClock.watch(); // replaces the maintenance thread, should it be gone
            }
        }
        return !endIfIdle();
    }

    /**
     * Whether the sentinel was cleared by a collection but will never be seen in the queue: it
     * was cleared at two idle checks in a row (the JVM enqueues a cleared reference within
     * milliseconds) and is not in the queue. Should it reach the queue after all, {@link #tick}
     * ignores it: it is no longer the sentinel. A throwable that left {@link #tick} between the
     * queue's hand-over and {@code sentinel = null} (see {@link ClockThread} for how one can
     * pass a catch) would otherwise leave an armed-looking sentinel that no collection
     * delivers again: no pool would ever age. The collection it missed is then counted now.
     */
    private static boolean sentinelLost() {
        Reference<Object> s = sentinel;
        if (s == null || !s.refersTo(null)) {
            clearedChecks = 0;
            return false;
        }
        return ++clearedChecks >= 2;
    }

    /** The clock's state, for a test's failure report. */
    static String describe() {
        StringBuilder b = new StringBuilder("aging clock: sentinel ");
        Reference<Object> s = sentinel;
        b.append(s == null ? "unarmed" : s.refersTo(null) ? "cleared" : "armed")
                .append(", cleared checks ").append(clearedChecks);
        for (Registration r : POOLS) {
            AfterCollection p = r.get();
            b.append("; pool ").append(p == null ? "(collected)" : p.name()).append(" pending ")
                    .append(r.pending.get()).append(p == null ? "" : ", lane " + Background.lane(p).describe() + ", "
                            + p.describeAging());
        }
        return b.append("; collections seen ").append(collectionsSeen).append(", heap after the last ")
                .append(HeapReadings.AFTER_COLLECTIONS.fullness()).append("; last failure of a clock ")
                .append(ClockThread.lastFailure).append("; workers ")
                .append(Background.describeWorkers()).toString();
    }

    private static boolean endIfIdle() {
        for (Iterator<Registration> it = POOLS.iterator(); it.hasNext(); ) {
            if (it.next().get() == null) {
                it.remove();
            }
        }
        return THREAD.endIfEmpty(POOLS);
    }

    private static void ageAll(long now) {
        for (Iterator<Registration> it = POOLS.iterator(); it.hasNext(); ) {
            Registration r = it.next();
            AfterCollection pool = r.get();
            if (pool == null) {
                it.remove();
            } else if (r.pending.compareAndSet(false, true)) {
                submit(r, pool, now);
            } else if (Background.lane(pool).idle() && r.pending.get()) {
                // Flagged but neither queued nor running (the lane idle, read first, and the flag
                // still set, which a finished job clears before it leaves the lane): the job was
                // lost between the flag and the queue, where no catch of ours ran. Queue it now.
                submit(r, pool, now);
            } else {
                Background.lane(pool).retry(); // still queued: a worker may have failed to start
            }
        }
    }

    private static void submit(Registration r, AfterCollection pool, long now) {
        try {
            Background.lane(pool).submit(new Runnable() { // no lambda: see ClockThread
                @Override
                public void run() {
                    try {
                        pool.onGarbageCollection(now);
                    } finally {
                        r.pending.set(false);
                    }
                }
            }, "aging of pool '" + pool.name() + "'");
        } catch (Throwable e) {
            r.pending.set(false); // not queued: due again at the next collection
            throw e;
        }
    }
}
