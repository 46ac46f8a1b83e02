package io.github.stripedpool.buffer;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Reaches the engine's heap-pressure trimming, which is not public API: the package-private
 * {@code io.github.stripedpool.HeapTrim}, through method handles found once. Allowed because
 * this package is in the same module, which opens its packages to itself (and on the class path
 * every package is open). Immutable once initialized.
 */
final class HeapTrimAccess {
    private static final MethodHandle DROP_IDLE_ABOVE_HEAP;
    private static final MethodHandle TRIMS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(
                    Class.forName("io.github.stripedpool.HeapTrim"), MethodHandles.lookup());
            DROP_IDLE_ABOVE_HEAP = l.findStatic(l.lookupClass(), "dropIdleAboveHeap",
                    MethodType.methodType(PoolBuilder.class, PoolBuilder.class, double.class));
            TRIMS = l.findStatic(l.lookupClass(), "trims", MethodType.methodType(long.class, Pool.class));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private HeapTrimAccess() {
    }

    /** The class pool drops its idle buffers after a collection leaving the heap above {@code fraction}. */
    static void dropIdleAboveHeap(PoolBuilder<?> b, double fraction) {
        try {
            // invokeExact needs the call site's return type to be the handle's: PoolBuilder.
            PoolBuilder<?> same = (PoolBuilder<?>) DROP_IDLE_ABOVE_HEAP.invokeExact((PoolBuilder<?>) b, fraction);
            assert same == b;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** Collections after which the class pool dropped its idle buffers at once. */
    static long trims(Pool<?> pool) {
        try {
            return (long) TRIMS.invokeExact(pool);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }
}
