package io.github.stripedpool.jmx;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.AttributeNotFoundException;
import javax.management.DynamicMBean;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanInfo;
import javax.management.MBeanNotificationInfo;
import javax.management.MBeanOperationInfo;
import javax.management.MBeanRegistration;
import javax.management.MBeanRegistrationException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import javax.management.ReflectionException;

/**
 * The MBean of one pool: read-only attributes over {@link Pool#stats()}.
 *
 * <p>A dynamic MBean rather than a standard one for two reasons: {@link #getAttributes} reads
 * every attribute a client asks for from one snapshot (a standard MBean would call a getter, and
 * take a snapshot, per attribute), and the attribute table below is the only place that reads
 * {@link PoolStats}, so the public API needs no MBean interface.
 *
 * <p>It knows whether it is registered ({@link MBeanRegistration}): the server calls
 * {@link #postRegister} and {@link #postDeregister} whoever registers or unregisters it, so that
 * {@link #unregister} removes this MBean only, never another one registered under its name after
 * someone else unregistered it; and another pool's MBean registered under the name at the last
 * moment vetoes that removal in its {@link #preDeregister}.
 */
final class PoolMBean implements DynamicMBean, MBeanRegistration {
    /** Every attribute, in the order clients list them: name, JMX type, description, value. */
    private static final Map<String, Row> ROWS;

    static {
        Map<String, Row> rows = new LinkedHashMap<>();
        row(rows, "Name", "java.lang.String", "The pool's name", PoolStats::name);
        row(rows, "Closed", "boolean", "Whether the pool was closed", PoolStats::isClosed);
        row(rows, "Idle", "int", "Idle objects ready for reuse", PoolStats::idle);
        row(rows, "InUse", "long", "Objects acquired and not yet released", PoolStats::inUse);
        row(rows, "IdleCapacity", "int", "The most idle objects the pool keeps", PoolStats::idleCapacity);
        row(rows, "Acquired", "long", "Successful acquisitions", PoolStats::acquired);
        row(rows, "Hits", "long", "Acquisitions served by an idle object", PoolStats::hits);
        row(rows, "Misses", "long", "Acquisitions that called the factory", PoolStats::misses);
        row(rows, "HitRate", "double", "Hits divided by acquisitions, from 0 to 1", PoolStats::hitRate);
        row(rows, "PrivateHits", "long", "Hits from the calling thread's private slot",
                PoolStats::privateHits);
        row(rows, "HomeHits", "long", "Hits from the calling thread's home stripe",
                PoolStats::homeHits);
        row(rows, "StolenHits", "long", "Hits stolen from another stripe", PoolStats::stolenHits);
        row(rows, "VictimHits", "long", "Hits on objects that had survived an aging cycle idle",
                PoolStats::victimHits);
        row(rows, "Released", "long", "Calls to release", PoolStats::released);
        row(rows, "Created", "long", "Objects made by the factory", PoolStats::created);
        row(rows, "Dropped", "long", "Objects passed to the destroy hook", PoolStats::dropped);
        row(rows, "HookFailures", "long", "Reset and destroy hooks that threw",
                PoolStats::hookFailures);
        row(rows, "Invalidated", "long", "Objects given back with invalidate and destroyed",
                PoolStats::invalidated);
        row(rows, "NotRetained", "long", "Released objects the retainIf predicate refused, destroyed",
                PoolStats::notRetained);
        row(rows, "AgingCycles", "long", "Aging cycles run", PoolStats::agingCycles);
        row(rows, "Trims", "long", "Collections after which the heap was short and the pool "
                + "gave idle objects back at once", PoolStats::trims);
        row(rows, "Leaks", "long", "Objects reported as leaked", PoolStats::leaks);
        row(rows, "MaxTotal", "int", "The cap of a bounded pool, 0 if unbounded", PoolStats::maxTotal);
        row(rows, "WaitingNow", "int", "Threads waiting in acquire now (bounded pools)",
                PoolStats::waitingNow);
        row(rows, "Waits", "long", "Acquisitions that waited (bounded pools)", PoolStats::waits);
        row(rows, "WaitNanosTotal", "long", "Total time waited, in nanoseconds (bounded pools)",
                PoolStats::waitNanosTotal);
        row(rows, "WaitNanosMax", "long", "Longest wait, in nanoseconds (bounded pools)",
                PoolStats::waitNanosMax);
        row(rows, "Timeouts", "long", "Acquisitions that timed out (bounded pools)",
                PoolStats::timeouts);
        row(rows, "CreationsFailed", "long", "Factory calls that failed (bounded pools)",
                PoolStats::creationsFailed);
        row(rows, "MaintenanceRuns", "long", "Maintenance runs (bounded pools)",
                PoolStats::maintenanceRuns);
        row(rows, "HeldTooLong", "long", "Borrowings reported as held too long (bounded pools)",
                PoolStats::heldTooLong);
        ROWS = Collections.unmodifiableMap(rows);
    }

    private static final MBeanInfo INFO = new MBeanInfo(PoolMBean.class.getName(),
            "Statistics of an io.github.stripedpool pool, read from one snapshot per request",
            ROWS.entrySet().stream()
                    .map(e -> new MBeanAttributeInfo(e.getKey(), e.getValue().type(),
                            e.getValue().description(), true, false, false))
                    .toArray(MBeanAttributeInfo[]::new),
            null, new MBeanOperationInfo[0], new MBeanNotificationInfo[0]);

    private final Pool<?> pool;
    /** The name it is registered under. */
    final ObjectName name;

