package io.github.stripedpool;

import java.time.Duration;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Runs the paths of a pool's everyday operations once, on throwaway pools of each engine, when
 * the first pool of the JVM is built, so that none of them first runs when the heap is
 * exhausted.
 *
 * <p>Why. A path that runs for the first time sets itself up: the JVM links each
 * {@code VarHandle} call site on its first execution and loads the classes it names, and both
 * allocate. A release, or the acquisition of an idle object, needs no memory of its own, so a
 * service may well run them while its heap is full; if one of them is the first in the JVM, it
 * can run out of memory halfway through the operation. Seen in a child JVM with a 32 MiB heap
 * ({@code ColdPathsApp}, {@code HeapExhaustionTest}): every first release and acquisition of a
 * bounded pool ran out of memory, and a release whose push onto an idle stack failed after the
 * entry was made IDLE left the entry in no stack, never handed out again (a unit of maxTotal lost
 * for good); the unbounded pool's first releases and acquisitions ran out of memory too. Building
 * a pool allocates anyway: out of memory there fails the build, and loses nothing. (Classes with
 * a static initialiser are initialised by {@link Background#prepare}; this links what they run.)
 *
 * <p>What. On the building thread, once per JVM (two first builds at once may both run it,
 * harmlessly). A platform thread's private tier and a virtual thread's hint slots are different
 * paths (built on a platform thread, a virtual thread's first acquisitions ran out of memory in
 * a full heap; built on a virtual thread, a platform thread's first releases lost the unbounded
 * pool's objects): the virtual paths are called directly, whatever the builder's kind (a call
 * site is linked once, by any thread), and a virtual builder has a platform thread take the
 * platform paths. No virtual thread is started: in an application that uses none, one would
 * start the JDK's carrier and timer threads, and it could wait for a carrier for as long as
 * every carrier is busy or pinned (a build inside a class initialiser that request handlers on
 * virtual threads wait for, found by review: 10 s). The bounded engine: creations, releases
 * through the thread's hint and through the index, pushes and pops of the idle stacks (a stale
 * entry too), validation, reset and destroy hooks (no-ops), an invalidation that frees an entry
 * and gives its capacity back, a wait that times out in the queue (about 50 µs), the queue's
 * hand-off and wake-up with nobody waiting, a virtual thread's acquisitions (from the idle
 * stacks, then through its hint slot). The unbounded engine, without hooks and with reset and
 * destroy hooks (its plain and exact paths): creations, the private slot, its spare entries
 * and the stripes, each put and taken, the fast paths, an invalidation, a virtual thread's
 * acquisition and release through its stripe. Then
 * statistics and close. All of it with no leak detection and with the level of the pool being
 * built. The throwaway pools read no system property (a bad value there must fail only the
 * builds that use it). Not rehearsed: other levels of leak detection, objects held too long,
 * maintenance and aging (their own threads, see {@link Background}), stealing, and hand-offs to
 * a waiting thread. The throwaway pools run no maintenance, are registered nowhere and are
 * closed before the build goes on; nothing of them stays reachable. A Flight Recorder recording
 * with a threshold of 0 for the wait event shows the timed-out wait, of the pool named
 * {@value #POOL_NAME}; a virtual builder's rehearsal runs on a platform thread named
 * {@value #THREAD_NAME}, gone a few milliseconds later.
 */
final class Rehearsal {
    /** The platform thread that rehearses when the first build runs on a virtual thread. */
    static final String THREAD_NAME = "striped-pool-rehearsal";
    /** How long a virtual builder waits for the rehearsal on a platform thread. */
    private static final long OTHER_THREAD_MILLIS = 10_000;
    private static final String POOL_NAME = "io.github.stripedpool.Rehearsal";

    private static volatile boolean done;

    private Rehearsal() {
    }

    /**
     * Rehearses unless done: from {@link PoolBuilder#build}, before the pool is built.
     *
     * @param leaks the settings of the pool being built: its level of leak detection is
     *        rehearsed too (the throwaway pools never read the system properties themselves,
     *        so a bad value there fails only the builds that use it)
     */
    static void ensure(LeakSettings leaks) {
        if (!done) {
            run(leaks);
            done = true;
        }
    }

    /**
     * Rehearses now, done or not (for tests), on the calling thread: its own kind's paths, and
     * the virtual paths called directly (a call site is linked once, whatever the kind of the
     * thread that runs it). A virtual builder cannot take a platform thread's paths (its private
     * tier): on JDK 21+ they run on a platform thread, which the builder waits for, at most
     * {@link #OTHER_THREAD_MILLIS} and not past an interrupt; a thread that cannot be started is
     * skipped. Each with no leak detection and with the level of {@code leaks}. An interrupt of
     * the building thread is held back meanwhile, so that the wait's path is rehearsed whole,
     * and set again afterwards; one that comes during the rehearsal ends its wait early and
     * stays set.
     */
    static void run(LeakSettings leaks) {
        boolean interrupted = Thread.interrupted();
        try {
            everything(leaks);
            if (Threads.VIRTUAL_THREADS && Threads.isVirtual(Thread.currentThread())) {
                interrupted |= onAPlatformThread(leaks);
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Every rehearsal, with no leak detection and with {@code leaks}'s level. */
    private static void everything(LeakSettings leaks) {
        bounded(LeakSettings.DISABLED);
        unbounded(LeakSettings.DISABLED, false);
        unbounded(LeakSettings.DISABLED, true);
        if (leaks.level != LeakDetection.DISABLED) {
            bounded(leaks);
            unbounded(leaks, false);
            unbounded(leaks, true);
        }
    }

    /**
     * Rehearses on a new platform thread, for a virtual builder; true if interrupted meanwhile
     * (the wait then ends). Best effort: a thread that cannot be started, or a rehearsal that
     * fails there, leaves those paths to be set up at their first use, as without this.
     */
    private static boolean onAPlatformThread(final LeakSettings leaks) {
        Runnable body = new Runnable() { // no lambda: see ClockThread
            @Override
            public void run() {
                try {
                    everything(leaks);
                } catch (Throwable best) {
                    // best effort: see above
                }
            }
        };
        Thread t;
        try {
            t = Background.newThread(body, THREAD_NAME);
            t.start();
        } catch (Throwable noThread) {
            return false;
        }
        long deadline = System.nanoTime() + OTHER_THREAD_MILLIS * 1_000_000L;
        for (long left; t.isAlive() && (left = deadline - System.nanoTime()) > 0; ) {
            try {
                t.join(Math.max(1, left / 1_000_000L));
            } catch (InterruptedException e) {
                return true;
            }
        }
        return false;
    }

    private static final ObjectFactory<Object> FACTORY = new ObjectFactory<Object>() {
        @Override
        public Object create() {
            return new Object();
        }
    };

    private static final Consumer<Object> NOTHING = new Consumer<Object>() {
        @Override
        public void accept(Object x) {
            // a hook that does nothing: its call is what is rehearsed
        }
    };

    private static final Predicate<Object> VALID = new Predicate<Object>() {
        @Override
        public boolean test(Object x) {
            return true;
        }
    };

    /** The builder for a throwaway pool: the level of {@code leaks}, never a system property. */
    private static PoolBuilder<Object> builder(LeakSettings leaks) {
        PoolBuilder<Object> b = Pool.builder(FACTORY).leakDetection(leaks.level);
        if (leaks.level == LeakDetection.SAMPLED) {
            b.leakSamplingInterval(leaks.interval);
        }
        return b;
    }

    private static void bounded(LeakSettings leaks) {
        PoolSettings<Object> settings = builder(leaks).maxTotal(2).validate(VALID).reset(NOTHING)
                .destroy(NOTHING).settings(POOL_NAME);
        BoundedPool<Object> engine = BoundedPool.unstarted(settings);
        Pool<Object> p = settings.leaks.wrap(engine);
        try {
            Object a = p.acquire(Duration.ZERO); // creations
            Object b = p.acquire(Duration.ZERO);
            p.release(b); // through the hint: pushed
            p.release(a); // through the index: pushed on top
            b = p.acquire(Duration.ZERO); // through the hint, b still in its stack
            a = p.acquire(Duration.ZERO); // a popped from the stack
            try {
                p.acquire(Duration.ofNanos(50_000)); // b popped stale, nothing idle: queued, timed out
            } catch (PoolTimeoutException | PoolInterruptedException expected) {
                // the path is the point; an interrupt sent meanwhile stays set
            }
            p.invalidate(a); // destroyed, its entry freed, its capacity back
            a = p.acquire(Duration.ZERO); // a new object in the freed entry
            p.release(a);
            p.release(b);
            engine.rehearseQueue();
            engine.rehearseVirtualPaths(); // a and b idle, none in use
            p.stats();
        } finally {
            p.close(); // destroys both
        }
    }

    private static void unbounded(LeakSettings leaks, boolean hooks) {
        PoolBuilder<Object> b = builder(leaks).maxIdle(4 * PrivateSlot.SPARES);
        if (hooks) {
            b.reset(NOTHING).destroy(NOTHING);
        }
        PoolSettings<Object> settings = b.settings(POOL_NAME);
        UnboundedPool<Object> engine = new UnboundedPool<>(settings);
        Pool<Object> p = settings.leaks.wrap(engine);
        try {
            // First the slow paths, then the fast ones; more objects held at once than the
            // private slot and its spare entries keep, so that the stripes are used too.
            for (int round = 0; round < 3; round++) {
                Object[] held = new Object[PrivateSlot.SPARES + 5];
                for (int i = 0; i < held.length; i++) {
                    held[i] = p.acquire();
                }
                for (int i = held.length - 1; i >= 0; i--) {
                    p.release(held[i]);
                }
            }
            p.invalidate(p.acquire());
            engine.rehearseVirtualPaths();
            p.stats();
        } finally {
            p.close();
        }
    }
}
