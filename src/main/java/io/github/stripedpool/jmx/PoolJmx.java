package io.github.stripedpool.jmx;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;
import java.lang.management.ManagementFactory;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import javax.management.MBeanServer;
import javax.management.ObjectName;

/*
 * Implementation note: this class names javax.management types only in signatures and fields,
 * never in a catch clause or a cast, so that the JVM can load and verify it without the module
 * java.management; the JMX calls live in PoolMBean, loaded only after requireJmx() passed.
 */

/**
 * A pool's statistics as a JMX MBean, registered on request and unregistered by
 * {@link #close()}.
 *
 * <pre>{@code
 * PoolJmx jmx = PoolJmx.register(pool);   // io.github.stripedpool:type=Pool,name="buffers"
 * ...
 * jmx.close();                            // unregisters, before pool.close()
 * }</pre>
 *
 * <p>The MBean has one read-only attribute per figure of {@link io.github.stripedpool.PoolStats}
 * ({@code Idle}, {@code InUse}, {@code Created}, {@code HitRate}...), each described in the
 * MBean's info, so JConsole, VisualVM or a JMX exporter show them without this library on their
 * class path. It has no operations: nothing can change or close a pool through JMX.
 *
 * <p>Registering costs the pool nothing: the MBean reads the pool only when a client asks, with
 * one {@link Pool#stats()} snapshot for all attributes read in one request, so the figures of
 * one request agree with each other. The snapshot visits every stripe and thread-private slot of
 * the pool; it never takes a lock of the acquire and release paths.
 *
 * <p>The MBean server holds the MBean, and the MBean holds the pool, until {@link #close()}: an
 * application that is undeployed must close its registrations (a container bean's destroy
 * method, see {@code docs/which-pool.md}), or the server keeps the application's classes alive.
 *
 * <p>Needs the module {@code java.management}, which every full JDK has. On the module path it
 * is optional for this library: an application that uses JMX requires it, or runs with
 * {@code --add-modules java.management}; {@link #register(Pool)} says so when it is missing.
 */
public final class PoolJmx implements AutoCloseable {
    /** The domain of every pool's {@link ObjectName}. */
    public static final String DOMAIN = "io.github.stripedpool";

    private final MBeanServer server;
    private final ObjectName name;
    /** The MBean registered, which knows whether the server still holds it. */
    private final PoolMBean mbean;
    private final AtomicBoolean closed = new AtomicBoolean();

    private PoolJmx(MBeanServer server, PoolMBean mbean) {
        this.server = server;
        this.name = mbean.name;
        this.mbean = mbean;
    }

    /**
     * Registers an MBean for {@code pool} with the platform MBean server, under
     * {@link #objectName(String) objectName(pool.name())}.
     *
     * @param pool the pool to expose
     * @return the registration; {@link #close()} it when the pool is closed
     * @throws NullPointerException if {@code pool} is null
     * @throws IllegalStateException if an MBean of that name is registered already (two pools of
     *         the same name, or the same pool twice), or if the module {@code java.management}
     *         is not available
     */
    public static PoolJmx register(Pool<?> pool) {
        Objects.requireNonNull(pool, "pool is null: pass the pool to expose through JMX");
        requireJmx();
        return register(pool, ManagementFactory.getPlatformMBeanServer());
    }

    /**
     * Registers an MBean for {@code pool} with {@code server}, under
     * {@link #objectName(String) objectName(pool.name())}.
     *
     * @param pool the pool to expose
     * @param server the MBean server to register with
     * @return the registration; {@link #close()} it when the pool is closed
     * @throws NullPointerException if {@code pool} or {@code server} is null
     * @throws IllegalStateException if an MBean of that name is registered already (two pools of
     *         the same name, or the same pool twice)
     */
    public static PoolJmx register(Pool<?> pool, MBeanServer server) {
        Objects.requireNonNull(pool, "pool is null: pass the pool to expose through JMX");
        Objects.requireNonNull(server, "server is null: pass an MBeanServer, or call "
                + "register(pool) for the platform MBean server");
        return new PoolJmx(server, PoolMBean.register(pool, server));
    }

    /**
     * The name a pool's MBean is registered under: {@value #DOMAIN}{@code :type=Pool,name=}
     * followed by the pool's name quoted by {@link ObjectName#quote(String)}, so that any pool
     * name is safe (commas, colons, quotes, asterisks...). {@code ObjectName.unquote} of the
     * key {@code name} gives the pool's name back.
     *
     * @param poolName a pool's {@link Pool#name() name}
     * @return the object name of that pool's MBean
     * @throws NullPointerException if {@code poolName} is null
     * @see PoolBuilder#name(String)
     */
    public static ObjectName objectName(String poolName) {
        Objects.requireNonNull(poolName, "poolName is null: pass the name of a pool");
        return PoolMBean.objectName(poolName);
    }

    /**
     * The name the MBean was registered under.
     *
     * @return the object name
     */
    public ObjectName objectName() {
        return name;
    }

    /**
     * Unregisters the MBean. Idempotent; an MBean that someone else unregistered already is not
     * an error, and an MBean that another registration put under the same name since is left
     * alone.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        PoolMBean.unregister(server, mbean);
    }

    @Override
    public String toString() {
        return "PoolJmx[" + name + (closed.get() ? ", closed" : "") + "]";
    }

    /**
     * Fails with a message that says what to add when the runtime or the module graph lacks
     * java.management, instead of a NoClassDefFoundError from the first JMX class used.
     */
    private static void requireJmx() {
        try {
            Class.forName("javax.management.ObjectName", false, PoolJmx.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException("JMX is not available: the module java.management "
                    + "is not resolved. Add 'requires java.management;' to your module-info.java "
                    + "or run with --add-modules java.management (a jlink image needs it added "
                    + "with --add-modules too)", e);
        }
    }
}
