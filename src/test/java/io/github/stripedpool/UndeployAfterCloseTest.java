package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Undeploy as servlet containers do it, beside {@link UndeployTest}: a web application that used
 * the library and closed its pools leaves no thread and no reference to its class loader
 * behind, when the container closes that class loader at undeploy (URLClassLoader.close(), as
 * Tomcat does), and when the application keeps its closed pool in a static field, with leak
 * detection on. Before the fixes the aging clock of the undeployed copy of the library failed
 * at every collection on a class it had not loaded and never ended, and the leak thread kept a
 * closed pool, whose static field its own class loader held, for good.
 */
@Timeout(120)
class UndeployAfterCloseTest {
    private static final long DEADLINE_SECONDS = 20;

    /**
     * The container closes the loader once the application's pools are closed; the JVM keeps
     * collecting a few times a second, as a busy server does. The aging clock of the undeployed
     * copy of the library needed a class it had never loaded, failed, and never reached its
     * check for an empty registry.
     */
    @Test
    void aLoaderClosedAtUndeployIsCollectedWhileTheJvmKeepsCollecting() throws Exception {
        WeakReference<ClassLoader> loader = runInALoaderOfItsOwn(ClosedLoaderApp.class, null, true);
        collectUntil(() -> loader.get() == null, 200, "the undeployed application's class loader is "
                + "still reachable after its pool was closed and the loader closed (library threads: "
                + libraryThreads() + ")");
    }

    /** The same application without leak detection, its closed pool kept in a static field. */
    @Test
    void aClosedPoolInAStaticFieldDoesNotPinTheLoaderWithoutLeakDetection() throws Exception {
        WeakReference<ClassLoader> loader = runInALoaderOfItsOwn(StaticPoolApp.class, "DISABLED", false);
        collectUntil(() -> loader.get() == null, 10, "the loader is still reachable (library threads: "
                + libraryThreads() + ")");
    }

    /**
     * With leak detection (a builder setting here; the same with
     * -Dstripedpool.leakDetection=sampled, which switches it on for every pool), the closed pool
     * stayed registered with the leak thread, a GC root, which held the loader whose static field
     * held the pool: the thread never ended and the loader was never collected.
     */
    @Test
    void aClosedParanoidPoolInAStaticFieldDoesNotPinTheLoader() throws Exception {
        WeakReference<ClassLoader> loader = runInALoaderOfItsOwn(StaticPoolApp.class, "PARANOID", false);
        collectUntil(() -> loader.get() == null, 100, "the web application's class loader is still "
                + "reachable after its only pool was closed (library threads: " + libraryThreads() + ")");
    }

    @Test
    void aClosedSampledPoolInAStaticFieldDoesNotPinTheLoader() throws Exception {
        WeakReference<ClassLoader> loader = runInALoaderOfItsOwn(StaticPoolApp.class, "SAMPLED", false);
        collectUntil(() -> loader.get() == null, 100, "the web application's class loader is still "
                + "reachable after its only pool was closed (library threads: " + libraryThreads() + ")");
    }

    private static WeakReference<ClassLoader> runInALoaderOfItsOwn(Class<?> main, String level,
            boolean closeLoader) throws Exception {
        URL[] classes = {ChildJvm.locationOf(Pool.class).toUri().toURL(),
                ChildJvm.locationOf(UndeployAfterCloseTest.class).toUri().toURL()};
        URLClassLoader webApp = new URLClassLoader("web-app-" + main.getSimpleName() + "-" + level, classes,
                ClassLoader.getPlatformClassLoader());
        Class<?> app = webApp.loadClass(main.getName());
        assertNotSame(main, app);
        if (level == null) {
            app.getMethod("run").invoke(null);
        } else {
            app.getMethod("run", String.class).invoke(null, level);
        }
        if (closeLoader) {
            webApp.close(); // what a container does at undeploy
        }
        return new WeakReference<>(webApp);
    }

    static void collectUntil(BooleanSupplier done, long everyMillis, String message) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while (!done.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, message + " within " + DEADLINE_SECONDS + " s");
            System.gc();
            Thread.sleep(everyMillis); // the cadence of collections, bounded by the deadline
        }
    }

    static String libraryThreads() {
        StringBuilder names = new StringBuilder();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(Background.THREAD_PREFIX)) {
                names.append(names.length() == 0 ? "" : ", ").append(t.getName());
                StackTraceElement[] st = t.getStackTrace();
                for (int i = 0; i < Math.min(4, st.length); i++) {
                    names.append(i == 0 ? " at " : " < ").append(st[i].getMethodName()).append(':').append(st[i].getLineNumber());
                }
            }
        }
        return names.length() == 0 ? "none" : names.toString();
    }
}
