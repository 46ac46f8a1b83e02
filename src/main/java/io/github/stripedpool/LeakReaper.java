package io.github.stripedpool;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;

/**
 * The one thread ({@value #THREAD_NAME}) that learns from the garbage collector which tracked
 * objects died, for every pool of the JVM: no thread per pool, and no work on the acquire and
 * release paths.
 *
 * <p>Every {@link LeakTracker} is registered with {@link #QUEUE}. The thread blocks on it; for
 * each tracker the collector enqueues it calls {@link LeakDetectingPool#reap}, which removes the
 * tracker from its pool's table and, if the object was never released, reports the leak. The work
 * per tracker is bounded (one table removal, at most one report); nothing is ever scanned. The
 * thread is a daemon, starts with the first leak-detecting pool and then lives as long as the
 * JVM, blocked while there is nothing to do, like the thread of {@link java.lang.ref.Cleaner}.
 */
final class LeakReaper {
    static final String THREAD_NAME = "striped-pool-leaks";

    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    private LeakReaper() {
    }

    private static final class Holder {
        static final ReferenceQueue<Object> QUEUE = new ReferenceQueue<>();

        static {
            Thread t = new Thread(LeakReaper::run, THREAD_NAME);
            t.setDaemon(true);
            t.start();
        }
    }

    /** The queue every tracker is registered with; the first call starts the thread. */
    static ReferenceQueue<Object> queue() {
        return Holder.QUEUE;
    }

    private static void run() {
        ReferenceQueue<Object> queue = Holder.QUEUE;
        for (;;) {
            Reference<?> r;
            try {
                r = queue.remove();
            } catch (InterruptedException e) {
                continue; // the thread belongs to no caller that could mean to stop it
            }
            LeakTracker t = (LeakTracker) r;
            try {
                t.pool.reap(t);
            } catch (Throwable e) {
                LOG.log(System.Logger.Level.ERROR, "leak detection of pool '" + t.pool.name()
                        + "' failed on a " + t.objectClass + "; it keeps watching other objects", e);
            }
        }
    }
}
