package io.github.stripedpool.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The floor of a pool that destroys its objects exactly once: {@link FloorPeer}'s table of
 * one slot per thread, with the two atomic steps that guarantee costs and nothing else. The
 * owner takes its object by compare-and-set, because a closing thread may take the same object
 * to destroy it; it puts by compare-and-set and then reads the closed flag, because close sets
 * the flag and then reads the slot, and one of the two must see the other (a Dekker pair) for
 * an object released while the pool closes to be destroyed once. No counters, no hooks, no
 * checks beyond those. What {@code stripedDestroy} is measured against: the distance between
 * the two is what the library adds around the guarantee, and the distance between this row and
 * {@code floor} is what the guarantee itself costs on this machine.
 *
 * <p>Not a usable pool, for {@link FloorPeer}'s reasons.
 */
final class FloorExactPeer implements Peer {
    private static final int SLOTS = 4096;
    private static final VarHandle SLOT;

    static {
        try {
            SLOT = MethodHandles.lookup().findVarHandle(FloorPeer.Slot.class, "slot", Payload.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final FloorPeer.Holder[] table = new FloorPeer.Holder[SLOTS];
    private final Peers.Factory factory;
    private volatile boolean closed;

    FloorExactPeer(Peers.Factory factory) {
        this.factory = factory;
        for (int i = 0; i < SLOTS; i++) {
            table[i] = new FloorPeer.Holder();
        }
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    private FloorPeer.Holder holder() {
        return table[(int) Thread.currentThread().getId() & (SLOTS - 1)];
    }

    @Override
    public Payload acquire() {
        FloorPeer.Holder h = holder();
        Payload p = h.slot;
        if (p != null && SLOT.compareAndSet(h, p, null)) {
            return p;
        }
        return factory.get();
    }

    @Override
    public void release(Payload p) {
        FloorPeer.Holder h = holder();
        if (h.slot == null && SLOT.compareAndSet(h, null, p) && closed
                && SLOT.compareAndSet(h, p, null)) {
            factory.destroyed(p);
        }
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
        closed = true;
        for (FloorPeer.Holder h : table) {
            Payload p = h.slot;
            if (p != null && SLOT.compareAndSet(h, p, null)) {
                factory.destroyed(p);
            }
        }
    }
}
