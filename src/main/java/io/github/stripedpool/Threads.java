package io.github.stripedpool;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Virtual-thread detection on a Java 17 baseline. {@code Thread.isVirtual()} exists from JDK 21
 * (19 as a preview); it is looked up once. On JDK 17 {@link #VIRTUAL_THREADS} is false and the JIT
 * folds every branch on it away; on JDK 21+ the handle is a constant and the call inlines.
 */
final class Threads {
    private static final MethodHandle IS_VIRTUAL = findIsVirtual();

    /** Whether this JVM has virtual threads at all. */
    static final boolean VIRTUAL_THREADS = IS_VIRTUAL != null;

    private Threads() {
    }

    private static MethodHandle findIsVirtual() {
        try {
            return MethodHandles.publicLookup()
                    .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
        } catch (NoSuchMethodException | IllegalAccessException e) {
            return null;
        }
    }

    static boolean isVirtual(Thread t) {
        try {
            return (boolean) IS_VIRTUAL.invokeExact(t);
        } catch (Throwable e) {
            throw new AssertionError("Thread.isVirtual() cannot throw", e);
        }
    }

    /**
     * A stripe index for a thread that has no private slot: its id, mixed by the 64-bit golden
     * ratio (Fibonacci hashing) so that consecutive ids spread over all stripes.
     */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    static int stripeOf(Thread t, int mask) {
        return (int) ((t.getId() * 0x9E3779B97F4A7C15L) >>> 40) & mask;
    }
}
