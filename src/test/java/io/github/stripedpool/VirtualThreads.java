package io.github.stripedpool;

import java.lang.reflect.Method;

/**
 * Runs test code on a virtual thread where the running JDK has them (21+), through reflection,
 * since the tests compile for Java 17.
 */
final class VirtualThreads {
    /** Whether this JVM has virtual threads. */
    static final boolean AVAILABLE = Runtime.version().feature() >= 21;

    private VirtualThreads() {
    }

    /** Starts a virtual thread running {@code body}. */
    static Thread start(Runnable body) {
        try {
            Method ofVirtual = Thread.class.getMethod("ofVirtual");
            Object builder = ofVirtual.invoke(null);
            Method start = Class.forName("java.lang.Thread$Builder").getMethod("start", Runnable.class);
            return (Thread) start.invoke(builder, body);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("virtual threads need JDK 21+; this is "
                    + Runtime.version(), e);
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
}
