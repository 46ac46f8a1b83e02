package io.github.stripedpool.bench;

/**
 * The floor for any pool with a thread-local tier: one {@code ThreadLocal.get()} to acquire and
 * one {@code set()} to release, one payload per thread, nothing else. Not a usable pool: nothing
 * stops two acquires on one thread from sharing a payload, and payloads of dead threads are
 * never reused.
 */
final class ThreadLocalPeer implements Peer {
    private final ThreadLocal<Payload> local;
    private final Peers.Factory factory;

    ThreadLocalPeer(Peers.Factory factory) {
        this.factory = factory;
        local = ThreadLocal.withInitial(factory);
    }

    @Override
    public Payload acquire() {
        return local.get();
    }

    @Override
    public void release(Payload p) {
        local.set(p);
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
    }
}
