package io.github.stripedpool.bench;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Builds the peers named by the benchmarks' {@code impl} parameter. A pool mode of the striped
 * pool (bounded, leak detection) becomes one more name here and in the {@code @Param} lists.
 */
final class Peers {
    /**
     * The idle capacity every pool gets: the striped pool's default, 64 per processor, so that no
     * peer drops objects that another would keep.
     */
    static final int MAX_IDLE = 64 * Runtime.getRuntime().availableProcessors();

    private Peers() {
    }

    static Peer create(String impl, int size) {
        switch (impl) {
            case "striped":
                return new StripedPeer(new Factory(size), MAX_IDLE);
            case "alloc":
                return new AllocPeer(size);
            case "commonsPool2":
                return new CommonsPool2Peer(new Factory(size), MAX_IDLE);
            case "concurrentBag":
                return new ConcurrentBagPeer(new Factory(size));
            case "threadLocal":
                return new ThreadLocalPeer(new Factory(size));
            default:
                throw new IllegalArgumentException("unknown impl '" + impl + "'; expected one of "
                        + "striped, alloc, commonsPool2, concurrentBag, threadLocal");
        }
    }

    /** Makes payloads for a pool and counts them; pools call it on a miss only. */
    static final class Factory implements Supplier<Payload> {
        private final int size;
        private final AtomicLong made = new AtomicLong();

        Factory(int size) {
            this.size = size;
        }

        @Override
        public Payload get() {
            made.incrementAndGet();
            return new Payload(size);
        }

        long made() {
            return made.get();
        }
    }
}
