package io.github.stripedpool.bench;

import io.github.stripedpool.Pool;

/** The library, unbounded, with no reset hook (the other peers reset nothing either). */
final class StripedPeer implements Peer {
    private final Pool<Payload> pool;

    StripedPeer(Peers.Factory factory, int maxIdle) {
        pool = Pool.builder(factory).maxIdle(maxIdle).name("bench").build();
    }

    @Override
    public Payload acquire() {
        return pool.acquire();
    }

    @Override
    public void release(Payload p) {
        pool.release(p);
    }

    @Override
    public long created() {
        return pool.stats().created();
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return pool.stats().toString();
    }
}
