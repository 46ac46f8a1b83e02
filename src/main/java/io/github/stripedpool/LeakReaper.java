package io.github.stripedpool;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The one thread ({@value #THREAD_NAME}) that learns from the garbage collector which tracked
 * objects died, for every pool of the JVM: no thread per pool, and no work on the acquire and
 * release paths.
 *
 * <p>Every {@link LeakTracker} is registered with {@link #QUEUE}. The thread blocks on it; for
 * each tracker the collector enqueues it submits {@link LeakDetectingPool#reap} to the tracker's
 * pool's {@link Lane}, which removes the tracker from its pool's table and, if the object was
 * never released, reports the leak to the pool's listener. The thread itself runs no user code,
 * so a listener that blocks delays only its own pool's reports. If the job cannot be queued (no
 * memory), or no worker can be started to run it, the thread reaps the tracker itself (the
 * latter through the lane, so that the pool's reports still run one at a time) rather than
 * leave it.
 *
 * <p>Lifetime. The thread is started by the first leak-detecting pool and ends once it has
 * waited {@link #IDLE_CHECK_MILLIS} with nothing to do and finds no such pool that may still
 * report: none reachable, or only closed ones whose tables are empty. A tracker is held by its
 * pool's table, so the trackers of an unreachable pool are unreachable too and are never
 * enqueued; a closed pool with an empty table has nothing left to report, and an acquire that
 * raced close and tracks its object afterwards registers the pool again
 * ({@link LeakDetectingPool}: it adds the tracker, then registers; this thread drops a pool only
 * after reading its table empty). A closed pool must not keep the thread: an application that keeps its pool in a
 * static field after closing it would otherwise be kept in memory by the thread, whose code
 * is of the application's class loader when the library was deployed with it, for good
 * ({@link ClockThread} starts and ends the thread).
 * The loop survives every throwable, its own allocations' included, and pauses briefly after
 * one, so that a heap that stays full does not spin it.
 */
final class LeakReaper {
    static final String THREAD_NAME = Background.THREAD_PREFIX + "leaks";

    /** How long the thread waits for a dead object before it looks whether any pool is left. */
    static final long IDLE_CHECK_MILLIS = 1000;

    private static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();
    /** The leak-detecting pools, weakly: the thread ends when none that may report is left. */
    private static final ConcurrentLinkedQueue<WeakReference<LeakDetectingPool<?>>> POOLS =
            new ConcurrentLinkedQueue<>();
    private static final ClockThread THREAD = new ClockThread(THREAD_NAME, new Runnable() {
        @Override
        public void run() {
            LeakReaper.run(); // no method reference: see ClockThread
        }
    });

    private LeakReaper() {
    }

    /**
     * Keeps the thread running while {@code pool} is reachable; starts it if none runs.
     *
     * @throws OutOfMemoryError if no thread could be started; the pool is then not registered
     */
    static void register(LeakDetectingPool<?> pool) {
        WeakReference<LeakDetectingPool<?>> r = new WeakReference<>(pool);
        POOLS.add(r);
        try {
            THREAD.ensureRunning();
        } catch (Throwable e) {
            POOLS.remove(r);
            throw e;
        }
    }

    /** The queue every tracker is registered with. */
    static ReferenceQueue<Object> queue() {
        return QUEUE;
    }

    private static void run() {
        long pruned = System.nanoTime();
        for (;;) {
            try {
                Reference<?> r = QUEUE.remove(IDLE_CHECK_MILLIS);
                if (r != null) {
                    dispatch((LeakTracker) r);
                    if (System.nanoTime() - pruned >= IDLE_CHECK_MILLIS * 1_000_000L) {
                        prune();
                        pruned = System.nanoTime();
                    }
                } else if (endIfIdle()) {
                    return;
                }
            } catch (InterruptedException e) {
                // The thread belongs to no caller that could mean to stop it.
            } catch (Throwable e) {
                ClockThread.failed("leak detection failed on one object; it keeps watching the "
                        + "others", e);
            }
        }
    }

    private static void dispatch(LeakTracker t) {
        Lane lane;
        boolean started;
        try {
            lane = Background.lane(t.pool);
            started = lane.submit(new Runnable() { // no lambda: see ClockThread
                @Override
                public void run() {
                    t.pool.reap(t);
                }
            }, "leak detection of pool '" + t.pool.name() + "'");
        } catch (Throwable queueFailed) {
            t.pool.reap(t); // rather late on this thread than never
            return;
        }
        if (!started) {
            lane.runHere(); // no worker could be started: on this thread, rather than never
        }
    }

    /**
     * Forgets the pools that were collected, or closed with nothing tracked: at every idle
     * check, and at least every {@link #IDLE_CHECK_MILLIS} while dead objects keep the thread
     * busy, so that an application that builds pools over and over never grows the list.
     */
    private static void prune() {
        for (Iterator<WeakReference<LeakDetectingPool<?>>> it = POOLS.iterator(); it.hasNext(); ) {
            LeakDetectingPool<?> p = it.next().get();
            if (p == null || p.isClosed() && p.nothingTracked()) {
                it.remove();
            }
        }
    }

    private static boolean endIfIdle() {
        prune();
        return THREAD.endIfEmpty(POOLS);
    }
}
