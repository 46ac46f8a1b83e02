package io.github.stripedpool;

import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The user hooks of one {@link BoundedPool} that decide an object's fate (validate, reset,
 * retain, destroy), each run with its failure contained (see {@link Hooks}), and the destruction
 * of an object whose entry the caller owns.
 *
 * <p>Invariants. Every method is called by the thread that owns the entry (RESERVED or
 * BORROWED), never under a lock. Whatever a hook throws, an entry whose object is destroyed is
 * freed and its unit of capacity given back before the failure reaches anybody, so no hook can
 * keep a unit; a {@link VirtualMachineError} is rethrown only once that is done, and anything
 * else is logged and counted. The destroy hook runs before the unit is given back, so no more
 * than maxTotal objects exist at once, hooks included. A hook that is not set is null: a null
 * check is cheaper than calling a no-op.
 *
 * @param <T> the type of the pooled objects
 */
final class BoundedHooks<T> {
    private final String name;
    private final Consumer<? super T> reset;
    private final Consumer<? super T> destroy;
    final Predicate<? super T> validate;
    private final Predicate<? super T> retain;
    private final BoundedThreads threads;
    private final BoundedCapacity capacity;

    BoundedHooks(PoolBuilder<T> b, String name, BoundedThreads threads, BoundedCapacity capacity) {
        this.name = name;
        this.reset = b.reset;
        this.destroy = b.destroy;
        this.validate = b.validate;
        this.retain = b.retain;
        this.threads = threads;
        this.capacity = capacity;
    }

    /**
     * Runs the validation hook on a borrowed entry's object; destroys it if it fails. A
     * {@link VirtualMachineError} from either hook reaches the caller, after the entry is freed.
     */
    @SuppressWarnings("unchecked")
    boolean isValid(BoundedEntry e, Object x) {
        boolean ok;
        try {
            ok = validate.test((T) x);
        } catch (Throwable t) {
            Hooks.failed("validate", x, name, threads.counts, "destroyed instead of handed out", t);
            Hooks.rethrow(Hooks.fatal(t, destroyOwned(e, x)));
            return false;
        }
        if (!ok) {
            Hooks.rethrow(destroyOwned(e, x));
        }
        return ok;
    }

    /**
     * Resets a released object and asks the retain predicate whether to keep it; if either
     * fails, destroys it, frees its entry {@code e} and returns false (after rethrowing a
     * {@link VirtualMachineError} of any hook).
     */
    boolean resetAndRetained(BoundedEntry e, T object) {
        if (reset != null) {
            Throwable t = Hooks.run(reset, object, "reset", name, threads.counts, "destroyed instead of pooled");
            if (t != null) {
                Hooks.rethrow(Hooks.fatal(t, destroyOwned(e, object)));
                return false;
            }
        }
        return retain == null || retainedOrDestroyed(e, object);
    }

    private boolean retainedOrDestroyed(BoundedEntry e, T object) {
        Throwable t = null;
        try {
            if (retain.test(object)) {
                return true;
            }
        } catch (Throwable x) {
            t = x;
            Hooks.failed("retainIf", object, name, threads.counts, "destroyed instead of pooled", x);
        }
        threads.add(Counts.NOT_RETAINED, 1);
        Hooks.rethrow(Hooks.fatal(t, destroyOwned(e, object)));
        return false;
    }

    /**
     * Destroys the object of an entry the caller owns (RESERVED or BORROWED), frees the entry
     * and gives its unit of capacity back, whatever the destroy hook throws.
     *
     * @return a {@link VirtualMachineError} the hook threw, for the caller to rethrow once its
     *         own work is done; null otherwise
     */
    @SuppressWarnings("unchecked")
    Throwable destroyOwned(BoundedEntry e, Object x) {
        e.item = null;
        threads.add(Counts.DROPPED, 1);
        Throwable t = null;
        if (destroy != null) {
            t = Hooks.run(destroy, (T) x, "destroy", name, threads.counts, "dropped; its capacity was given back");
        }
        capacity.free(e);
        return Hooks.fatal(t, null);
    }
}
