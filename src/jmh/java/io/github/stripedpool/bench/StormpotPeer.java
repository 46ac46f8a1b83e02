package io.github.stripedpool.bench;

import java.util.concurrent.TimeUnit;
import stormpot.Allocator;
import stormpot.Expiration;
import stormpot.Pool;
import stormpot.PoolTap;
import stormpot.Slot;
import stormpot.Timeout;

/**
 * Stormpot 3.2 (the last release built for Java 11; 4.x needs Java 21), through its thread-local
 * tap, which remembers the last slot each thread claimed: one CAS per claim on the fast path.
 * Stormpot is always bounded: its {@code size} objects are made by the claiming threads
 * ({@code fromInline}, no allocator thread competing for the cores) and never expire.
 */
final class StormpotPeer implements Peer {
    private final Pool<SlotPayload> pool;
    private final PoolTap<SlotPayload> tap;
    private final Timeout timeout;
    private final Peers.Factory factory;

    /**
     * @param size bytes in each payload
     * @param objects the pool's fixed size
     * @param waitMillis how long a claim waits for a free object; 0 only tries
     */
    StormpotPeer(Peers.Factory factory, int size, int objects, long waitMillis) {
        this.factory = factory;
        Allocator<SlotPayload> allocator = new Allocator<>() {
            @Override
            public SlotPayload allocate(Slot slot) {
                factory.count();
                return new SlotPayload(size, slot);
            }

            @Override
            public void deallocate(SlotPayload p) {
                // plain heap objects: nothing to free
            }
        };
        pool = Pool.fromInline(allocator).setSize(objects).setExpiration(Expiration.never()).build();
        tap = pool.getThreadLocalTap();
        timeout = new Timeout(waitMillis, TimeUnit.MILLISECONDS);
    }

    /** Used where the pool is sized never to run out: running out is an error of the setup. */
    @Override
    public Payload acquire() {
        Payload p = claim();
        if (p == null) {
            throw new IllegalStateException("Stormpot ran out of objects: " + pool.getTargetSize()
                    + " is too few for this scenario");
        }
        return p;
    }

    /** A payload, or null if none came free within the wait. */
    Payload claim() {
        try {
            return tap.claim(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted in Stormpot's claim", e);
        }
    }

    @Override
    public void release(Payload p) {
        ((SlotPayload) p).release();
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
        try {
            pool.shutdown().await(new Timeout(10, TimeUnit.SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
