package io.github.stripedpool.jmx;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.Pool;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicReference;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * PoolJmx.close() leaves alone an MBean that another registration put under the same name since,
 * even one put there between close()'s check that its own MBean is still registered and the
 * server's unregistration, which is by name: close() removed the new one.
 *
 * <p>The window is opened with a delegating MBeanServer: when close() calls unregisterMBean (its
 * MBean seen registered), another thread does what an operator tool and a redeployed application
 * would do, to completion, before the call goes on to the real server.
 */
class PoolJmxCloseRaceTest {

    @Test
    void closeRacingAReRegistrationLeavesTheNewMBeanAlone() throws Exception {
        MBeanServer real = MBeanServerFactory.newMBeanServer();
        AtomicReference<Runnable> beforeUnregister = new AtomicReference<>();
        MBeanServer server = (MBeanServer) Proxy.newProxyInstance(MBeanServer.class.getClassLoader(),
                new Class<?>[] {MBeanServer.class}, (proxy, method, args) -> {
                    if (method.getName().equals("unregisterMBean")) {
                        Runnable r = beforeUnregister.getAndSet(null);
                        if (r != null) {
                            r.run();
                        }
                    }
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try (Pool<StringBuilder> first = Pool.builder(StringBuilder::new).name("jmx-race").build();
                Pool<StringBuilder> second = Pool.builder(StringBuilder::new).name("jmx-race").build()) {
            PoolJmx old = PoolJmx.register(first, server);
            ObjectName name = old.objectName();
            AtomicReference<PoolJmx> current = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            beforeUnregister.set(() -> {
                Thread other = new Thread(() -> {
                    try {
                        real.unregisterMBean(name); // an operator tool, a container's cleanup...
                        current.set(PoolJmx.register(second, real)); // ...and the pool's new registration
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                }, "other-registrar");
                other.start();
                try {
                    other.join();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });

            old.close();

            if (failure.get() != null) {
                throw new AssertionError("the other registrar failed", failure.get());
            }
            try {
                assertTrue(real.isRegistered(name), "closing the old registration unregistered the MBean "
                        + "that another registration put under the same name meanwhile");
            } finally {
                current.get().close();
            }
        }
    }
}
