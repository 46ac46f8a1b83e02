package io.github.stripedpool.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Builds the peers named by the benchmarks' {@code impl} parameter. A mode of the striped pool
 * is one more name here (see {@link StripedPeer}) and in the {@code @Param} lists.
 */
final class Peers {
    /**
     * The idle capacity every pool gets: the striped pool's default, 64 per processor, so that no
     * peer drops objects that another would keep.
     */
    static final int MAX_IDLE = 64 * Runtime.getRuntime().availableProcessors();

    /**
     * Stormpot's fixed size where the others never block: 8 threads holding 4 objects each is
     * the most any scenario holds at once, and twice that leaves room.
     */
    static final int STORMPOT_SIZE = 64;

    /**
     * More objects than any pool may make in one trial of a scenario where each thread holds at
     * most 4 at once. One that pools nothing makes millions (one per cycle); the pools here make
     * a few dozen.
     */
    static final long MAX_CREATED = 4096;

    static final String NAMES = "striped, stripedReset, stripedDestroy, stripedHooks, stripedSampled, stripedParanoid, floor, floorExact, floorStack, netty, "
            + "stormpot, concurrentBag, commonsPool2, alloc";

    private Peers() {
    }

    static Peer create(String impl, int size) {
        Factory factory = new Factory(size);
        Peer striped = StripedPeer.of(impl, factory, MAX_IDLE);
        if (striped != null) {
            return striped;
        }
        switch (impl) {
            case "alloc":
                return new AllocPeer(size);
            case "floor":
                return new FloorPeer(factory);
            case "floorExact":
                return new FloorExactPeer(factory);
            case "floorStack":
                return new FloorStackPeer(factory);
            case "netty":
                return new NettyPeer(factory, size);
            case "stormpot":
                return new StormpotPeer(factory, size, STORMPOT_SIZE, 1000);
            case "commonsPool2":
                return new CommonsPool2Peer(factory, MAX_IDLE);
            case "concurrentBag":
                return new ConcurrentBagPeer(factory);
            default:
                throw new IllegalArgumentException("unknown impl '" + impl + "'; expected one of " + NAMES);
        }
    }

    /**
     * Fails the trial of a peer that did not pool: one that made more than {@link #MAX_CREATED}
     * objects measured allocation plus its own overhead, not pooling (Netty's Recycler on a
     * thread it does not pool on, a pool whose stripes lose objects).
     */
    static void checkPooled(String impl, Peer peer) {
        if (peer instanceof AllocPeer) {
            return;
        }
        long made = peer.created();
        if (made > MAX_CREATED) {
            throw new IllegalStateException(impl + " made " + made + " objects in one trial (more than "
                    + MAX_CREATED + "): it did not pool, so its figure measures allocation");
        }
    }

    /** Makes payloads for a pool and counts them; pools call it on a miss only. */
    static final class Factory implements Supplier<Payload> {
        private final int size;
        private final AtomicLong made = new AtomicLong();
        private final AtomicLong destroyed = new AtomicLong();

        Factory(int size) {
            this.size = size;
        }

        @Override
        public Payload get() {
            count();
            return new Payload(size);
        }

        /** Counts an object that a pool made itself (those needing a subclass of payload). */
        void count() {
            made.incrementAndGet();
        }

        /** A destroy hook: counts the objects a pool gave up. */
        void destroyed(Payload p) {
            destroyed.incrementAndGet();
        }

        long made() {
            return made.get();
        }
    }
}
