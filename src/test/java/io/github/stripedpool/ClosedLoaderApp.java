package io.github.stripedpool;

/**
 * The simplest web application: one unbounded pool with default settings, used by a request
 * and closed at undeploy. Loaded in a class loader of its own by {@link UndeployAfterCloseTest}.
 */
public final class ClosedLoaderApp {
    private ClosedLoaderApp() {
    }

    public static void run() {
        try (Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).name("plain").build()) {
            for (int i = 0; i < 100; i++) {
                pool.release(pool.acquire());
            }
        }
    }
}
