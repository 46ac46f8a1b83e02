package io.github.stripedpool.jmx;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Pool;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import org.junit.jupiter.api.Test;

/** A registration closed after its MBean was unregistered by someone else leaves the name to its new owner. */
class PoolJmxNameReuseTest {

    /**
     * close() unregisters by name: once the MBean it registered is gone (unregistered by someone
     * else, which close() documents as tolerated) and another pool took the name, close() removes
     * the other pool's MBean.
     */
    @Test
    void closeUnregistersOnlyTheMBeanItRegistered() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        try (Pool<StringBuilder> first = Pool.builder(StringBuilder::new).name("jmx-reuse").build();
                Pool<StringBuilder> second = Pool.builder(StringBuilder::new).name("jmx-reuse").build()) {
            PoolJmx old = PoolJmx.register(first, server);
            server.unregisterMBean(old.objectName()); // an operator tool, a container's cleanup...
            PoolJmx current = PoolJmx.register(second, server);
            second.acquire();

            old.close();

            assertTrue(server.isRegistered(current.objectName()),
                    "closing the first registration unregistered the second pool's MBean");
            assertEquals(1L, server.getAttribute(current.objectName(), "InUse"));
            current.close();
        }
    }
}
