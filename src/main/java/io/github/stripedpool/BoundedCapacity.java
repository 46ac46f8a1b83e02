package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The capacity of one {@link BoundedPool}: how many of its {@code maxTotal} units are taken, the
 * creation of an object with a unit, and the return of a unit when an object is destroyed or its
 * creation fails. Owns the pool's {@link BoundedEntryTable} and {@link BoundedIndex}.
 *
 * <p>Accounting. {@link #live} counts entries that are not FREE plus units reserved for a
 * creator that has not claimed its entry yet; a unit is reserved by CAS only while
 * {@code live < maxTotal}, so {@code live} never exceeds it. An entry is claimed only after a
 * unit is reserved and made FREE before its unit is given back, so a creator always finds a FREE
 * entry (or the table grows to make one). At every quiescent point: created - dropped == live ==
 * idle + in use &lt;= maxTotal. The factory runs with a unit and a RESERVED entry, outside any
 * lock; if it throws or returns null, the entry is made FREE and the unit given back before the
 * caller sees the failure, so no failure can keep a unit. An object enters the index before it
 * is handed out and leaves it before its entry is FREE (see {@link BoundedIndex}).
 *
 * <p>Freed capacity and waiters. A unit given back goes to the oldest waiter, as a permit to
 * create, or else to {@link #live}; the two sides form a Dekker pair with a waiter that queues
 * meanwhile: the giver decrements {@code live} (volatile) and then reads the queue's size
 * (volatile), the waiter writes the size and then tries to reserve. If the giver sees the
 * waiter, it reserves a unit back and hands it over, so a waiter never sleeps next to a free
 * unit; if the waiter is not seen, its own reservation finds the unit.
 */
final class BoundedCapacity {
    private final BoundedPool<?> pool;
    private final String name;
    private final Supplier<?> factory;
    final int maxTotal;
    final BoundedEntryTable table;
    final BoundedIndex index = new BoundedIndex();
    private final BoundedWaitQueue waitQueue;
    private final BoundedThreads threads;
    private final BoundedMaintenance maintenance;
    private final AtomicInteger live = new AtomicInteger();
    private final AtomicLong creationsFailed = new AtomicLong();

    BoundedCapacity(BoundedPool<?> pool, Supplier<?> factory, int maxTotal, int stripes,
            BoundedWaitQueue waitQueue, BoundedThreads threads, BoundedMaintenance maintenance) {
        this.pool = pool;
        this.name = pool.name();
        this.factory = factory;
        this.maxTotal = maxTotal;
        this.table = new BoundedEntryTable(maxTotal, stripes);
        this.waitQueue = waitQueue;
        this.threads = threads;
        this.maintenance = maintenance;
    }

    /** Reserves one unit of capacity, if {@code live < maxTotal}. */
    boolean tryReserve() {
        final AtomicInteger live = this.live;
        for (int c = live.get(); c < maxTotal; c = live.get()) {
            if (live.compareAndSet(c, c + 1)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Runs the factory for the RESERVED entry {@code e}, with a unit the caller holds; frees the
     * entry and gives the unit back if that fails.
     */
    Object make(BoundedEntry e) {
        Object x;
        try {
            x = factory.get();
        } catch (Throwable t) {
            creationFailed(e);
            FlightRecorderEvents.factoryFailed(name, t);
            if (t instanceof Error) {
                throw (Error) t;
            }
            throw new ObjectCreationException("pool '" + name + "': the factory threw " + t
                    + "; the capacity it was to use went back to the pool, acquire() again to retry", t);
        }
        if (x == null) {
            creationFailed(e);
            FlightRecorderEvents.factoryFailed(name, null);
            throw new ObjectCreationException("pool '" + name
                    + "': the factory returned null; it must return a new object on every call", null);
        }
        e.ref = new BoundedEntry.ObjectRef(x, maintenance.maxLifetimeNanos > 0 ? System.nanoTime() : 0L);
        index.add(e); // before the object is handed out: see BoundedIndex
        threads.add(Counts.CREATED, 1);
        return x;
    }

    private void creationFailed(BoundedEntry e) {
        creationsFailed.incrementAndGet();
        table.free(e);
        capacityBack();
    }

    /** Frees an entry the caller owns, whose object is gone, and gives its unit back. */
    void free(BoundedEntry e) {
        index.remove(e);
        e.ref = null;
        table.free(e);
        capacityBack();
        maintenance.requestRefill();
    }

    /**
     * Gives back a unit of capacity the caller holds: to the oldest waiter as a permit, else to
     * {@link #live}; then, Dekker again, if a waiter queued meanwhile, takes a unit back for it.
     */
    void capacityBack() {
        for (;;) {
            if (waitQueue.size() > 0 && !pool.isClosed() && waitQueue.handPermit()) {
                return;
            }
            live.decrementAndGet();
            if (waitQueue.size() == 0 || pool.isClosed() || !tryReserve()) {
                return;
            }
        }
    }

    int live() {
        return live.get();
    }

    long creationsFailed() {
        return creationsFailed.get();
    }

    /** Entries borrowed or being worked on, counted racily; for messages. */
    int inUse() {
        int n = 0;
        for (BoundedEntry e : table.array()) {
            if (e.state() != BoundedEntry.IDLE && e.state() != BoundedEntry.FREE) {
                n++;
            }
        }
        return n;
    }
}
