package io.github.stripedpool;

import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The door to the JDK Flight Recorder events of pools, for code that must keep working on a
 * runtime without the module {@code jdk.jfr} (a jlink image, or the module path without
 * {@code --add-modules jdk.jfr}): the statistics, wait and factory-failure event classes are
 * touched only here, inside a catch of {@link LinkageError} that switches events off for good at
 * the first failure. Leak events are the exception: {@link ReportDelivery} emits
 * {@link LeakEvent} itself, off the hot path, behind the same kind of catch. With no
 * recording running, each call costs a flag check and the event's own {@code isEnabled} check.
 *
 * <p>The periodic {@link PoolStatsEvent} is fed from {@link #POOLS}, a queue of weak references
 * to every pool built; Flight Recorder calls the hook only while a recording enables the event,
 * and the hook forgets pools that were collected or closed.
 */
final class FlightRecorderEvents {
    private static final ConcurrentLinkedQueue<Registered> POOLS = new ConcurrentLinkedQueue<>();

    /** Cleared for good at the first {@link LinkageError}: the runtime has no usable jdk.jfr. */
    private static volatile boolean available = true;
    /**
     * The periodic hook while any pool is registered, else null; guarded by the class monitor.
     * Flight Recorder holds it strongly, and through it this class and its class loader: it is
     * removed when the last registered pool is closed, so that the library's class loader can be
     * collected (a web application's, after undeploy).
     */
    private static Runnable hook;

    private FlightRecorderEvents() {
    }

    /** A pool, held weakly, and its mode. */
    private static final class Registered extends WeakReference<Pool<?>> {
        final boolean bounded;

        Registered(Pool<?> pool, boolean bounded) {
            super(pool);
            this.bounded = bounded;
        }
    }

    /** Lets the periodic statistics event see {@code pool}. Called once per pool, by the builder. */
    static void register(Pool<?> pool, boolean bounded) {
        if (!available) {
            return;
        }
        POOLS.add(new Registered(pool, bounded));
        addHookOnce(); // after the add: a concurrent removeHookIfIdle sees the pool, or we re-add
        if (bounded) {
            // The wait event's class loaded and set up by the recorder now, not in the first wait:
            // there it took milliseconds before the event began (JDK 25, a recording on), so the
            // event missed part of the wait, and a virtual thread waiting for the class to load
            // would pin its carrier.
            try {
                new AcquireWaitEvent().isEnabled();
            } catch (LinkageError e) {
                available = false;
            }
        }
    }

    private static synchronized void addHookOnce() {
        if (hook != null) {
            return;
        }
        Runnable h = new Runnable() { // no method reference: see ClockThread
            @Override
            public void run() {
                snapshot();
            }
        };
        try {
            jdk.jfr.FlightRecorder.addPeriodicEvent(PoolStatsEvent.class, h);
            hook = h;
        } catch (LinkageError | SecurityException e) {
            available = false;
        }
    }

    /**
     * Called by every pool at the end of {@code close()}: forgets closed and collected pools,
     * and removes the periodic hook once none is left.
     */
    static void poolClosed() {
        if (!available) {
            return;
        }
        for (Iterator<Registered> it = POOLS.iterator(); it.hasNext(); ) {
            Pool<?> p = it.next().get();
            if (p == null || p.isClosed()) {
                it.remove();
            }
        }
        if (POOLS.isEmpty()) {
            removeHookIfIdle();
        }
    }

    private static synchronized void removeHookIfIdle() {
        if (hook == null || !POOLS.isEmpty()) {
            return; // a pool registered meanwhile keeps the hook
        }
        try {
            jdk.jfr.FlightRecorder.removePeriodicEvent(hook);
        } catch (LinkageError | SecurityException e) {
            available = false;
        }
        hook = null;
    }

    /** The periodic hook: one statistics event per live pool. Runs on Flight Recorder's thread. */
    private static void snapshot() {
        for (Iterator<Registered> it = POOLS.iterator(); it.hasNext(); ) {
            Registered r = it.next();
            Pool<?> pool = r.get();
            if (pool == null || pool.isClosed()) {
                it.remove();
            } else {
                PoolStatsEvent.emit(pool.stats(), r.bounded);
            }
        }
    }

    /** Records a failed factory call; {@code failure} is null when the factory returned null. */
    static void factoryFailed(String pool, Throwable failure) {
        if (!available) {
            return;
        }
        try {
            FactoryFailureEvent.emit(pool, failure);
        } catch (LinkageError e) {
            available = false;
        } catch (Throwable e) {
            // Recording must never replace the failure the caller is about to see.
        }
    }

    /**
     * Starts timing a wait of a bounded pool. Returns a token for {@link #waitEnded}, or null
     * when no recording wants the event (the common case). The event is made before its
     * {@code isEnabled()} check, as Flight Recorder requires; once compiled, escape analysis
     * removes that allocation when the check fails, and only the interpreter makes it.
     */
    static Object waitStarted() {
        if (!available) {
            return null;
        }
        try {
            AcquireWaitEvent e = new AcquireWaitEvent();
            if (!e.isEnabled()) {
                return null;
            }
            e.begin();
            return e;
        } catch (LinkageError e) {
            available = false;
            return null;
        }
    }

    /** Ends the wait that {@link #waitStarted} began (null: nothing was recorded). */
    static void waitEnded(Object token, String pool, boolean timedOut) {
        if (token == null) {
            return;
        }
        try {
            AcquireWaitEvent e = (AcquireWaitEvent) token;
            e.end();
            if (e.shouldCommit()) {
                e.pool = pool;
                e.timedOut = timedOut;
                e.commit();
            }
        } catch (Throwable e) {
            // Recording must never replace what the wait is about to return or throw.
        }
    }
}
