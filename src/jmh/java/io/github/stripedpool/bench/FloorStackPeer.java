package io.github.stripedpool.bench;

/**
 * The floor for a thread that holds several objects at once: the least code that reuses up to
 * {@link #DEPTH} objects per thread. A table indexed by thread id holds one holder per thread
 * with a plain array used as a stack; acquire pops (or makes one), release pushes (or drops the
 * object if the stack is full). No counters, no checks, no atomic instruction. Not a usable
 * pool, for the reasons {@link FloorPeer} gives, and a second release of one object is pushed
 * twice, so two threads could later get it at once.
 */
final class FloorStackPeer implements Peer {
    /** As many objects per thread as the striped pool's private slot and spare entries keep. */
    static final int DEPTH = 8;
    private static final int PAD = 16;

    private final Holder[] table = new Holder[FloorPeer.SLOTS];
    private final Peers.Factory factory;

    FloorStackPeer(Peers.Factory factory) {
        this.factory = factory;
        for (int i = 0; i < table.length; i++) {
            table[i] = new Holder();
        }
    }

    private Holder holder() {
        return table[FloorPeer.index()];
    }

    @Override
    public Payload acquire() {
        Holder h = holder();
        int top = h.top;
        if (top == 0) {
            return factory.get();
        }
        h.top = --top;
        Payload p = h.stack[PAD + top];
        h.stack[PAD + top] = null;
        return p;
    }

    @Override
    public void release(Payload p) {
        Holder h = holder();
        int top = h.top;
        if (top < DEPTH) {
            h.stack[PAD + top] = p;
            h.top = top + 1;
        }
    }

    @Override
    public long created() {
        return factory.made();
    }

    @Override
    public void close() {
    }

    /** The stack's top, the holder's first field: nothing of another thread's before it but padding. */
    abstract static class Top {
        int top;
    }

    /**
     * One thread's stack: entries {@link #PAD} to {@code PAD + DEPTH - 1} of its array, which has
     * {@link #PAD} unused entries (64 bytes or more) on each side, and 56 bytes of padding after
     * {@code top}, so that no two threads' written words share a cache line, whatever sits next to
     * the holder or the array.
     */
    static final class Holder extends Top {
        long p01, p02, p03, p04, p05, p06, p07;
        final Payload[] stack = new Payload[PAD + DEPTH + PAD];
    }
}
