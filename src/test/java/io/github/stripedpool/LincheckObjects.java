package io.github.stripedpool;

import static org.jetbrains.lincheck.datastructures.ManagedStrategyGuaranteeKt.forClasses;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.StressOptions;

/**
 * What the Lincheck tests of the pools share: the pooled object that records its holder and its
 * destruction, the results an operation reports, the checks of an object handed out and of
 * every object at quiescence, and the Lincheck settings.
 */
final class LincheckObjects {
    static final int OK = 0;
    static final int CLOSED = 1;
    static final int TWO_HOLDERS = 2;
    static final int DESTROYED_HANDED_OUT = 3;
    static final int NOT_RESET = 4;

    /** What a holder leaves in an object; the reset must clear it. */
    static final int SECRET = 42;

    private LincheckObjects() {
    }

    static final class Obj {
        final AtomicReference<Thread> holder = new AtomicReference<>();
        final AtomicInteger destroyed = new AtomicInteger();
        int value;
    }

    /** Takes {@code o} for the calling thread; a result other than OK is a violation. */
    static int claim(Obj o) {
        if (o.destroyed.get() != 0) {
            return DESTROYED_HANDED_OUT;
        }
        if (!o.holder.compareAndSet(null, Thread.currentThread())) {
            return TWO_HOLDERS;
        }
        return o.value != 0 ? NOT_RESET : OK;
    }

    /**
     * At quiescence: no object destroyed twice or while held, the objects neither held nor
     * destroyed are the idle ones, and a closed pool keeps none idle.
     */
    static void checkObjects(AtomicReferenceArray<Obj> all, int created, PoolStats s) {
        int idleByState = 0;
        for (int i = 0; i < created; i++) {
            Obj o = all.get(i);
            int d = o.destroyed.get();
            boolean isHeld = o.holder.get() != null;
            check(d <= 1, "object " + i + " destroyed " + d + " times", s);
            check(!(isHeld && d != 0), "object " + i + " destroyed while held", s);
            if (!isHeld && d == 0) {
                idleByState++;
            }
        }
        check(idleByState == s.idle(), idleByState + " objects neither held nor destroyed vs idle", s);
        check(!s.isClosed() || s.idle() == 0, "idle objects in a closed pool", s);
    }

    /**
     * Model checking of a test class against its sequential {@code model}: 2 threads of 3
     * operations, 2 before and 1 after. The clocks' registries, the background lanes and the
     * Flight Recorder registry are shared by every pool in the JVM and changed by their own
     * threads: outside the state under test, so ignored. So is {@link StackHeadroom}'s descent
     * before a lock, which touches no shared state and which the checker would take, by its depth
     * of recursion, for a thread that never ends.
     */
    static void modelCheck(Class<?> test, Class<?> model) {
        new ModelCheckingOptions()
                .iterations(12)
                .invocationsPerIteration(200)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(1)
                .sequentialSpecification(model)
                .addGuarantee(forClasses(AgingClock.class.getName(), MaintenanceClock.class.getName(),
                        ClockThread.class.getName(), FlightRecorderEvents.class.getName(),
                        Background.class.getName(), Lane.class.getName(),
                        Workers.class.getName(), StackHeadroom.class.getName()).allMethods().ignore())
                .check(test);
    }

    /** Stress runs of a test class against its sequential {@code model}: 3 threads of 3 operations. */
    static void stress(Class<?> test, Class<?> model) {
        new StressOptions()
                .iterations(10)
                .invocationsPerIteration(1_000)
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .sequentialSpecification(model)
                .check(test);
    }

    static void check(boolean ok, String what, PoolStats s) {
        if (!ok) {
            throw new IllegalStateException(what + ": " + s);
        }
    }
}
