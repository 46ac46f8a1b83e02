package io.github.stripedpool;

import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The user's code as both engines call it: the factory, the reset hook, the retain predicate,
 * the validate predicate and the destroy hook, with the counting and the containment of their
 * failures. The one place where a hook is called and where its failure is counted and logged;
 * the engines decide only what happens to the object and its place afterwards.
 *
 * <p>Invariants. Every hook runs on the calling thread, under no lock and no monitor of the
 * library (neither engine holds one around a call here), so a hook that blocks or re-enters the
 * pool delays only its caller. A failure of reset, retain, validate or destroy is contained:
 * counted ({@link Counts#HOOK_FAILURE}), logged (a failing log is ignored, the count stays), and
 * handed back to the engine, never thrown from here, except by the unbounded engine's
 * {@link #resetOrDrop} and {@link #invalidated}, which drop the object first. The engine then
 * finishes its own work (a bounded pool frees the object's entry and gives its capacity back)
 * and rethrows only a {@link VirtualMachineError}, with {@link #rethrowVmError}: the JVM is in
 * trouble and the caller must know; any other failure costs only the object it was called on.
 * Counts go to the caller's own {@link PrivateSlot} when it has one (plain increments, owner
 * only), else into a shared counter array with an atomic add. Stateless apart from its final
 * fields, which {@link PoolSettings} sets once: safe to share between threads.
 *
 * @param <T> the type of the pooled objects
 */
final class UserHooks<T> {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    /**
     * What {@link #resetFailure} and {@link #validateFailure} return when a predicate said no
     * without throwing: not thrown, never a {@link VirtualMachineError}, no stack trace.
     */
    static final Throwable REFUSED = new Throwable("refused by a predicate", null, false, false) {
        private static final long serialVersionUID = 1L;
    };

    /** What a release does before pooling: nothing to run keeps it null. */
    private static final Consumer<Object> NO_RESET = new Consumer<Object>() { // no lambda: see ClockThread
        @Override
        public void accept(Object x) {
            // nothing to reset
        }
    };

    private final String name;
    private final Supplier<? extends T> factory;
    /** What a failed factory call left behind, for its message. */
    private final String afterFactoryFailure;
    /**
     * Null when a release has nothing to run: no reset hook and no retain predicate. The engines
     * check for null instead of calling a no-op; with a retain predicate alone it is a no-op, so
     * that the engine calls {@link #resetOrDrop} or {@link #resetFailure}, which test the predicate.
     */
    final Consumer<? super T> reset;
    /** Null when no retain predicate was set. */
    private final Predicate<? super T> retain;
    /** Null when no validate predicate was set (always, in an unbounded pool). */
    final Predicate<? super T> validate;
    /** Null when no destroy hook was set. */
    final Consumer<? super T> destroy;

    /**
     * @param afterFactoryFailure the end of a factory failure's message: what the pool did, and
     *        that acquiring again retries
     */
    UserHooks(String name, Supplier<? extends T> factory, Consumer<? super T> reset,
            Predicate<? super T> retain, Predicate<? super T> validate, Consumer<? super T> destroy,
            String afterFactoryFailure) {
        this.name = name;
        this.factory = factory;
        this.afterFactoryFailure = afterFactoryFailure;
        this.retain = retain;
        this.reset = reset != null ? reset : retain != null ? NO_RESET : null;
        this.validate = validate;
        this.destroy = destroy;
    }

    // ---------------------------------------------------------------- the factory

    /**
     * A new object from the factory; a failure becomes an {@link ObjectCreationException}, an
     * {@link Error} is rethrown as it is. Either is recorded for Flight Recorder.
     */
    T create() {
        T x;
        try {
            x = factory.get();
        } catch (Throwable e) {
            FlightRecorderEvents.factoryFailed(name, e);
            if (e instanceof Error) {
                throw (Error) e;
            }
            throw new ObjectCreationException("pool '" + name + "': the factory threw " + e
                    + "; " + afterFactoryFailure, e);
        }
        if (x == null) {
            FlightRecorderEvents.factoryFailed(name, null);
            throw new ObjectCreationException("pool '" + name
                    + "': the factory returned null; it must return a new object on every call", null);
        }
        return x;
    }

    // ---------------------------------------------------------------- release and acquire checks

    /**
     * Runs the reset hook, then the retain predicate, those that are set (one is, or the caller
     * would not call). Returns null if {@code x} may be pooled; else {@link #REFUSED} (the
     * predicate said no, counted as {@link Counts#NOT_RETAINED}) or what a hook threw (counted
     * and logged). Never throws; the caller drops {@code x}.
     */
    @SuppressWarnings("unchecked")
    Throwable resetFailure(Object x, PrivateSlot slot, long[] shared) {
        boolean testing = false;
        try {
            reset.accept((T) x);
            Predicate<? super T> r = retain;
            if (r == null) {
                return null;
            }
            testing = true;
            if (r.test((T) x)) {
                return null;
            }
            count(slot, shared, Counts.NOT_RETAINED);
            return REFUSED;
        } catch (Throwable e) {
            if (testing) {
                count(slot, shared, Counts.NOT_RETAINED);
            }
            failed(testing ? "retainIf" : "reset", x, "destroyed instead of pooled", e, slot, shared);
            return e;
        }
    }

    /**
     * Runs the validate predicate (set, or the caller would not call) on an object about to be
     * handed out. Returns null if it may be; else {@link #REFUSED} or what the predicate threw
     * (counted and logged). Never throws; the caller destroys {@code x}.
     */
    @SuppressWarnings("unchecked")
    Throwable validateFailure(Object x, long[] shared) {
        try {
            return validate.test((T) x) ? null : REFUSED;
        } catch (Throwable e) {
            failed("validate", x, "destroyed instead of handed out", e, null, shared);
            return e;
        }
    }

    /**
     * Lets go of {@code x}: counts it dropped and runs the destroy hook, reporting a failure.
     * Never throws.
     *
     * @return the hook's {@link VirtualMachineError}, for the caller to rethrow when its own work
     *         is done, or null
     */
    @SuppressWarnings("unchecked")
    Throwable drop(Object x, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.DROPPED);
        Consumer<? super T> d = destroy;
        if (d == null) {
            return null;
        }
        try {
            d.accept((T) x);
            return null;
        } catch (Throwable e) {
            failed("destroy", x, "dropped all the same", e, slot, shared);
            return e instanceof VirtualMachineError ? e : null;
        }
    }

    // ---------------------------------------------------------------- the unbounded engine's drops

    /**
     * As {@link #resetFailure}, for the unbounded engine: when the object may not be pooled,
     * drops it, and rethrows a {@link VirtualMachineError} once the pool is consistent again.
     *
     * @return true if {@code x} was reset and may be pooled
     */
    boolean resetOrDrop(Object x, PrivateSlot slot, long[] shared) {
        Throwable f = resetFailure(x, slot, shared);
        if (f == null) {
            return true;
        }
        dropOnRelease(x, slot, shared, f);
        return false;
    }

    /**
     * The release hooks as a {@link PrivateSlot} takes them: {@link PrivateSlot#HOOKS_RETAIN} if
     * a {@code retainIf} predicate is set, else {@link PrivateSlot#HOOKS_RESET} if a reset hook
     * is, else {@link PrivateSlot#HOOKS_NONE}.
     */
    int slotHooks() {
        return retain != null ? PrivateSlot.HOOKS_RETAIN
                : reset != null ? PrivateSlot.HOOKS_RESET : PrivateSlot.HOOKS_NONE;
    }

    /**
     * The reset hook, run by the unbounded release fast path, threw {@code failure}: counts and
     * logs it, drops {@code x} as {@link #resetOrDrop} does, and rethrows a
     * {@link VirtualMachineError}.
     */
    void resetFailed(Object x, PrivateSlot slot, Throwable failure) {
        failed("reset", x, "destroyed instead of pooled", failure, slot, null);
        dropOnRelease(x, slot, null, failure);
    }

    /**
     * Drops a released object that will not be pooled, for the reason {@code failure} (a hook's
     * throwable, already counted and logged, or {@link #REFUSED}); a
     * {@link VirtualMachineError} of either hook is rethrown last.
     */
    private void dropOnRelease(Object x, PrivateSlot slot, long[] shared, Throwable failure) {
        if (slot != null && ReleaseChecks.givenBackInHooks(slot, x) && !(failure instanceof VirtualMachineError)) {
            // The hook gave x back itself (a release or invalidate of its own object), and that
            // nested call pooled or destroyed it: dropping it now would destroy it again.
            IllegalStateException twice = ReleaseChecks.givenBackTwice(name, "release", x,
                    ReleaseChecks.SAME_THREAD_ONLY);
            if (failure != REFUSED) {
                twice.addSuppressed(failure);
            } else {
                slot.notRetained--; // counted by resetFailure, but this call destroys nothing
            }
            throw twice;
        }
        if (slot != null) {
            slot.sharedReleases++; // a release all the same; the shared paths counted theirs
        }
        Throwable d = slot != null ? dropGivenBack(x, slot) : drop(x, slot, shared);
        if (failure instanceof VirtualMachineError) {
            throw (VirtualMachineError) failure;
        }
        rethrowVmError(d);
    }

    /**
     * {@link #drop} of an object the owner of {@code slot} gave back, recorded there as its last
     * give-back ({@link PrivateSlot#recordDropped}): before the destroy hook, which may give it
     * back again, and again after it if a give-back nested in the hook replaced the record (a
     * destroy hook that releases a part the object held), so that a give-back of it next is
     * refused and it is never destroyed twice.
     */
    Throwable dropGivenBack(Object x, PrivateSlot slot) {
        slot.recordDropped(x);
        Throwable d = drop(x, slot, null);
        if (!slot.droppedLast(x)) {
            slot.recordDropped(x);
        }
        return d;
    }

    /**
     * Destroys an object its borrower gave back with {@link Pool#invalidate}, counted as a
     * release, and rethrows a {@link VirtualMachineError} of the destroy hook after counting.
     */
    void invalidated(Object x, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.RELEASED);
        count(slot, shared, Counts.INVALIDATED);
        rethrowVmError(slot != null ? dropGivenBack(x, slot) : drop(x, slot, shared));
    }

    // ---------------------------------------------------------------- failures and counts

    /**
     * The first of {@code first} and {@code next} that must reach the caller: a
     * {@link VirtualMachineError}, or null if neither is one.
     */
    static Throwable fatal(Throwable first, Throwable next) {
        if (first instanceof VirtualMachineError) {
            return first;
        }
        return next instanceof VirtualMachineError ? next : null;
    }

    /** Rethrows {@code e} if it is a {@link VirtualMachineError}; anything else was contained. */
    static void rethrowVmError(Throwable e) {
        if (e instanceof VirtualMachineError) {
            throw (VirtualMachineError) e;
        }
    }

    /** Counts in the caller's own slot if it has one, else atomically in a shared array. */
    static void count(PrivateSlot slot, long[] shared, int counter) {
        if (slot != null) {
            slot.inc(counter);
        } else {
            Counts.add(shared, counter, 1);
        }
    }

    /** Counts and logs a hook's failure; a log that fails in turn leaves the count only. */
    private void failed(String hook, Object x, String outcome, Throwable e, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.HOOK_FAILURE);
        log(hook, x, name, outcome, e);
    }

    /**
     * Logs a failure of hook {@code hook} on {@code x}; never throws. Every hook failure of the
     * library is reported through it.
     */
    static void log(String hook, Object x, String pool, String outcome, Throwable t) {
        try {
            LOG.log(System.Logger.Level.WARNING, "pool '" + pool + "': the " + hook
                    + " hook threw on a " + x.getClass().getTypeName() + "; the object was " + outcome, t);
        } catch (Throwable ignored) {
            // Logging can fail too (out of memory while formatting): the count stands.
        }
    }
}
