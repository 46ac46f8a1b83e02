package io.github.stripedpool.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.testing.StatsCountingPool;
import java.lang.management.ManagementFactory;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import javax.management.ReflectionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class PoolJmxTest {
    private final MBeanServer platform = ManagementFactory.getPlatformMBeanServer();
    private final List<AutoCloseable> cleanup = new ArrayList<>();

    @AfterEach
    void closeEverything() throws Exception {
        for (AutoCloseable c : cleanup) {
            c.close();
        }
    }

    private <T extends AutoCloseable> T closeLater(T c) {
        cleanup.add(0, c); // registrations before their pools
        return c;
    }

    private Pool<StringBuilder> pool(String name) {
        return closeLater(Pool.builder(StringBuilder::new).reset(sb -> sb.setLength(0))
                .name(name).build());
    }

    @Test
    void theMBeanShowsThePoolsFiguresUnderANameDerivedFromThePoolName() throws Exception {
        Pool<StringBuilder> pool = pool("jmx-figures");
        PoolJmx jmx = closeLater(PoolJmx.register(pool));
        ObjectName name = new ObjectName("io.github.stripedpool:type=Pool,name=\"jmx-figures\"");
        assertEquals(name, jmx.objectName());
        assertTrue(platform.isRegistered(name));

        StringBuilder a = pool.acquire();
        StringBuilder b = pool.acquire();
        pool.release(a);
        StringBuilder c = pool.acquire();
        PoolStats s = pool.stats();

        assertEquals("jmx-figures", platform.getAttribute(name, "Name"));
        assertEquals(false, platform.getAttribute(name, "Closed"));
        assertEquals(2L, platform.getAttribute(name, "Created"));
        assertEquals(3L, platform.getAttribute(name, "Acquired"));
        assertEquals(1L, platform.getAttribute(name, "Hits"));
        assertEquals(2L, platform.getAttribute(name, "Misses"));
        assertEquals(2L, platform.getAttribute(name, "InUse"));
        assertEquals(1L, platform.getAttribute(name, "Released"));
        assertEquals(s.idle(), platform.getAttribute(name, "Idle"));
        assertEquals(s.idleCapacity(), platform.getAttribute(name, "IdleCapacity"));
        assertEquals(1.0 / 3, (double) platform.getAttribute(name, "HitRate"), 1e-9);
        assertEquals(s.privateHits(), platform.getAttribute(name, "PrivateHits"));
        assertEquals(s.homeHits(), platform.getAttribute(name, "HomeHits"));

        pool.release(b);
        pool.invalidate(c);
        assertEquals(1L, platform.getAttribute(name, "Invalidated"));
        assertEquals(0L, platform.getAttribute(name, "NotRetained"));
        assertEquals(0L, platform.getAttribute(name, "HeldTooLong"));
        pool.close();
        assertEquals(true, platform.getAttribute(name, "Closed"), "a closed pool still reports");
        assertEquals(2L, platform.getAttribute(name, "Dropped"));
    }

    @Test
    void everyAttributeIsReadOnlyDescribedAndOfItsDeclaredType() throws Exception {
        Pool<StringBuilder> pool = pool("jmx-info");
        ObjectName name = closeLater(PoolJmx.register(pool)).objectName();
        MBeanInfo info = platform.getMBeanInfo(name);
        Map<String, Class<?>> boxes = Map.of("int", Integer.class, "long", Long.class,
                "double", Double.class, "boolean", Boolean.class, "java.lang.String", String.class);
        assertEquals(31, info.getAttributes().length);
        for (MBeanAttributeInfo a : info.getAttributes()) {
            assertTrue(a.isReadable() && !a.isWritable(), a.getName());
            assertFalse(a.getDescription().isBlank(), a.getName());
            Object value = platform.getAttribute(name, a.getName());
            assertEquals(boxes.get(a.getType()), value.getClass(), a.getName());
        }
        assertEquals(0, info.getOperations().length, "nothing can change a pool through JMX");

        assertThrows(AttributeNotFoundException.class,
                () -> platform.setAttribute(name, new Attribute("Idle", 5)));
        assertThrows(AttributeNotFoundException.class, () -> platform.getAttribute(name, "Nope"));
        assertThrows(ReflectionException.class,
                () -> platform.invoke(name, "close", new Object[0], new String[0]));
        assertFalse(pool.isClosed());
    }

    @Test
    void oneRequestForManyAttributesTakesOneSnapshotAndRegisteringTakesNone() throws Exception {
        StatsCountingPool<StringBuilder> pool = closeLater(new StatsCountingPool<>(pool("jmx-snapshot")));
        ObjectName name = closeLater(PoolJmx.register(pool)).objectName();
        assertEquals(0, pool.snapshots(), "registering must not read the pool");
        String[] all = {"Created", "Acquired", "Released", "InUse", "Idle", "Unknown"};
        AttributeList values = platform.getAttributes(name, all);
        assertEquals(5, values.size(), "an unknown name is left out");
        assertEquals(1, pool.snapshots(), "one snapshot for the whole request");
    }

    @Test
    void anyPoolNameGivesAValidObjectNameThatUnquotesToThePoolName() throws Exception {
        String nasty = "a,b=c:d*e?f\"g\\h type=Pool,name=x";
        Pool<StringBuilder> pool = pool(nasty);
        PoolJmx jmx = closeLater(PoolJmx.register(pool));
        ObjectName name = jmx.objectName();
        assertFalse(name.isPattern(), name.toString());
        assertEquals(PoolJmx.DOMAIN, name.getDomain());
        assertEquals("Pool", name.getKeyProperty("type"));
        assertEquals(nasty, ObjectName.unquote(name.getKeyProperty("name")));
        assertEquals(2, name.getKeyPropertyList().size());
        assertEquals(nasty, platform.getAttribute(name, "Name"));
        assertEquals(name, PoolJmx.objectName(nasty));
    }

    @Test
    void twoPoolsOfOneNameAreRejectedWithAMessageThatSaysWhatToDo() throws Exception {
        Pool<StringBuilder> first = pool("jmx-twin");
        Pool<StringBuilder> second = pool("jmx-twin");
        PoolJmx jmx = PoolJmx.register(first);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> PoolJmx.register(second));
        assertTrue(e.getMessage().contains("name=\"jmx-twin\""), e.getMessage());
        assertTrue(e.getMessage().contains("PoolBuilder.name("), e.getMessage());
        assertThrows(IllegalStateException.class, () -> PoolJmx.register(first),
                "the same pool twice");
        assertEquals("jmx-twin", platform.getAttribute(jmx.objectName(), "Name"));

        jmx.close();
        PoolJmx again = closeLater(PoolJmx.register(second)); // the name is free again
        second.acquire();
        assertEquals(1L, platform.getAttribute(again.objectName(), "InUse"), "the second pool's MBean");
    }

    @Test
    void closeUnregistersOnceAndToleratesAnMBeanUnregisteredByOthers() throws Exception {
        Pool<StringBuilder> pool = pool("jmx-close");
        PoolJmx jmx = PoolJmx.register(pool);
        jmx.close();
        assertFalse(platform.isRegistered(jmx.objectName()));
        jmx.close(); // idempotent

        PoolJmx other = PoolJmx.register(pool);
        platform.unregisterMBean(other.objectName());
        other.close(); // not an error
        assertTrue(other.toString().contains("closed"), other.toString());
    }

    @Test
    void onceClosedTheRegistrationNoLongerKeepsThePoolReachable() throws Exception {
        WeakReference<Pool<StringBuilder>> ref = registerAndCloseAnUnreferencedPool();
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (ref.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(null, ref.get(), "the MBean server still holds the pool after close(): an "
                + "undeployed application's classes would stay in memory");
    }

    private static WeakReference<Pool<StringBuilder>> registerAndCloseAnUnreferencedPool() {
        Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).name("jmx-undeploy").build();
        PoolJmx jmx = PoolJmx.register(pool);
        pool.release(pool.acquire());
        pool.close();
        jmx.close();
        return new WeakReference<>(pool);
    }

    @Test
    void aServerOfTheApplicationsChoiceIsUsedAndThePlatformOneLeftAlone() throws Exception {
        Pool<StringBuilder> pool = pool("jmx-own-server");
        MBeanServer own = MBeanServerFactory.newMBeanServer();
        PoolJmx jmx = closeLater(PoolJmx.register(pool, own));
        assertTrue(own.isRegistered(jmx.objectName()));
        assertFalse(platform.isRegistered(jmx.objectName()));
        assertEquals(0L, own.getAttribute(jmx.objectName(), "Created"));
    }

    @Test
    void nullArgumentsAreRejectedWithAMessage() {
        Pool<StringBuilder> pool = pool("jmx-null");
        NullPointerException e = assertThrows(NullPointerException.class, () -> PoolJmx.register(null));
        assertTrue(e.getMessage().contains("pool is null"), e.getMessage());
        e = assertThrows(NullPointerException.class, () -> PoolJmx.register(pool, null));
        assertTrue(e.getMessage().contains("register(pool)"), e.getMessage());
        assertThrows(NullPointerException.class, () -> PoolJmx.objectName(null));
    }
}
