package io.github.stripedpool;

/**
 * A web application as many are written: its pool lives in a static field, is used, and is
 * closed when the application stops (a ServletContextListener's contextDestroyed). Loaded by
 * {@link UndeployAfterCloseTest} in a class loader of its own, with the library.
 */
public final class StaticPoolApp {
    /** The application's pool, as a servlet keeps it. */
    static Pool<StringBuilder> POOL;

    private StaticPoolApp() {
    }

    /** contextInitialized, a request, contextDestroyed: the pool is built, used and closed. */
    public static void run(String level) {
        POOL = Pool.builder(StringBuilder::new).name("static-" + level)
                .leakDetection(LeakDetection.valueOf(level)).build();
        for (int i = 0; i < 100; i++) {
            POOL.release(POOL.acquire());
        }
        POOL.close();
    }
}
