package io.github.stripedpool;

import java.util.function.Consumer;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The user's code as the unbounded engine calls it: the factory, the reset hook, the retain
 * predicate and the destroy hook, with the counting and the containment of their failures.
 *
 * <p>Invariants. Every hook runs on the calling thread, under no lock and no monitor of the
 * library (the engine holds none), so a hook that blocks or re-enters the pool delays only its
 * caller. A failure of reset or destroy is contained: counted, logged (a failing log is ignored,
 * the count stays) and the object is destroyed instead of pooled. A
 * {@link VirtualMachineError} of destroy is handed back to the caller, which rethrows it with
 * {@link #rethrowVmError} once its own work is done and the pool is consistent again; a
 * {@link VirtualMachineError} of reset is rethrown after the object was dropped. Counts go to the
 * caller's own {@link PrivateSlot} when it has one (plain increments, owner only), else into a
 * shared counter array with an atomic add. Stateless apart from its final fields: safe to share
 * between threads.
 *
 * @param <T> the type of the pooled objects
 */
final class EngineHooks<T> {
    private final String name;
    private final Supplier<? extends T> factory;
    /** What a release does before pooling: nothing to run keeps it null. */
    private static final Consumer<Object> NO_RESET = new Consumer<Object>() { // no lambda: see ClockThread
        @Override
        public void accept(Object x) {
            // nothing to reset
        }
    };

    /**
     * Null when a release has nothing to run: no reset hook and no retain predicate. The engine
     * checks for null instead of calling a no-op; with a retain predicate alone it is a no-op, so
     * that the engine calls {@link #resetOrDrop}, which tests the predicate.
     */
    final Consumer<? super T> reset;
    /** Null when no retain predicate was set. */
    private final Predicate<? super T> retain;
    /** Null when no destroy hook was set. */
    final Consumer<? super T> destroy;

    EngineHooks(PoolBuilder<T> b, String name) {
        this.name = name;
        this.factory = b.factory;
        this.retain = b.retain;
        this.reset = b.reset != null ? b.reset : retain != null ? NO_RESET : null;
        this.destroy = b.destroy;
    }

    /**
     * A new object from the factory; a failure becomes an {@link ObjectCreationException}, an
     * {@link Error} is rethrown as it is. Either is recorded for Flight Recorder, as in the
     * bounded engine ({@link BoundedCapacity#make}).
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
                    + "; nothing was taken from the pool, acquire() again to retry", e);
        }
        if (x == null) {
            FlightRecorderEvents.factoryFailed(name, null);
            throw new ObjectCreationException("pool '" + name
                    + "': the factory returned null; it must return a new object on every call", null);
        }
        return x;
    }

    /**
     * Runs the reset hook, then the retain predicate, those that are set (one is, or the caller
     * would not call); when the hook throws, or the predicate refuses {@code x} or throws, drops
     * {@code x}, and rethrows a {@link VirtualMachineError} once the pool is consistent again.
     *
     * @return true if {@code x} was reset and may be pooled
     */
    @SuppressWarnings("unchecked")
    boolean resetOrDrop(Object x, PrivateSlot slot, long[] shared) {
        boolean testing = false;
        try {
            reset.accept((T) x);
            Predicate<? super T> r = retain;
            if (r == null) {
                return true;
            }
            testing = true;
            if (r.test((T) x)) {
                return true;
            }
            dropOnRelease(x, slot, shared, true, null);
        } catch (Throwable e) {
            dropOnRelease(x, slot, shared, testing, e);
        }
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
     * The reset hook, run by the release fast path, threw {@code failure}: drops {@code x} as
     * {@link #resetOrDrop} does, and rethrows a {@link VirtualMachineError}.
     */
    void resetFailed(Object x, PrivateSlot slot, Throwable failure) {
        dropOnRelease(x, slot, null, false, failure);
    }

    /**
     * Drops a released object that will not be pooled: the reset hook threw, or the retain
     * predicate ({@code retaining}) refused it or threw. A {@link VirtualMachineError} that
     * either hook or the destroy hook threw is rethrown last, the failure counted and logged.
     */
    private void dropOnRelease(Object x, PrivateSlot slot, long[] shared, boolean retaining,
            Throwable failure) {
        if (slot != null) {
            slot.sharedReleases++; // a release all the same; the shared paths counted theirs
        }
        if (failure != null) {
            hookFailed(retaining ? "retainIf" : "reset", x, failure, slot, shared);
        }
        if (retaining) {
            count(slot, shared, Counts.NOT_RETAINED);
        }
        Throwable d = drop(x, slot, shared);
        if (failure instanceof VirtualMachineError) {
            throw (VirtualMachineError) failure;
        }
        rethrowVmError(d);
    }

    /**
     * Lets go of {@code x}: counts it and runs the destroy hook, reporting a failure. Never
     * throws.
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
            hookFailed("destroy", x, e, slot, shared);
            return e instanceof VirtualMachineError ? e : null;
        }
    }

    /**
     * Destroys an object its borrower gave back with {@link Pool#invalidate}, counted as a
     * release, and rethrows a {@link VirtualMachineError} of the destroy hook after counting.
     */
    void invalidated(Object x, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.RELEASED);
        count(slot, shared, Counts.INVALIDATED);
        rethrowVmError(drop(x, slot, shared));
    }

    /** Rethrows what {@link #drop} handed back, if anything. */
    static void rethrowVmError(Throwable e) {
        if (e != null) {
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
    private void hookFailed(String hook, Object x, Throwable e, PrivateSlot slot, long[] shared) {
        count(slot, shared, Counts.HOOK_FAILURE);
        Hooks.log(hook, x, name, "destroyed instead of pooled", e);
    }
}
