package io.github.stripedpool.bench;

/**
 * The floor: the least code that reuses one object per thread. A table indexed by thread id
 * holds one padded holder per thread with one plain slot; acquire takes the slot's object (or
 * makes one), release puts it back (or drops it if the slot is full). No counters, no checks,
 * no atomic instruction, no {@code ThreadLocal} hash lookup. Not a usable pool: two threads whose
 * ids collide in the table would share a slot, objects of dead threads stay where they are,
 * and a thread that holds several objects at once gets only one of them back from the slot.
 */
final class FloorPeer implements Peer {
    /** Thread ids in a benchmark JVM are small and sequential: 4096 slots never collide there. */
    static final int SLOTS = 4096;

    private final Holder[] table = new Holder[SLOTS];
    private final Peers.Factory factory;

    FloorPeer(Peers.Factory factory) {
        this.factory = factory;
        for (int i = 0; i < SLOTS; i++) {
            table[i] = new Holder();
        }
    }

    private Holder holder() {
        return table[index()];
    }

    /** The current thread's entry in a table of {@link #SLOTS}. */
    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    static int index() {
        return (int) Thread.currentThread().getId() & (SLOTS - 1);
    }

    @Override
    public Payload acquire() {
        Holder h = holder();
        Payload p = h.slot;
        if (p == null) {
            return factory.get();
        }
        h.slot = null;
        return p;
    }

    @Override
    public void release(Payload p) {
        Holder h = holder();
        if (h.slot == null) {
            h.slot = p;
        }
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
    }

    /** Fields before the slot: 56 bytes (7 longs) so no two threads' slots share a 64-byte line. */
    abstract static class PadBefore {
        long p01;
        long p02;
        long p03;
        long p04;
        long p05;
        long p06;
        long p07;
    }

    /** The slot itself. */
    abstract static class Slot extends PadBefore {
        Payload slot;
    }

    /**
     * Padding after the slot: 56 bytes. HotSpot lays out superclass fields first, so the slot
     * sits between the two pads whatever the field order within a class.
     */
    static final class Holder extends Slot {
        long q01;
        long q02;
        long q03;
        long q04;
        long q05;
        long q06;
        long q07;
    }
}
