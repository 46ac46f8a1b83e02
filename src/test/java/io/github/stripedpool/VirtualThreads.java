package io.github.stripedpool;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assertions;

/**
 * Runs test code on a virtual thread where the running JDK has them (21+), and tells virtual
 * threads from platform ones, through method handles, since the tests compile for Java 17.
 */
final class VirtualThreads {
    /** Whether this JVM has virtual threads. */
    static final boolean AVAILABLE = Runtime.version().feature() >= 21;

    /** What the tests say, and skip with, where the JVM has no virtual threads. */
    static final String NEED_JDK_21 = "virtual threads need JDK 21+; this is " + Runtime.version();

    // Thread.ofVirtual(), Thread.Builder.name and .unstarted, Thread.isVirtual(): null on JDK 17.
    private static final MethodHandle OF_VIRTUAL;
    private static final MethodHandle NAME;
    private static final MethodHandle UNSTARTED;
    private static final MethodHandle IS_VIRTUAL;

    static {
        MethodHandle ofVirtual = null;
        MethodHandle name = null;
        MethodHandle unstarted = null;
        MethodHandle isVirtual = null;
        if (AVAILABLE) {
            try {
                MethodHandles.Lookup lookup = MethodHandles.publicLookup();
                Class<?> builder = Class.forName("java.lang.Thread$Builder");
                Class<?> ofVirtualType = Class.forName("java.lang.Thread$Builder$OfVirtual");
                ofVirtual = lookup.findStatic(Thread.class, "ofVirtual",
                        MethodType.methodType(ofVirtualType));
                name = lookup.findVirtual(builder, "name", MethodType.methodType(builder, String.class));
                unstarted = lookup.findVirtual(builder, "unstarted",
                        MethodType.methodType(Thread.class, Runnable.class));
                isVirtual = lookup.findVirtual(Thread.class, "isVirtual",
                        MethodType.methodType(boolean.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
        OF_VIRTUAL = ofVirtual;
        NAME = name;
        UNSTARTED = unstarted;
        IS_VIRTUAL = isVirtual;
    }

    private VirtualThreads() {
    }

    /** Code run on a virtual thread, which may throw what a test method may. */
    interface Body {
        void run() throws Exception;
    }

    /** A virtual thread, not started, named {@code name}, that will run {@code body}. */
    static Thread unstarted(String name, Runnable body) {
        if (!AVAILABLE) {
            throw new IllegalStateException(NEED_JDK_21);
        }
        try {
            Object builder = NAME.invoke(OF_VIRTUAL.invoke(), name);
            return (Thread) UNSTARTED.invoke(builder, body);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.Builder threw a checked exception", e);
        }
    }

    /** Starts a virtual thread running {@code body}. */
    static Thread start(Runnable body) {
        Thread t = unstarted("", body);
        t.start();
        return t;
    }

    /** Whether {@code t} is a virtual thread; false wherever there are none. */
    static boolean isVirtual(Thread t) {
        if (IS_VIRTUAL == null) {
            return false;
        }
        try {
            return (boolean) IS_VIRTUAL.invoke(t);
        } catch (Throwable e) {
            throw new IllegalStateException("Thread.isVirtual() cannot throw", e);
        }
    }

    /** Runs {@code body} on a virtual thread and waits for it; rethrows what it threw. */
    static void runOnOne(Runnable body) throws InterruptedException {
        Throwable[] thrown = new Throwable[1];
        Thread t = start(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown[0] = e;
            }
        });
        t.join();
        if (thrown[0] instanceof RuntimeException) {
            throw (RuntimeException) thrown[0];
        }
        if (thrown[0] instanceof Error) {
            throw (Error) thrown[0];
        }
    }

    /**
     * Runs {@code body} on a new virtual thread named {@code name} and waits for it, at most
     * {@code timeout}. What the body threw is rethrown as it is, the same object, so that a
     * failed assertion keeps the stack that points at its line. A body that does not finish in
     * time fails the caller, with the virtual thread's stack as the cause, since that is where
     * it hangs; the thread is interrupted, which frees a body stuck in a blocking call.
     */
    static void runOnOne(String name, Duration timeout, Body body) throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = unstarted(name, () -> {
            try {
                body.run();
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.start();
        try {
            // At least 1 ms: join(0) waits forever.
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(timeout.toNanos())));
        } catch (InterruptedException e) {
            t.interrupt(); // the caller gave up (JUnit's own timeout): so does the body
            throw e;
        }
        if (t.isAlive()) {
            Throwable where = new Throwable("where " + t + " was when the time ran out");
            where.setStackTrace(t.getStackTrace());
            t.interrupt();
            Assertions.fail(name + " did not finish within "
                    + timeout.toString().substring(2).toLowerCase(), where);
        }
        Throwable e = thrown.get();
        if (e instanceof Exception) {
            throw (Exception) e;
        }
        if (e instanceof Error) {
            throw (Error) e;
        }
        if (e != null) {
            throw new IllegalStateException("the body threw a throwable of its own kind", e);
        }
    }
}
