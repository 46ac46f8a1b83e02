package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The door to the JDK Flight Recorder events of pools, for code that must keep working on a
 * runtime without the module {@code jdk.jfr} (a jlink image, or the module path without
 * {@code --add-modules jdk.jfr}): the statistics, wait and factory-failure event classes are
 * touched only here, and every use of Flight Recorder is inside a catch: without jdk.jfr
 * nothing of it is touched again ({@link #available}), an event class that fails switches the
 * events off for good ({@link #eventsBroken}), and no failure reaches a pool's caller, a
 * build or Flight Recorder's start. Leak events are the exception: {@link ReportDelivery}
 * emits {@link LeakEvent} itself, off the hot path, behind the same kind of catch, once
 * {@link #recording()} says Flight Recorder is up.
 *
 * <p>No event class is touched before Flight Recorder is initialised in the JVM (a recording
 * started by {@code -XX:StartFlightRecording}, {@code jcmd JFR.start}, Mission Control or the
 * {@code jdk.jfr} API): the first use of an event class, or the registration of a periodic
 * event, loads and sets up Flight Recorder's metadata, which took about 180 ms of a JVM's
 * first {@code build()} (JDK 17, this library's own events unused). Until then no event could
 * be recorded anyway: every event needs a recording, and a recording needs Flight Recorder
 * initialised. A {@link jdk.jfr.FlightRecorderListener} registered while any pool is
 * registered hears of the initialisation (at once, if it happened already) and only then sets
 * up the events and the periodic hook; an event's own path, and the builder before it makes a
 * pool, ask Flight Recorder whether it is initialised as long as the events are not set up,
 * and set them up themselves if the listener has not ({@link #recording()}): so no event is
 * lost between the initialisation and the listener's call, nor where no listener was
 * registered (a pool made without the builder).
 *
 * <p>The periodic {@link PoolStatsEvent} is fed from {@link #POOLS}, a queue of weak references
 * to every pool built; Flight Recorder calls the hook only while a recording enables the event,
 * and the hook forgets pools that were collected or closed.
 *
 * <p>Concurrency. {@link #recorderUp} goes from false to true once, after the event classes
 * are set up. A pool registers by adding itself to {@link #POOLS} and then reading
 * {@code recorderUp}; the listener sets {@code recorderUp} and then reads {@code POOLS}: both
 * volatile accesses, so at least one of them sees the other, and a pool registered while
 * Flight Recorder comes up gets the periodic hook from one side or the other (installing it
 * twice is harmless: {@link #addHookOnce} does it once). Flight Recorder and its listeners hold
 * the JVM's listener lock when they call ours, so the lock order is {@link #LISTENING} (held
 * around adding and removing the listener), then Flight Recorder's, then this class's monitor
 * (the hook), then Flight Recorder's event registry: nothing of ours is taken in the other
 * order. Flight Recorder and every listener hold the library's class loader (a web
 * application's) strongly: both are removed once the last registered pool is closed.
 */
final class FlightRecorderEvents {
    private static final ConcurrentLinkedQueue<Registered> POOLS = new ConcurrentLinkedQueue<>();

    /**
     * Cleared for good when Flight Recorder's own classes cannot be used: the runtime has no
     * usable jdk.jfr (no such module, or a security manager that refuses it).
     */
    private static volatile boolean available = true;
    /** Set once Flight Recorder is initialised and the event classes are set up; never cleared. */
    private static volatile boolean recorderUp;
    /**
     * Set when setting the events up failed (out of memory, say); cleared by the next
     * {@link #beforeBuild}, which tries again, as every build did when events were set up
     * eagerly. Until then no event path tries: each would fail the same way.
     */
    private static volatile boolean setUpFailed;
    /**
     * Set for good when an event class failed at its use: a class whose initialiser failed
     * stays unusable, and each later use would throw again.
     */
    private static volatile boolean eventsBroken;
    /** Set at the first failure logged: the log says it once, not at every event. */
    private static volatile boolean failureLogged;
    /**
     * The periodic hook while any pool is registered and Flight Recorder is up, else null;
     * guarded by the class monitor.
     * Flight Recorder holds it strongly, and through it this class and its class loader: it is
     * removed when the last registered pool is closed, so that the library's class loader can be
     * collected (a web application's, after undeploy).
     */
    private static Runnable hook;
    /** Guards {@link #listener}; held while Flight Recorder's listener lock is taken. */
    private static final Object LISTENING = new Object();
    /**
     * The listener registered with Flight Recorder, or null; guarded by {@link #LISTENING}.
     * Typed {@code Object}, so that nothing of {@code jdk.jfr} is loaded before it is made.
     */
    private static Object listener;

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

    /**
     * Sets the events up if Flight Recorder is initialised and they are not (a failed set-up is
     * tried again). Called by the builder before it makes the pool, so that a worker's first
     * event (a refill's factory failure) finds them set up, and on the builder's thread.
     */
    static void beforeBuild() {
        if (!recorderUp && available) {
            setUpFailed = false;
            recording();
        }
    }

    /** Lets the periodic statistics event see {@code pool}. Called once per pool, by the builder. */
    static void register(Pool<?> pool, boolean bounded) {
        if (!available) {
            return;
        }
        POOLS.add(new Registered(pool, bounded));
        pruneNowAndThen();
        if (!recorderUp) {
            listen(); // after the add: see the class comment
        }
        if (recording()) {
            addHookOnce(); // after the add: a concurrent removeHookIfIdle sees the pool, or we re-add
        }
    }

    /**
     * Whether Flight Recorder is initialised in this JVM and the library's events are set up:
     * until then no event can be recorded, and no event class is touched. Asks Flight Recorder
     * itself until the events are set up, and sets them up if the listener has not yet: so
     * that events never depend on a listener being registered (a pool made without the builder
     * registers none) nor on its having run (it runs after Flight Recorder says it is
     * initialised). A static read while Flight Recorder is not initialised.
     */
    static boolean recording() {
        if (recorderUp) {
            return !eventsBroken;
        }
        if (!available || setUpFailed || eventsBroken) {
            return false;
        }
        try {
            if (!RecorderStart.initialized()) {
                return false;
            }
        } catch (LinkageError | SecurityException e) {
            available = false;
            return false;
        }
        recorderStarted();
        return recorderUp && !eventsBroken;
    }

    /** Whether the runtime has a usable jdk.jfr, as far as the library has seen. */
    static boolean available() {
        return available;
    }

    /** Registers the listener unless it is registered; Flight Recorder may call it at once. */
    private static void listen() {
        synchronized (LISTENING) {
            if (listener != null) {
                return;
            }
            try {
                listener = RecorderStart.add(); // no jdk.jfr: NoClassDefFoundError
            } catch (LinkageError | SecurityException e) {
                available = false;
            }
        }
    }

    /** Removes the listener once no pool is registered, so that it holds no class loader. */
    private static void stopListeningIfIdle() {
        synchronized (LISTENING) {
            if (listener == null || !POOLS.isEmpty()) {
                return; // a pool registered meanwhile keeps it
            }
            try {
                RecorderStart.remove(listener);
            } catch (Throwable e) {
                failed("removing the listener", e);
            }
            listener = null;
        }
    }

    /**
     * Hears that Flight Recorder is initialised. Every use of a {@code jdk.jfr} type as such is
     * in here: the verifier of a class that passes this one where a
     * {@code FlightRecorderListener} is expected loads that interface, so without jdk.jfr
     * {@link FlightRecorderEvents} itself would fail to load, not only this class.
     */
    private static final class RecorderStart implements jdk.jfr.FlightRecorderListener {
        /** Registers a new listener; Flight Recorder runs it at once if it is up already. */
        static Object add() {
            RecorderStart l = new RecorderStart();
            jdk.jfr.FlightRecorder.addListener(l);
            return l;
        }

        static boolean initialized() {
            return jdk.jfr.FlightRecorder.isInitialized();
        }

        static void remove(Object listener) {
            jdk.jfr.FlightRecorder.removeListener((RecorderStart) listener);
        }

        @Override
        public void recorderInitialized(jdk.jfr.FlightRecorder recorder) {
            recorderStarted();
        }
    }

    /**
     * Sets up the events once Flight Recorder is initialised: from the listener, on the thread
     * that initialised it (or that registered the listener after that), holding Flight
     * Recorder's listener lock; or from {@link #recording()}, on the thread of an event, holding
     * no lock. Idempotent, and a race only repeats it. Never throws: a failure here must not keep
     * Flight Recorder from starting, nor reach an acquire; it switches events off for good.
     */
    private static void recorderStarted() {
        if (recorderUp || eventsBroken) {
            return;
        }
        try {
            // Loaded and set up by the recorder now, not in a first wait: there it took
            // milliseconds before the event began (JDK 25, a recording on), so the event missed
            // part of the wait, and a virtual thread waiting for the class to load would pin
            // its carrier.
            new AcquireWaitEvent().isEnabled();
            // And the leak event: a class whose initialiser fails once (out of memory in a full
            // heap, in a worker's first leak report) fails every later use.
            MethodHandles.lookup().ensureInitialized(LeakEvent.class);
        } catch (Throwable e) {
            setUpFailed = true;
            failed("setting them up", e);
            return;
        }
        recorderUp = true;
        if (!POOLS.isEmpty()) {
            addHookOnce(); // after recorderUp: see the class comment
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
        } catch (Throwable e) {
            // No statistics events; the next registration tries again. Never thrown: it
            // would fail a build, or Flight Recorder's start.
            failed("registering the statistics event", e);
        }
    }

    /** Logs the first failure of the library's events; never throws. */
    private static void failed(String what, Throwable e) {
        if (!failureLogged) {
            failureLogged = true;
            Background.logFailure("pool events may not be recorded for Flight Recorder: " + what
                    + " failed (logged once)", e);
        }
    }

    /** Registrations since the last prune of {@link #POOLS}, and how many that prune kept. */
    private static final AtomicInteger ADDED_SINCE_PRUNE = new AtomicInteger();
    private static volatile int keptAtPrune;

    /**
     * Forgets collected and closed pools once the registrations since the last prune outnumber
     * what that prune kept (at least 64), so that pools built and dropped without
     * {@code close()} (a Jackson factory's, say) faster than collections come do not pile up.
     * Amortised, each registration pays for a constant share of a walk.
     */
    private static void pruneNowAndThen() {
        if (ADDED_SINCE_PRUNE.incrementAndGet() > Math.max(64, keptAtPrune)) {
            ADDED_SINCE_PRUNE.set(0);
            keptAtPrune = prune();
        }
    }

    /**
     * Forgets collected and closed pools; returns how many are left. Called by the aging clock
     * after each collection it sees (a pool dropped without {@code close()} is forgotten then, as
     * the clock forgets it), and now and then by {@link #register}; without either, such pools
     * were forgotten only while a recording ran.
     */
    static int prune() {
        int kept = 0;
        for (Iterator<Registered> it = POOLS.iterator(); it.hasNext(); ) {
            Pool<?> p = it.next().get();
            if (p == null || p.isClosed()) {
                it.remove();
            } else {
                kept++;
            }
        }
        return kept;
    }

    /**
     * Called by every pool at the end of {@code close()}: forgets closed and collected pools,
     * and removes the periodic hook once none is left.
     */
    static void poolClosed() {
        // Even once events are off: a listener or hook registered before must still go.
        for (Iterator<Registered> it = POOLS.iterator(); it.hasNext(); ) {
            Pool<?> p = it.next().get();
            if (p == null || p.isClosed()) {
                it.remove();
            }
        }
        if (POOLS.isEmpty()) {
            removeHookIfIdle();
            stopListeningIfIdle();
        }
    }

    private static synchronized void removeHookIfIdle() {
        if (hook == null || !POOLS.isEmpty()) {
            return; // a pool registered meanwhile keeps the hook
        }
        try {
            jdk.jfr.FlightRecorder.removePeriodicEvent(hook);
        } catch (Throwable e) {
            failed("removing the statistics event", e);
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
        if (!recording()) {
            return;
        }
        try {
            FactoryFailureEvent.emit(pool, failure);
        } catch (LinkageError e) {
            eventsBroken = true;
            failed("the factory failure event", e);
        } catch (Throwable e) {
            // Recording must never replace the failure the caller is about to see.
        }
    }

    /**
     * Starts timing a wait of a bounded pool. Returns a token for {@link #waitEnded}, or null
     * when no recording wants the event (the common case; with Flight Recorder not initialised,
     * without touching the event class). The event is made before its
     * {@code isEnabled()} check, as Flight Recorder requires; once compiled, escape analysis
     * removes that allocation when the check fails, and only the interpreter makes it.
     */
    static Object waitStarted() {
        if (!recording()) {
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
            eventsBroken = true;
            failed("the wait event", e);
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
