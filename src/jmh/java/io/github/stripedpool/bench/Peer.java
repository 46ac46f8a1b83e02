package io.github.stripedpool.bench;

/**
 * One way of getting a {@link Payload} and giving it back: a pool, or plain allocation. Each
 * benchmark fork uses one implementation, so the call sites stay monomorphic and inline.
 */
interface Peer extends AutoCloseable {

    /** A payload for the caller's exclusive use; never blocks. */
    Payload acquire();

    /** Gives back a payload that {@link #acquire()} returned. */
    void release(Payload p);

    /** Payloads made so far, or -1 where every acquire makes one (plain allocation). */
    long created();

    @Override
    void close();
}
