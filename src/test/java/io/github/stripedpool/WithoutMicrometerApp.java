package io.github.stripedpool;

import io.github.stripedpool.jmx.PoolJmx;
import java.time.Duration;

/**
 * Uses every kind of pool, and its JMX MBean, in a JVM whose class path has the library and its
 * tests but not Micrometer; run by {@link WithoutMicrometerTest}. Exits non-zero on any failure.
 */
final class WithoutMicrometerApp {
    private WithoutMicrometerApp() {
    }

    public static void main(String[] args) {
        try {
            Class.forName("io.micrometer.core.instrument.MeterRegistry");
            throw new AssertionError("Micrometer is on the class path: the check proves nothing");
        } catch (ClassNotFoundException expected) {
            // as intended
        }
        try (Pool<StringBuilder> unbounded = Pool.builder(StringBuilder::new).name("plain").build();
                Pool<StringBuilder> bounded = Pool.builder(StringBuilder::new).maxTotal(2)
                        .acquireTimeout(Duration.ofSeconds(5)).name("bounded").build();
                Pool<StringBuilder> tracked = Pool.builder(StringBuilder::new)
                        .leakDetection(LeakDetection.PARANOID).name("tracked").build()) {
            for (Pool<StringBuilder> pool : java.util.List.of(unbounded, bounded, tracked)) {
                try (PoolJmx jmx = PoolJmx.register(pool)) {
                    pool.release(pool.acquire());
                    try (Lease<StringBuilder> lease = pool.lease()) {
                        lease.get().append('x');
                    }
                    PoolStats s = pool.stats();
                    if (s.acquired() != 2 || s.released() != 2 || s.inUse() != 0) {
                        throw new AssertionError("wrong figures: " + s);
                    }
                    Object created = java.lang.management.ManagementFactory.getPlatformMBeanServer()
                            .getAttribute(jmx.objectName(), "Created");
                    if (!Long.valueOf(s.created()).equals(created)) {
                        throw new AssertionError("MBean says " + created + ", stats say " + s);
                    }
                } catch (javax.management.JMException e) {
                    throw new AssertionError(e);
                }
            }
        }
        try {
            Class.forName("io.github.stripedpool.micrometer.PoolMetrics");
            throw new AssertionError("PoolMetrics loaded without Micrometer");
        } catch (ClassNotFoundException | LinkageError expected) {
            // only the binder needs Micrometer
        }
        System.out.println("WITHOUT-MICROMETER-OK");
    }
}
