package io.github.stripedpool;

import java.time.Duration;

/**
 * What a web application does with the library before it is undeployed: builds pools of every
 * kind, uses them so that every background thread starts, and closes them. {@link UndeployTest}
 * loads this class and the library in a class loader of their own, calls {@link #run}, and then
 * checks that the loader can be collected: no thread of the library may outlive the pools.
 */
public final class UndeployedApp {
    private UndeployedApp() {
    }

    /** Builds, uses and closes one pool of each kind; returns once all are closed. */
    public static void run() throws InterruptedException {
        try (Pool<StringBuilder> unbounded = Pool.builder(StringBuilder::new).name("app-unbounded")
                .agingInterval(Duration.ZERO).destroy(sb -> sb.setLength(0)).build();
             Pool<StringBuilder> bounded = Pool.builder(StringBuilder::new).name("app-bounded")
                     .maxTotal(4).minIdle(1).maxIdleTime(Duration.ofMillis(20)).build();
             Pool<StringBuilder> tracked = Pool.builder(StringBuilder::new).name("app-tracked")
                     .leakDetection(LeakDetection.PARANOID).build()) {
            for (int i = 0; i < 100; i++) {
                unbounded.release(unbounded.acquire());
                bounded.release(bounded.acquire());
                tracked.release(tracked.acquire());
            }
            System.gc(); // the aging clock wakes
            Thread.sleep(50); // the maintenance timer runs a few times
        }
    }
}
