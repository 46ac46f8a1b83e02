package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import java.lang.ref.WeakReference;
import java.net.URL;
import java.net.URLClassLoader;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library's shared threads once lived as long as the JVM: in an application server, the
 * class loader of the web application that used the library stayed in memory after undeploy,
 * held by the threads of its own copy of the library. Threads must start on demand and end when
 * no pool needs them.
 */
@Timeout(120)
class UndeployTest {

    @Test
    void aClassLoaderThatUsedEveryKindOfPoolCanBeCollectedOnceThePoolsAreClosed() throws Exception {
        WeakReference<ClassLoader> loader = useTheLibraryInALoaderOfItsOwn();
        BackgroundWorkTest.collectUntil(() -> loader.get() == null, "the web application's class "
                + "loader is still reachable after its pools were closed (threads still running: "
                + libraryThreads() + ")");
    }

    /**
     * With Flight Recorder up, the pools also register the periodic statistics event, which
     * Flight Recorder holds strongly: it must go with the last pool.
     */
    @Test
    void aClassLoaderThatUsedThePoolsWhileARecordingRanCanBeCollected() throws Exception {
        try (Recording recording = new Recording()) {
            recording.start();
            WeakReference<ClassLoader> loader = useTheLibraryInALoaderOfItsOwn();
            BackgroundWorkTest.collectUntil(() -> loader.get() == null, "the web application's class "
                    + "loader is still reachable after its pools were closed, a recording running "
                    + "(threads still running: " + libraryThreads() + ")");
        }
    }

    private static WeakReference<ClassLoader> useTheLibraryInALoaderOfItsOwn() throws Exception {
        URL[] classes = {ChildJvm.locationOf(Pool.class).toUri().toURL(),
                ChildJvm.locationOf(UndeployTest.class).toUri().toURL()};
        URLClassLoader webApp = new URLClassLoader("web-app", classes,
                ClassLoader.getPlatformClassLoader());
        Class<?> app = webApp.loadClass(UndeployedApp.class.getName());
        assertNotSame(UndeployedApp.class, app, "the library must be loaded again, by the web app's loader");
        ClassLoader saved = Thread.currentThread().getContextClassLoader();
        Thread.currentThread().setContextClassLoader(webApp);
        try {
            app.getMethod("run").invoke(null);
        } finally {
            Thread.currentThread().setContextClassLoader(saved);
        }
        assertEquals(webApp, app.getClassLoader());
        webApp.close();
        return new WeakReference<>(webApp);
    }

    private static String libraryThreads() {
        StringBuilder names = new StringBuilder();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(Background.THREAD_PREFIX)) {
                names.append(names.length() == 0 ? "" : ", ").append(t.getName());
            }
        }
        return names.length() == 0 ? "none" : names.toString();
    }
}
