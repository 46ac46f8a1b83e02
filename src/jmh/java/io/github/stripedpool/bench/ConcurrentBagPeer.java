package io.github.stripedpool.bench;

import com.zaxxer.hikari.util.ConcurrentBag;
import java.util.concurrent.TimeUnit;

/**
 * HikariCP's {@code ConcurrentBag}, used directly: {@link #PREFILL} entries added up front, then
 * {@code borrow}/{@code requite}. To never block, like the other pools, a borrow waits zero
 * nanoseconds; when it finds nothing free the caller makes a payload and adds it to the bag
 * already in use (the bag lets its owner add entries at any time; HikariCP does it from a
 * creator thread the listener wakes). The bag never drops an entry by itself.
 */
final class ConcurrentBagPeer implements Peer {
    /** Twice the largest thread count the suite runs with: the cycle never misses. */
    static final int PREFILL = 16;

    private final ConcurrentBag<Payload> bag;
    private final Peers.Factory factory;

    ConcurrentBagPeer(Peers.Factory factory) {
        this.factory = factory;
        // The listener is told about waiting borrowers; acquire() below makes the entry itself.
        bag = new ConcurrentBag<>(waiting -> { });
        for (int i = 0; i < PREFILL; i++) {
            bag.add(factory.get());
        }
    }

    @Override
    public Payload acquire() {
        Payload p;
        try {
            p = bag.borrow(0, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in ConcurrentBag.borrow", e);
        }
        return p != null ? p : addInUse();
    }

    private Payload addInUse() {
        Payload p = factory.get();
        p.setState(ConcurrentBag.IConcurrentBagEntry.STATE_IN_USE);
        bag.add(p);
        return p;
    }

    @Override
    public void release(Payload p) {
        bag.requite(p);
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
        try {
            bag.close();
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
