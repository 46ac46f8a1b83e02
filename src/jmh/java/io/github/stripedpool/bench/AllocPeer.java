package io.github.stripedpool.bench;

/**
 * No pool: {@code new} on every acquire, nothing on release. The benchmarks return the payload
 * to JMH, which consumes it in a blackhole, so escape analysis cannot remove the allocation.
 */
final class AllocPeer implements Peer {
    private final int size;

    AllocPeer(int size) {
        this.size = size;
    }

    @Override
    public Payload acquire() {
        return new Payload(size);
    }

    @Override
    public void release(Payload p) {
        // the garbage collector takes it back
    }

    @Override
    public long created() {
        return -1;
    }

    @Override
    public void close() {
    }
}
