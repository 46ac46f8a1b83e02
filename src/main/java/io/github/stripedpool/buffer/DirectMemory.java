package io.github.stripedpool.buffer;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;

/**
 * Frees a direct buffer's native memory at once, instead of when the garbage collector finds the
 * buffer unreachable.
 *
 * <p>Why. A dropped direct buffer holds its native memory until a collection finds it and its
 * cleaner runs; a heap that rarely fills collects rarely, and the JVM meanwhile fails
 * allocations with {@code OutOfMemoryError: Direct buffer memory} once
 * {@code -XX:MaxDirectMemorySize} is reached. The only public way to run the cleaner on JDK 17
 * to 25 is {@code sun.misc.Unsafe.invokeCleaner(ByteBuffer)}, in module {@code jdk.unsupported}.
 * It is found by reflection, once, so that the library needs no {@code requires} on that module
 * and still loads where it is absent: then one warning is logged and the collector frees dropped
 * buffers as it would without a pool. The same happens where the JVM refuses the call: JDK 24
 * and later warn once on its first use, and refuse it with
 * {@code --sun-misc-unsafe-memory-access=deny}.
 *
 * <p>Concurrency. {@link #CLEANER} is set once, by class initialization; {@link #denied} only
 * ever goes from false to true.
 */
final class DirectMemory {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    /** {@code Unsafe.invokeCleaner} bound to the Unsafe instance, or null where unavailable. */
    private static final MethodHandle CLEANER = find();

    /**
     * Set once the JVM refused the call ({@code --sun-misc-unsafe-memory-access=deny}, JDK 24
     * and later): from then on dropped buffers are left to the collector. A race between two
     * first refusals only logs the warning twice.
     */
    private static volatile boolean denied;

    private DirectMemory() {
    }

    /** Whether {@link #free} frees at once; the first call logs the warning if it does not. */
    static boolean freesAtOnce() {
        return CLEANER != null;
    }

    /**
     * Frees {@code buffer}'s memory now: the buffer must never be touched again. A slice or
     * duplicate (which has no cleaner of its own) is left to the collector, as is every buffer
     * when the cleaner is unavailable.
     */
    static void free(ByteBuffer buffer) {
        if (CLEANER == null || denied) {
            return;
        }
        try {
            CLEANER.invokeExact(buffer);
        } catch (IllegalArgumentException e) {
            // A slice or duplicate: its memory belongs to the buffer it came from, whose own
            // cleaner frees it when that one becomes unreachable.
        } catch (UnsupportedOperationException e) {
            denied = true;
            LOG.log(System.Logger.Level.WARNING, "direct buffers that a buffer pool drops are "
                    + "freed by the garbage collector from now on, not at once: the JVM refused "
                    + "sun.misc.Unsafe.invokeCleaner (" + e + "). Run with "
                    + "--sun-misc-unsafe-memory-access=allow or warn to free them at once");
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("freeing a direct buffer failed", e);
        }
    }

    private static MethodHandle find() {
        try {
            Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
            // A method handle needs readability, which a module without a requires on
            // jdk.unsupported (this one) lacks; a module may grant itself more.
            DirectMemory.class.getModule().addReads(unsafeClass.getModule());
            Field theUnsafe = unsafeClass.getDeclaredField("theUnsafe");
            theUnsafe.setAccessible(true);
            return MethodHandles.lookup()
                    .findVirtual(unsafeClass, "invokeCleaner",
                            MethodType.methodType(void.class, ByteBuffer.class))
                    .bindTo(theUnsafe.get(null));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            LOG.log(System.Logger.Level.WARNING, "direct buffers that a buffer pool drops are "
                    + "freed by the garbage collector, not at once: sun.misc.Unsafe.invokeCleaner "
                    + "is not available (" + e + "). On the module path, add "
                    + "--add-modules jdk.unsupported to free them at once");
            return null;
        }
    }
}
