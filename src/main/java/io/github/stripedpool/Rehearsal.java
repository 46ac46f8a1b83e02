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
 * harmlessly), then, on JDK 21+, on a thread of the other kind, which the builder waits for:
 * a platform thread's private tier and a virtual thread's hint slots are different paths (built
 * on a platform thread, a virtual thread's first acquisitions ran out of memory in a full heap;
 * built on a virtual thread, a platform thread's first releases lost the unbounded pool's
 * objects). The bounded engine: creations, releases through the thread's hint and through
 * the index, pushes and pops of the idle stacks (a stale entry too), validation, reset and
 * destroy hooks (no-ops), an invalidation that frees an entry and gives its capacity back, a
 * wait that times out in the queue (about 50 µs; on a virtual thread a timeout at once, since
 * its first timed park would start the JDK's timer thread for virtual threads for good), the
 * queue's hand-off and wake-up with nobody waiting. The unbounded engine, without hooks and
 * with reset and destroy hooks (its plain and exact paths): creations, the private slot, its
 * spare entries and the stripes, each put and taken, the fast paths, an invalidation. Then
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
    /** How long the builder waits for the rehearsal on the other kind of thread. */
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
     * Rehearses now, done or not (for tests): on the calling thread, then, on JDK 21+, on a
     * thread of the other kind (a virtual thread for a platform builder, a platform thread for
     * a virtual one), which the builder waits for, at most {@link #OTHER_THREAD_MILLIS}: the
     * two kinds take different paths (the private tier, the virtual hint slots). Each with no
     * leak detection and with the level of {@code leaks}. An interrupt of the building thread is
     * held back meanwhile, so that the wait's path is rehearsed whole, and set again afterwards;
     * one that comes during the rehearsal ends its wait early and stays set.
     */
    static void run(LeakSettings leaks) {
        boolean interrupted = Thread.interrupted();
        try {
            boolean virtual = Threads.VIRTUAL_THREADS && Threads.isVirtual(Thread.currentThread());
            everything(leaks, !virtual);
            interrupted |= onTheOtherKind(leaks, virtual);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Every rehearsal, with no leak detection and with {@code leaks}'s level. A virtual thread
     * makes no wait that parks with a timeout ({@code waits} false): its first such park starts
     * the JDK's timer thread for virtual threads, for good, in an application that may never
     * use one otherwise.
     */
    private static void everything(LeakSettings leaks, boolean waits) {
        bounded(LeakSettings.DISABLED, waits);
        unbounded(LeakSettings.DISABLED, false);
        unbounded(LeakSettings.DISABLED, true);
        if (leaks.level != LeakDetection.DISABLED) {
            bounded(leaks, waits);
            unbounded(leaks, false);
            unbounded(leaks, true);
        }
    }

    /** Rehearses on a thread of the other kind, if there is one; true if interrupted meanwhile. */
    private static boolean onTheOtherKind(final LeakSettings leaks, final boolean virtualHere) {
        if (!Threads.VIRTUAL_THREADS) {
            return false;
        }
        Runnable body = new Runnable() { // no lambda: see ClockThread
            @Override
            public void run() {
                try {
                    everything(leaks, virtualHere);
                } catch (Throwable best) {
                    // best effort: a path not rehearsed is one first run later, as without this
                }
            }
        };
        Thread t;
        if (virtualHere) {
            t = Background.newThread(body, THREAD_NAME);
            t.start();
        } else {
            t = Threads.startVirtual(body);
        }
        boolean interrupted = false;
        long deadline = System.nanoTime() + OTHER_THREAD_MILLIS * 1_000_000L;
        for (long left; t.isAlive() && (left = deadline - System.nanoTime()) > 0; ) {
            try {
                t.join(Math.max(1, left / 1_000_000L));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        return interrupted;
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

    private static void bounded(LeakSettings leaks, boolean waits) {
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
                // b popped stale, nothing idle: queued, timed out; or, not waiting, timed out at once
                p.acquire(Duration.ofNanos(waits ? 50_000 : 0));
            } catch (PoolTimeoutException | PoolInterruptedException expected) {
                // the path is the point; an interrupt sent meanwhile stays set
            }
            p.invalidate(a); // destroyed, its entry freed, its capacity back
            a = p.acquire(Duration.ZERO); // a new object in the freed entry
            p.release(a);
            p.release(b);
            engine.rehearseQueue();
            p.stats();
        } finally {
            p.close(); // destroys both
        }
    }

    private static void unbounded(LeakSettings leaks, boolean hooks) {
        PoolBuilder<Object> b = builder(leaks).maxIdle(8);
        if (hooks) {
            b.reset(NOTHING).destroy(NOTHING);
        }
        PoolSettings<Object> settings = b.settings(POOL_NAME);
        Pool<Object> p = settings.leaks.wrap(new UnboundedPool<>(settings));
        try {
            for (int round = 0; round < 3; round++) { // first the slow paths, then the fast ones
                Object[] held = new Object[4];
                for (int i = 0; i < held.length; i++) {
                    held[i] = p.acquire();
                }
                for (int i = held.length - 1; i >= 0; i--) {
                    p.release(held[i]);
                }
            }
            p.invalidate(p.acquire());
            p.stats();
        } finally {
            p.close();
        }
    }
}
