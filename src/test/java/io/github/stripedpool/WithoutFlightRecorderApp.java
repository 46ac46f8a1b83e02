package io.github.stripedpool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * Every path that records a Flight Recorder event, in a JVM without the module {@code jdk.jfr}
 * ({@code --limit-modules java.base}; {@link FlightRecorderStartTest}): pools of both engines
 * are built, used, fail to create, wait, leak and close, twice, and must work as anywhere else.
 * Uses no {@code jdk.jfr} type itself; {@link FlightRecorderStartApp} runs the same paths. Prints {@link #DONE} at the end; any failed check throws.
 */
public final class WithoutFlightRecorderApp {
    static final String DONE = "without-flight-recorder: done";

    private WithoutFlightRecorderApp() {
    }

    public static void main(String[] args) throws Exception {
        for (int round = 0; round < 2; round++) {
            List<LeakReport> leaks = new CopyOnWriteArrayList<>();
            try (Pool<Object> stats = Pool.builder(Object::new).name("plain").build();
                 Pool<Object> failing = Pool.builder(() -> {
                     throw new IllegalStateException("no connection");
                 }).name("failing").build();
                 Pool<Object> bounded = Pool.builder(Object::new).name("bounded").maxTotal(1).build();
                 Pool<Object> tracked = Pool.builder(Object::new).name("tracked")
                         .leakDetection(LeakDetection.PARANOID).onLeak(leaks::add).build()) {
                everyEventsPath(stats, failing, bounded, tracked, leaks);
                if (FlightRecorderEvents.available()) {
                    throw new AssertionError("the library found a usable jdk.jfr where there is none");
                }
            }
        }
        System.out.println(DONE);
    }

    /** A statistics-bearing acquisition, a factory failure, a timed-out wait and a leak. */
    static void everyEventsPath(Pool<Object> stats, Pool<Object> failing, Pool<Object> bounded,
            Pool<Object> tracked, List<LeakReport> leaks) throws InterruptedException {
        stats.release(stats.acquire());
        try {
            failing.acquire();
            throw new AssertionError("the failing factory made an object");
        } catch (ObjectCreationException expected) {
            // recorded as a factory failure
        }
        Object only = bounded.acquire();
        try {
            bounded.acquire(Duration.ofMillis(5));
            throw new AssertionError("a second object of a pool of one");
        } catch (PoolTimeoutException expected) {
            // recorded as a wait
        } finally {
            bounded.release(only);
        }
        int before = leaks.size();
        leak(tracked);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (leaks.size() == before) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("a dropped object was not reported within 30 s");
            }
            System.gc();
            Thread.sleep(10);
        }
    }

    /** Acquires an object and drops it, in a frame of its own that ends. */
    private static void leak(Pool<Object> tracked) {
        tracked.acquire();
    }
}
