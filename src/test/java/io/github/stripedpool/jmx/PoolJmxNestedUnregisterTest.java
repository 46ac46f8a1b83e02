package io.github.stripedpool.jmx;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.stripedpool.Pool;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.MBeanServerDelegate;
import javax.management.MBeanServerFactory;
import javax.management.MBeanServerNotification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * A listener of the server's unregistration notifications that unregisters another pool's MBean
 * (a nested PoolJmx.close(), say) is not vetoed: the veto is for another pool's MBean under the
 * same name only.
 */
class PoolJmxNestedUnregisterTest {

    @Test
    void anUnregisterOfAnotherPoolsMBeanFromAnUnregistrationListenerIsNotVetoed() throws Exception {
        MBeanServer server = MBeanServerFactory.newMBeanServer();
        try (Pool<StringBuilder> a = Pool.builder(StringBuilder::new).name("jmx-a").build();
                Pool<StringBuilder> b = Pool.builder(StringBuilder::new).name("jmx-b").build()) {
            PoolJmx ja = PoolJmx.register(a, server);
            PoolJmx jb = PoolJmx.register(b, server);
            ObjectName nameA = ja.objectName();
            ObjectName nameB = jb.objectName();
            AtomicReference<Throwable> listenerFailed = new AtomicReference<>();
            NotificationListener cleanup = (n, handback) -> {
                if (n instanceof MBeanServerNotification
                        && MBeanServerNotification.UNREGISTRATION_NOTIFICATION.equals(n.getType())
                        && nameA.equals(((MBeanServerNotification) n).getMBeanName())) {
                    try {
                        server.unregisterMBean(nameB); // A is gone: its companion goes too
                    } catch (Throwable t) {
                        listenerFailed.set(t);
                    }
                }
            };
            server.addNotificationListener(MBeanServerDelegate.DELEGATE_NAME, cleanup, null, null);
            ja.close();
            assertNull(listenerFailed.get(), () -> "the listener's unregister of " + nameB + " was vetoed: "
                    + listenerFailed.get() + (listenerFailed.get().getCause() == null ? ""
                            : " caused by " + listenerFailed.get().getCause()));
            assertFalse(server.isRegistered(nameB));
            jb.close();
        }
    }
}