    PoolMBean(Pool<?> pool, ObjectName name) {
        this.pool = pool;
        this.name = name;
    }

    @Override
    public Object getAttribute(String attribute) throws AttributeNotFoundException {
        Row row = ROWS.get(attribute);
        if (row == null) {
            throw new AttributeNotFoundException("no attribute " + attribute + ": the attributes "
                    + "are " + ROWS.keySet());
        }
        return row.value().apply(pool.stats());
    }

    @Override
    public AttributeList getAttributes(String[] attributes) {
        AttributeList list = new AttributeList();
        PoolStats stats = pool.stats(); // one snapshot: the figures of one request agree
        for (String a : attributes) {
            Row row = ROWS.get(a);
            if (row != null) { // unknown names are left out, as the JMX contract says
                list.add(new Attribute(a, row.value().apply(stats)));
            }
        }
        return list;
    }

    @Override
    public void setAttribute(Attribute attribute) throws AttributeNotFoundException {
        throw new AttributeNotFoundException("attribute " + attribute.getName()
                + " is read-only: a pool's settings are fixed when it is built");
    }

    @Override
    public AttributeList setAttributes(AttributeList attributes) {
        return new AttributeList(); // none set: every attribute is read-only
    }

    @Override
    public Object invoke(String actionName, Object[] params, String[] signature)
            throws ReflectionException {
        throw new ReflectionException(new NoSuchMethodException(actionName),
                "a pool's MBean has no operations: nothing can change or close a pool through JMX");
    }

    @Override
    public MBeanInfo getMBeanInfo() {
        return INFO;
    }

    /** Whether the server holds this MBean: set by the server's registration callbacks. */
    private volatile boolean registered;

    @Override
    public ObjectName preRegister(MBeanServer server, ObjectName name) {
        return name;
    }

    @Override
    public void postRegister(Boolean registrationDone) {
        registered = Boolean.TRUE.equals(registrationDone);
    }

    /**
     * The MBean the calling thread's {@link #unregister} means to remove, set around its call to
     * the server, which calls {@link #preDeregister} of the MBean registered under the name then,
     * on the same thread.
     */
    private static final ThreadLocal<PoolMBean> LEAVING = new ThreadLocal<>();

    /** Vetoes {@link #unregister}'s removal of another MBean than the one it meant. */
    private static final class NotTheOneMeant extends Exception {
        private static final long serialVersionUID = 1L;

        NotTheOneMeant(ObjectName name) {
            super(name + " is another pool's MBean now, registered since: left alone", null, false, false);
        }
    }

    @Override
    public void preDeregister() throws NotTheOneMeant {
        PoolMBean meant = LEAVING.get();
        if (meant != null && meant != this && meant.name.equals(name)) {
            // Another pool's MBean under the name meant: registered since the caller's check.
            // An unregistration of another name on this thread (a notification listener's,
            // nested in the caller's) is not the caller's business.
            throw new NotTheOneMeant(name);
        }
    }

    @Override
    public void postDeregister() {
        registered = false;
    }

    /** Registers an MBean for {@code pool} with {@code server}; returns it. */
    static PoolMBean register(Pool<?> pool, MBeanServer server) {
        ObjectName name = objectName(pool.name());
        PoolMBean mbean = new PoolMBean(pool, name);
        try {
            server.registerMBean(mbean, name);
        } catch (InstanceAlreadyExistsException e) {
            throw new IllegalStateException("an MBean named " + name + " is registered already: "
                    + "give each pool a unique name with PoolBuilder.name(...), or close the "
                    + "PoolJmx of the other pool first", e);
        } catch (JMException e) {
            // Not compliant, or a registration hook threw: neither can happen with this class.
            throw new IllegalStateException("could not register " + name + ": " + e, e);
        }
        return mbean;
    }

    /**
     * Unregisters {@code mbean} if the server still holds it; one
     * that someone else unregistered already is not an error, and whatever was registered under
     * the name since is left alone: a pool's MBean is vetoed by {@link #preDeregister}, even one
     * registered between the check of {@link #registered} and the server's call (the server
     * removes by name).
     */
    static void unregister(MBeanServer server, PoolMBean mbean) {
        ObjectName name = mbean.name;
        if (!mbean.registered) {
            return; // unregistered by someone else: the name may be another MBean's now
        }
        PoolMBean outer = LEAVING.get(); // an unregistration this one is nested in, if any
        LEAVING.set(mbean);
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException e) {
            // Unregistered by someone else: the end state is the one asked for.
        } catch (MBeanRegistrationException e) {
            if (!(e.getTargetException() instanceof NotTheOneMeant)) {
                throw new IllegalStateException("could not unregister " + name + ": " + e, e);
            }
            // Another pool's MBean under the name: unregistered by someone else meanwhile.
        } catch (JMException e) {
            throw new IllegalStateException("could not unregister " + name + ": " + e, e);
        } finally {
            if (outer == null) {
                LEAVING.remove();
            } else {
                LEAVING.set(outer);
            }
        }
    }

    /** See {@link PoolJmx#objectName(String)}. */
    static ObjectName objectName(String poolName) {
        try {
            return new ObjectName(PoolJmx.DOMAIN + ":type=Pool,name=" + ObjectName.quote(poolName));
        } catch (MalformedObjectNameException e) {
            throw new AssertionError("a quoted value is always a valid key property", e);
        }
    }

    private static void row(Map<String, Row> rows, String name, String type, String description,
            Function<PoolStats, Object> value) {
        rows.put(name, new Row(type, description, value));
    }

    private record Row(String type, String description, Function<PoolStats, Object> value) {
    }
}
