package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.security.AccessController;
import java.security.PrivilegedAction;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The threads on which the library runs work of its own: the clocks that watch the garbage
 * collector, the timer, the leak queue, and the workers that run each pool's background jobs
 * (aging, eviction, refill, leak reports), which may call the pool's hooks and listeners.
 *
 * <p>Design. Clock threads never run user code: they only decide that a job is due and hand it
 * to the job's pool's {@link Lane}. A lane runs one pool's jobs one at a time, in submission
 * order, on a worker taken from a shared cached set. So a hook that blocks in pool A holds one
 * worker and stalls only A's lane; pool B's next job starts on another worker after at most the
 * time it takes to start a thread. Workers have no core size and end after
 * {@link #WORKER_KEEP_ALIVE_SECONDS} idle, so the library keeps no worker thread while no job
 * runs; the clocks end when no pool needs them (see each clock).
 *
 * <p>Threads are made clean, because they outlive the call that started them: daemon, no
 * context class loader, no inherited thread-locals, and (up to JDK 23) no inherited access
 * control context. An application server's web application that built the first pool must not
 * be pinned in memory by these threads after it is undeployed.
 *
 * <p>Concurrency. {@link #lanes} is a synchronized weak map from a pool to its lane: a pool
 * that becomes unreachable loses its lane with it. The map's monitor is held only for the
 * lookup, never while a job runs.
 */
final class Background {
    /** Prefix of the names of every thread the library starts. */
    static final String THREAD_PREFIX = "striped-pool-";

    /** Name of the threads that run pools' jobs (hooks and listeners may run there). */
    static final String WORKER_NAME = THREAD_PREFIX + "worker";

    /**
     * How long an idle worker waits for a next job before it ends: long enough that a pool
     * aging every second or evicting every few seconds keeps its worker, short enough that a
     * JVM with no pool left has no worker a few seconds later.
     */
    static final long WORKER_KEEP_ALIVE_SECONDS = 5;

    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    static {
        // Sets the logging back-end up now, while there is memory: one whose first use fell in
        // a moment of heap exhaustion can fail for good, and the reports of that moment are
        // the ones that matter.
        LOG.isLoggable(System.Logger.Level.ERROR);
    }

    /** Cached: a new worker whenever every existing one is busy; none kept while idle. */
    private static final Workers WORKERS = new Workers(WORKER_NAME, WORKER_KEEP_ALIVE_SECONDS);

    private static final Map<Object, Lane> lanes = Collections.synchronizedMap(new WeakHashMap<>());

    private Background() {
    }

    /**
     * The lane of {@code pool}: every background job of one pool goes through it, so that two of
     * them never run at once and a slow one delays only its own pool.
     */
    static Lane lane(Object pool) {
        synchronized (lanes) { // the synchronized map's own monitor; no lambda: see ClockThread
            Lane lane = lanes.get(pool);
            if (lane == null) {
                lane = new Lane();
                lanes.put(pool, lane);
            }
            return lane;
        }
    }

    /** Runs {@code job} on a worker. Used by {@link Lane}; throws if no thread could be had. */
    static void startWorker(Runnable job) {
        WORKERS.execute(job);
    }

    /**
     * Initialises, on the calling thread (one that builds a pool), every class of the library
     * with a static initialiser that the background work, or a thread's first acquire or
     * release, could otherwise be the first to use.
     * A class whose initialiser fails once (an {@link OutOfMemoryError} while the heap is
     * exhausted) fails every later use with {@link NoClassDefFoundError}, so a class first
     * initialised by a worker at such a moment would stop that work for good; the first leak
     * report once stopped every leak report of the JVM that way. {@code BackgroundClassInitTest}
     * finds any class missing here.
     */
    static void prepare() {
        MethodHandles.Lookup lookup = MethodHandles.lookup();
        try {
            lookup.ensureInitialized(UserHooks.class);
            lookup.ensureInitialized(LeakReport.Kind.class);
            lookup.ensureInitialized(ReportDelivery.class);
            lookup.ensureInitialized(HeapReadings.class); // the aging clock records into it
            lookup.ensureInitialized(HeapTrim.class); // and reads the heap's fullness through it
            // And those that acquire and release use, first at a thread's first call: a
            // thread deep in its stack could otherwise be the first, overflow inside the
            // initialiser, and leave the class unusable to every pool. The list is every class
            // of the package with a static initialiser (javap shows them as "static {}");
            // StackLimitTest's walk in a new JVM finds one missing from an unbounded pool's
            // paths, not from a bounded pool's, whose acquire it does not walk.
            for (Class<?> c : new Class<?>[] {Threads.class, CallSite.class, PrivateSlot.class, Stripe.class,
                    Counts.class, LeakSettings.class, LeakTable.class, LeakTracker.class, LeakReaper.class,
                    BoundedEntry.class, BoundedEntryTable.class, BoundedIndex.class, BoundedThreads.class,
                    BoundedWaiting.class, BoundedMaintenance.class, MaintenanceClock.class,
                    MaintenanceClock.Periodic.class, UnboundedAging.class, AgingClock.class, Lane.class}) {
                lookup.ensureInitialized(c);
            }
        } catch (IllegalAccessException e) {
            throw new AssertionError("a class of the library's own package", e);
        }
        // LeakEvent is not among them: FlightRecorderEvents initialises it when Flight Recorder
        // starts, and no leak report touches it before.
        // The JDK's per-thread random numbers, which the pools draw from (a stripe to start at).
        ThreadLocalRandom.current();
        if (!timePrepared) {
            // The JDK's time classes, for the same reason: a leak report's times (Instant,
            // Duration), their text, and the time zone a log line is printed in. Once a worker's
            // first leak report failed to initialise java.time.Instant while the heap was
            // exhausted, and no leak was reported again.
            Instant now = Instant.now();
            ZonedDateTime local = ZonedDateTime.ofInstant(now, ZoneId.systemDefault());
            // The date fields a log line's default format prints (java.util.logging's).
            String text = now.toString() + Duration.ofNanos(1) + local
                    + String.format("%1$tb %1$td, %1$tY %1$tl:%1$tM:%1$tS.%1$tL %1$Tp %1$tZ", local);
            timePrepared = !text.isEmpty();
        }
    }

    /** Set once {@link #prepare} has initialised the JDK's time classes; a race only repeats it. */
    private static volatile boolean timePrepared;

    /** The shared workers, for a test's failure report. */
    static String describeWorkers() {
        return WORKERS.describe();
    }

    /**
     * A daemon thread with no context class loader and no inherited thread-locals, made inside a
     * privileged block so that (up to JDK 23) it inherits no caller's access control context
     * either: every protection domain of such a context holds its class loader.
     */
    @SuppressWarnings("removal") // AccessController: the only way to drop the context on JDK 17
    static Thread newThread(Runnable body, String name) {
        PrivilegedAction<Thread> make = new PrivilegedAction<Thread>() { // no lambda: see ClockThread
            @Override
            public Thread run() {
                Thread t = new Thread(null, body, name, 0, false);
                t.setDaemon(true);
                t.setContextClassLoader(null);
                return t;
            }
        };
        return AccessController.doPrivileged(make);
    }

    /**
     * Logs a failure of the library's own background work. Never throws: it is called from
     * loops that must survive anything, including an {@link OutOfMemoryError} while logging.
     */
    static void logFailure(String message, Throwable failure) {
        try {
            LOG.log(System.Logger.Level.ERROR, message, failure);
        } catch (Throwable ignored) {
            // Nothing left to report with; the loop that called goes on.
        }
    }
}
