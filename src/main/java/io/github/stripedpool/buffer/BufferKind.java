package io.github.stripedpool.buffer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What differs between the three kinds of buffer a {@link BufferPool} holds: how one is made,
 * how its size is read (and a buffer of another kind told apart), how it is cleared before
 * reuse and how it is handed out. One immutable instance per kind; the pool's acquire and
 * release call through it, so the kind costs no branch of its own.
 *
 * @param <B> {@code byte[]} or {@link ByteBuffer}
 */
abstract class BufferKind<B> {
    static final BufferKind<byte[]> BYTES = new Bytes();
    static final BufferKind<ByteBuffer> HEAP = new Buffers(false);
    static final BufferKind<ByteBuffer> DIRECT = new Buffers(true);

    /** Named in messages and in the pool's statistics. */
    abstract String label();

    abstract B allocate(int size);

    /**
     * The buffer's size, or an {@link IllegalArgumentException} if it is of another kind (a heap
     * buffer given to a direct pool, a read-only view): such a buffer never came from the pool.
     */
    abstract int capacity(B buffer, String poolName);

    /** Makes a buffer ready for its next borrower (the pool's reset hook); null if none needed. */
    abstract java.util.function.Consumer<B> clearer(boolean zero);

    /** Sets up an acquired buffer for a request of {@code size} bytes. */
    abstract B handOut(B buffer, int size);

    /**
     * Frees a dropped buffer's memory now where the kind allows it and {@code atOnce} asks for
     * it; null if the collector does it.
     */
    java.util.function.Consumer<B> freer(boolean atOnce) {
        return null;
    }

    private static final class Bytes extends BufferKind<byte[]> {
        @Override
        String label() {
            return "byte[]";
        }

        @Override
        byte[] allocate(int size) {
            return new byte[size];
        }

        @Override
        int capacity(byte[] buffer, String poolName) {
            return buffer.length;
        }

        @Override
        java.util.function.Consumer<byte[]> clearer(boolean zero) {
            // Without zeroing an array needs nothing: it has no position or limit to reset.
            return zero ? b -> Arrays.fill(b, (byte) 0) : null;
        }

        @Override
        byte[] handOut(byte[] buffer, int size) {
            return buffer;
        }
    }

    private static final class Buffers extends BufferKind<ByteBuffer> {
        private final boolean direct;

        Buffers(boolean direct) {
            this.direct = direct;
        }

        @Override
        String label() {
            return direct ? "direct ByteBuffer" : "heap ByteBuffer";
        }

        @Override
        ByteBuffer allocate(int size) {
            return direct ? ByteBuffer.allocateDirect(size) : ByteBuffer.allocate(size);
        }

        @Override
        int capacity(ByteBuffer buffer, String poolName) {
            if (buffer.isDirect() != direct || buffer.isReadOnly()) {
                throw new IllegalArgumentException("buffer pool '" + poolName + "' holds writable "
                        + label() + "s and was given a " + (buffer.isReadOnly() ? "read-only " : "")
                        + (buffer.isDirect() ? "direct" : "heap") + " buffer: release each buffer, "
                        + "not a view of it, to the pool it came from");
            }
            int capacity = buffer.capacity();
            // A heap view that does not start at its array's first byte or ends before its last
            // (slice, wrap of a range) is no buffer this pool made. Its class's next borrower
            // would share memory with whoever holds the array. A duplicate of the whole buffer,
            // and any view of a direct buffer, cannot be told apart: see BufferPool.
            if (!direct && (buffer.arrayOffset() != 0 || buffer.array().length != capacity)) {
                throw new IllegalArgumentException("buffer pool '" + poolName + "' was given a view "
                        + "of " + buffer.array().length + " bytes' array (offset " + buffer.arrayOffset()
                        + ", capacity " + capacity + "): release each buffer, not a view of it, to the "
                        + "pool it came from");
            }
            return capacity;
        }

        @Override
        java.util.function.Consumer<ByteBuffer> clearer(boolean zero) {
            return zero ? b -> zero(b.clear().order(ByteOrder.BIG_ENDIAN))
                    : b -> b.clear().order(ByteOrder.BIG_ENDIAN);
        }

        private static void zero(ByteBuffer b) {
            if (b.hasArray()) {
                Arrays.fill(b.array(), b.arrayOffset(), b.arrayOffset() + b.capacity(), (byte) 0);
                return;
            }
            int n = b.capacity();
            int i = 0;
            for (; i + Long.BYTES <= n; i += Long.BYTES) {
                b.putLong(i, 0L);
            }
            for (; i < n; i++) {
                b.put(i, (byte) 0);
            }
        }

        @Override
        ByteBuffer handOut(ByteBuffer buffer, int size) {
            // Position 0 and order big-endian since its release (or its creation).
            return buffer.limit(size);
        }

        @Override
        java.util.function.Consumer<ByteBuffer> freer(boolean atOnce) {
            return direct && atOnce && DirectMemory.freesAtOnce() ? DirectMemory::free : null;
        }
    }
}
