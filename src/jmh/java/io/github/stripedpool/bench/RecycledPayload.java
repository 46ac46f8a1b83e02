package io.github.stripedpool.bench;

import io.netty.util.Recycler;

/** A payload that carries the handle Netty's {@code Recycler} needs to take it back. */
final class RecycledPayload extends Payload {
    final Recycler.Handle<RecycledPayload> handle;

    RecycledPayload(int size, Recycler.Handle<RecycledPayload> handle) {
        super(size);
        this.handle = handle;
    }
}
