package io.github.stripedpool.bench;

import io.github.stripedpool.LeakDetection;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;

/**
 * The library, unbounded, in one of its modes, each its own {@code impl} name:
 * <ul>
 *   <li>{@code striped}: no hooks, leak detection {@code DISABLED} (the bare engine);</li>
 *   <li>{@code stripedReset}: a reset hook that undoes {@link Payload#touch}, the build the
 *       README recommends;</li>
 *   <li>{@code stripedDestroy}: a destroy hook only, as a pool of native handles has;</li>
 *   <li>{@code stripedHooks}: a reset hook that undoes {@link Payload#touch} and a destroy hook,
 *       as a pool of real buffers has;</li>
 *   <li>{@code stripedSampled}: leak detection {@code SAMPLED} at its default interval;</li>
 *   <li>{@code stripedParanoid}: leak detection {@code PARANOID}, every acquisition tracked.</li>
 * </ul>
 */
final class StripedPeer implements Peer {
    private final Pool<Payload> pool;

    private StripedPeer(PoolBuilder<Payload> builder) {
        pool = builder.build();
    }

    /** @return the peer, or null if {@code impl} names no mode of the library */
    static StripedPeer of(String impl, Peers.Factory factory, int maxIdle) {
        PoolBuilder<Payload> b = Pool.builder(factory).maxIdle(maxIdle).name("bench-" + impl);
        switch (impl) {
            case "striped":
                return new StripedPeer(b.leakDetection(LeakDetection.DISABLED));
            case "stripedReset":
                return new StripedPeer(b.leakDetection(LeakDetection.DISABLED).reset(Payload::clear));
            case "stripedDestroy":
                return new StripedPeer(b.leakDetection(LeakDetection.DISABLED).destroy(factory::destroyed));
            case "stripedHooks":
                return new StripedPeer(b.leakDetection(LeakDetection.DISABLED)
                        .reset(Payload::clear).destroy(factory::destroyed));
            case "stripedSampled":
                return new StripedPeer(b.leakDetection(LeakDetection.SAMPLED));
            case "stripedParanoid":
                return new StripedPeer(b.leakDetection(LeakDetection.PARANOID));
            default:
                return null;
        }
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
