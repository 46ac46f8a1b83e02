package io.github.stripedpool.bench;

import com.zaxxer.hikari.util.ConcurrentBag;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The one object type every benchmark pools or allocates: a byte buffer of the benchmark's
 * {@code size} behind a small header object, like a pooled I/O buffer.
 *
 * <p>It carries the state word {@code ConcurrentBag} needs from its entries, so that every peer
 * handles the very same object, and allocation pays for that word too. With compressed oops the
 * header object is 24 bytes and the buffer {@code 16 + size} bytes: a 64-byte payload is 104
 * bytes of allocation.
 *
 * <p>Not final for the two pools that need a field of their own in each object: Netty's
 * {@code Recycler} and Stormpot keep a per-object handle ({@link RecycledPayload},
 * {@link SlotPayload}); only their objects pay for it.
 */
public class Payload implements ConcurrentBag.IConcurrentBagEntry {
    private static final AtomicIntegerFieldUpdater<Payload> STATE =
            AtomicIntegerFieldUpdater.newUpdater(Payload.class, "state");

    final byte[] data;
    /** ConcurrentBag's entry state; unused by the other peers. */
    private volatile int state;
    /** True until a benchmark that counts creations has seen this object once. */
    boolean fresh = true;

    Payload(int size) {
        data = new byte[size];
    }

    /** What a reset hook does: undo {@link #touch}, so the next borrower sees a clean buffer. */
    static void clear(Payload p) {
        byte[] d = p.data;
        int last = d.length - 1;
        d[0] = 0;
        d[last >>> 1] = 0;
        d[last] = 0;
    }

    /**
     * The work done with each object, the same for every peer: write three bytes (first, middle,
     * last) and read them back into the blackhole, so that the object is really used.
     */
    static void touch(Payload p, Blackhole bh) {
        byte[] d = p.data;
        int last = d.length - 1;
        int mid = last >>> 1;
        d[0] = 1;
        d[mid] = 2;
        d[last] = 3;
        bh.consume(d[0] + d[mid] + d[last]);
    }

    @Override
    public boolean compareAndSet(int expect, int update) {
        return STATE.compareAndSet(this, expect, update);
    }

    @Override
    public void setState(int update) {
        state = update;
    }

    @Override
    public int getState() {
        return state;
    }
}
