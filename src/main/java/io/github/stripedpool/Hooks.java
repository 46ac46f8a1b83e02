package io.github.stripedpool;

import java.util.function.Consumer;

/**
 * Runs a user hook on one object so that its failure, whatever it throws, is counted and logged
 * and never interrupts the pool's own bookkeeping: the hook's throwable is returned, not thrown,
 * and the caller finishes its work (frees the entry, gives the capacity back) before deciding
 * with {@link #fatal} what to rethrow. Only a {@link VirtualMachineError} (out of memory, stack
 * overflow) is ever rethrown to the caller of the pool: the JVM is in trouble and the caller must
 * know; any other failure of a hook costs only the object it was called on.
 */
final class Hooks {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    private Hooks() {
    }

    /**
     * Runs {@code hook} on {@code x}.
     *
     * @param counts the pool's counters, whose {@link Counts#HOOK_FAILURE} counts the failure
     * @param outcome what the pool did with the object, for the log: "destroyed instead of pooled"
     * @return null, or what the hook threw (already counted and logged)
     */
    static <T> Throwable run(Consumer<? super T> hook, T x, String hookName, String pool,
            long[] counts, String outcome) {
        try {
            hook.accept(x);
            return null;
        } catch (Throwable t) {
            failed(hookName, x, pool, counts, outcome, t);
            return t;
        }
    }

    /** Counts and logs a failure of hook {@code hookName} on {@code x}. */
    static void failed(String hookName, Object x, String pool, long[] counts, String outcome, Throwable t) {
        Counts.add(counts, Counts.HOOK_FAILURE, 1);
        log(hookName, x, pool, outcome, t);
    }

    /**
     * Logs a failure of hook {@code hookName} on {@code x}; never throws. Both engines report
     * hook failures through it.
     */
    static void log(String hookName, Object x, String pool, String outcome, Throwable t) {
        try {
            LOG.log(System.Logger.Level.WARNING, "pool '" + pool + "': the " + hookName
                    + " hook threw on a " + x.getClass().getTypeName() + "; the object was " + outcome, t);
        } catch (Throwable ignored) {
            // Logging can fail too (out of memory while formatting): the count above stands.
        }
    }

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

    /** Throws {@code t} if it is not null (it is a {@link VirtualMachineError}, see {@link #fatal}). */
    static void rethrow(Throwable t) {
        if (t instanceof Error) {
            throw (Error) t;
        }
        if (t != null) {
            throw new IllegalStateException(t);
        }
    }
}
