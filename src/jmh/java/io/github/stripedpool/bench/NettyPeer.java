package io.github.stripedpool.bench;

import io.netty.util.Recycler;
import io.netty.util.concurrent.FastThreadLocalThread;

/**
 * Netty 4.2's {@code Recycler} in its best case: every benchmark thread is a
 * {@link FastThreadLocalThread} (see {@link FastThreadExecutor}), whose per-thread pool is an
 * owner-only batch with plain pushes and pops. On any other thread 4.2 pools nothing and every
 * {@code get()} makes a new object, so the constructor refuses to run elsewhere, and the
 * benchmarks check after each trial that it made only a handful of objects.
 *
 * <p>What it gives up for its speed: no cap on objects per thread beyond its own limit, no
 * destroy hook, no aging of idle objects, no close; an object released on another thread goes
 * through a queue back to the thread that made it.
 */
final class NettyPeer implements Peer {
    private final Recycler<RecycledPayload> recycler;
    private final Peers.Factory factory;

    NettyPeer(Peers.Factory factory, int size) {
        Thread t = Thread.currentThread();
        if (!(t instanceof FastThreadLocalThread)) {
            throw new IllegalStateException("Netty's Recycler pools nothing on " + t + ", which is not a "
                    + "FastThreadLocalThread: run with -Djmh.executor=CUSTOM -Djmh.executor.class="
                    + FastThreadExecutor.class.getName());
        }
        this.factory = factory;
        recycler = new Recycler<>() {
            @Override
            protected RecycledPayload newObject(Handle<RecycledPayload> handle) {
                factory.count();
                return new RecycledPayload(size, handle);
            }
        };
    }

    @Override
    public Payload acquire() {
        return recycler.get();
    }

    @Override
    public void release(Payload p) {
        RecycledPayload r = (RecycledPayload) p;
        r.handle.recycle(r);
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
        // a Recycler has nothing to close: its objects go when their threads do
    }
}
