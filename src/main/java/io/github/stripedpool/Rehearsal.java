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
 * harmlessly). The bounded engine: creations, releases through the thread's hint and through
 * the index, pushes and pops of the idle stacks (a stale entry too), validation, reset and
 * destroy hooks (no-ops), an invalidation that frees an entry and gives its capacity back, a
 * wait that times out in the queue (about 50 µs), the queue's hand-off and wake-up with nobody
 * waiting. The unbounded engine, without hooks and with reset and destroy hooks (its plain and
 * exact paths): creations, the private slot, its spare entries and the stripes, each put and
 * taken, the fast paths, an invalidation. Then statistics and close. A virtual thread that
 * builds the first pool rehearses the virtual paths, a platform thread the platform ones. The
 * throwaway pools take their leak detection from the system property, as the application's
 * pools do unless they set it. Not rehearsed: leak detection otherwise, objects held too long,
 * maintenance and aging (their own threads, see {@link Background}), stealing, and hand-offs
 * to a waiting thread. The throwaway pools run
 * no maintenance, are registered nowhere and are closed before the build goes on; nothing of
 * them stays reachable. A Flight Recorder recording with a threshold of 0 for the wait event
 * shows the timed-out wait, of the pool named {@code io.github.stripedpool.Rehearsal}.
 */
final class Rehearsal {
    private static volatile boolean done;

    private Rehearsal() {
    }

    /** Rehearses unless done: from {@link PoolBuilder#build}, before the pool is built. */
    static void ensure() {
        if (!done) {
            run();
            done = true;
        }
    }

    /**
     * Rehearses now, done or not (for tests). An interrupt of the building thread is held back
     * meanwhile, so that the wait's path is rehearsed whole, and set again afterwards; one that
     * comes during the rehearsal ends its wait early and stays set.
     */
    static void run() {
        boolean interrupted = Thread.interrupted();
        try {
            bounded();
            unbounded(false);
            unbounded(true);
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
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

    private static void bounded() {
        PoolSettings<Object> settings = Pool.builder(FACTORY).maxTotal(2).validate(VALID).reset(NOTHING)
                .destroy(NOTHING).settings("io.github.stripedpool.Rehearsal");
        BoundedPool<Object> p = BoundedPool.unstarted(settings);
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
            p.rehearseQueue();
            p.stats();
        } finally {
            p.close(); // destroys both
        }
    }

    private static void unbounded(boolean hooks) {
        PoolBuilder<Object> b = Pool.builder(FACTORY).maxIdle(8);
        if (hooks) {
            b.reset(NOTHING).destroy(NOTHING);
        }
        UnboundedPool<Object> p = new UnboundedPool<>(b.settings("io.github.stripedpool.Rehearsal"));
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
