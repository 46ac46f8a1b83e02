package io.github.stripedpool.integration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.micrometer.PoolMetrics;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.lang.management.ManagementFactory;
import java.util.zip.Deflater;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.jboss.weld.environment.se.Weld;
import org.jboss.weld.environment.se.WeldContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;

/**
 * The container snippets of docs/which-pool.md, run in the containers they are written for: the
 * pool is built once, used, and closed with its MBean and meters when the container stops, with
 * every object destroyed.
 */
@Timeout(120)
class ContainerLifecycleTest {
    private static final MBeanServer PLATFORM = ManagementFactory.getPlatformMBeanServer();

    @Test
    void spring_closesThePoolAfterItsMeterBinderAndMBean() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        Pool<Deflater> pool;
        ObjectName mbean;
        try (AnnotationConfigApplicationContext context =
                new AnnotationConfigApplicationContext(SpringPoolConfig.class)) {
            @SuppressWarnings("unchecked")
            Pool<Deflater> bean = context.getBean(Pool.class);
            pool = bean;
            context.getBean(PoolMetrics.class).bindTo(registry); // what Spring Boot does
            mbean = context.getBean(io.github.stripedpool.jmx.PoolJmx.class).objectName();
            assertTrue(PLATFORM.isRegistered(mbean));
            assertFalse(registry.getMeters().isEmpty());
            compressWith(pool);
            assertFalse(pool.isClosed());
        }
        assertClosedAndEmpty(pool);
        assertFalse(PLATFORM.isRegistered(mbean), "the MBean outlived the context");
        assertTrue(registry.getMeters().isEmpty(), "the meters outlived the context: " + registry.getMeters());
    }

    @Test
    void cdi_preDestroyClosesThePoolAndItsMBean() throws Exception {
        Pool<Deflater> pool;
        ObjectName mbean = io.github.stripedpool.jmx.PoolJmx.objectName("deflaters");
        try (WeldContainer container = new Weld().disableDiscovery()
                .addBeanClass(CdiDeflaters.class).initialize()) {
            pool = container.select(CdiDeflaters.class).get().pool();
            assertTrue(PLATFORM.isRegistered(mbean), "the bean's MBean is not registered as " + mbean);
            compressWith(pool);
        }
        assertClosedAndEmpty(pool);
        assertFalse(PLATFORM.isRegistered(mbean), "the MBean outlived the container");
    }

    private static void compressWith(Pool<Deflater> pool) {
        Deflater d = pool.acquire();
        try {
            d.setInput(new byte[1000]);
            d.finish();
            byte[] out = new byte[100];
            assertTrue(d.deflate(out) > 0);
        } finally {
            pool.release(d);
        }
    }

    private static void assertClosedAndEmpty(Pool<Deflater> pool) {
        assertTrue(pool.isClosed(), "the container did not close the pool");
        PoolStats s = pool.stats();
        assertEquals(s.created(), s.dropped(), "an object was not destroyed: " + s);
        assertEquals(0, s.inUse(), s.toString());
    }
}
