package io.github.stripedpool.bench;

import io.github.stripedpool.Lease;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;
import io.github.stripedpool.buffer.BufferPool;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.util.internal.PlatformDependent;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.IntFunction;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.io.RetainableByteBuffer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Buffers of mixed sizes from 64 B to 64 KiB: acquire one, write its first and last byte of the
 * size asked for, release it. The sizes follow a fixed-seed draw shaped like a server's I/O: 40 %
 * from 64 to 512 B (headers, small messages), 30 % up to 4 KiB (bodies, a 1500-byte frame), 20 %
 * up to 16 KiB (a TLS record, a page of a file), 10 % up to 64 KiB (large reads); uniform inside
 * each band. Each thread walks the same draw from its own offset.
 *
 * <p>{@code impl}: {@code striped} is {@link BufferPool} (its default 16 MiB budget), acquire and
 * release; {@code stripedLease} the same pool, each buffer in a try-with-resources
 * {@link BufferPool#lease(int) lease}, which goes back to the class it came from;
 * {@code handBuilt} one {@link Pool} per power-of-two class, built by hand, with the class found
 * by the caller, which is what {@code BufferPool} saves writing, and the buffer released to the
 * pool it was acquired from; {@code handByCapacity} the same pools, the buffer released to the
 * pool of its capacity, as code that releases a buffer far from where it was acquired must (and
 * as {@code BufferPool.release} does); {@code handFreeing}, direct buffers only and not among
 * the default rows, {@code handBuilt} with a destroy hook that frees a dropped buffer's memory at
 * once, as {@code BufferPool}'s does (a destroy hook makes every take and put of a private slot
 * a compare-and-set, see {@code docs/design.md}; {@code handBuilt} leaves dropped buffers to the
 * collector); {@code netty} Netty's
 * {@code PooledByteBufAllocator} (its per-thread caches are used on the {@code FastThreadLocalThread}s
 * the fork runs its workers on); {@code jetty} Jetty 12's {@code ArrayByteBufferPool.Quadratic}
 * (power-of-two buckets up to 64 KiB); {@code alloc} a new {@code byte[]} or
 * {@code ByteBuffer.allocateDirect} each time; {@code floor} ({@link Floor}) one plain slot per
 * thread and class, found by thread id, the buffer released to the slot of its capacity, a new
 * buffer on a miss and nothing kept beyond the slots: the least code that reuses a buffer of the
 * right class, with no aging, budget, close or leak detection, so that no buffer pool can be
 * cheaper and "how far from the limit" is a number. {@code kind}: {@code heap} ({@code byte[]} for
 * striped, handBuilt and alloc; heap buffers for Netty and Jetty) or {@code direct}.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar BufferBenchmark -f 2 -wi 5 -w 1s -i 5 -r 1s -t 1 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g",
        FastThreadExecutor.SELECT, FastThreadExecutor.CLASS, BufferBenchmark.NETTY_LEAKS_OFF})
public class BufferBenchmark {
    /**
     * Netty's allocator tracks one buffer in 128 for leaks by default (its {@code SIMPLE} level,
     * with a stack trace and a wrapper per tracked buffer); the buffer pool's leak detection is
     * off by default. Off for Netty too, so that both do the same work: with it on, Netty's row
     * ran at about half its speed and allocated 12 bytes per operation.
     */
    static final String NETTY_LEAKS_OFF = "-Dio.netty.leakDetection.level=disabled";

    /** Sizes in the draw; a power of two, so that a thread's walk wraps with a mask. */
    static final int DRAW = 4096;

    /** The draw's seed: fixed, so that every run and every peer sees the same sizes. */
    static final long SEED = 42;

    @Param({"striped", "stripedLease", "handBuilt", "handByCapacity", "floor", "netty", "jetty", "alloc"})
    public String impl;

    @Param({"heap", "direct"})
    public String kind;

    final int[] sizes = draw();
    private final AtomicInteger threads = new AtomicInteger();
    private Buffers buffers;

    static int[] draw() {
        SplittableRandom r = new SplittableRandom(SEED);
        int[] s = new int[DRAW];
        for (int i = 0; i < DRAW; i++) {
            int band = r.nextInt(100);
            s[i] = band < 40 ? r.nextInt(64, 513) : band < 70 ? r.nextInt(513, 4097)
                    : band < 90 ? r.nextInt(4097, 16385) : r.nextInt(16385, 65537);
        }
        return s;
    }

    /** One peer's acquire, touch and release of a buffer of {@code n} bytes. */
    interface Buffers extends AutoCloseable {
        /** Returns something that depends on the buffer, so that nothing is optimised away. */
        int cycle(int n);

        @Override
        default void close() {
        }
    }

    /** A thread's position in the draw. */
    @State(Scope.Thread)
    public static class Walk {
        int next;

        @Setup(Level.Trial)
        public void start(BufferBenchmark b) {
            next = b.threads.getAndIncrement() * (DRAW / 8);
        }
    }

    @Setup(Level.Trial)
    public void setUp() {
        boolean direct = kind.equals("direct");
        if (!direct && !kind.equals("heap")) {
            throw new IllegalArgumentException("kind must be heap or direct, got " + kind);
        }
        buffers = switch (impl) {
            case "striped" -> direct ? striped(BufferPool.directBuffers().build(), BufferBenchmark::touch)
                    : striped(BufferPool.bytes().build(), BufferBenchmark::touch);
            case "stripedLease" -> direct ? leased(BufferPool.directBuffers().build(), BufferBenchmark::touch)
                    : leased(BufferPool.bytes().build(), BufferBenchmark::touch);
            case "handBuilt", "handByCapacity" -> {
                boolean byCapacity = impl.equals("handByCapacity");
                yield direct
                        ? new HandBuilt<ByteBuffer>(ByteBuffer::allocateDirect, ByteBuffer::clear, null,
                                BufferBenchmark::touch, byCapacity)
                        : new HandBuilt<byte[]>(byte[]::new, null, null, BufferBenchmark::touch, byCapacity);
            }
            case "handFreeing" -> {
                if (!direct) {
                    throw new IllegalArgumentException("handFreeing is a direct-buffer row: run it with -p kind=direct");
                }
                yield new HandBuilt<ByteBuffer>(ByteBuffer::allocateDirect, ByteBuffer::clear,
                        PlatformDependent::freeDirectBuffer, BufferBenchmark::touch, false);
            }
            case "floor" -> direct
                    ? new Floor<ByteBuffer>(ByteBuffer::allocateDirect, ByteBuffer::clear, BufferBenchmark::touch)
                    : new Floor<byte[]>(byte[]::new, null, BufferBenchmark::touch);
            case "netty" -> netty(direct);
            case "jetty" -> jetty(direct);
            case "alloc" -> direct ? n -> touch(ByteBuffer.allocateDirect(n), n) : n -> touch(new byte[n], n);
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
        // First use outside the measurement: class loading and each peer's lazy set-up.
        for (int s : sizes) {
            buffers.cycle(s);
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        buffers.close();
    }

    @Benchmark
    public int cycle(Walk w) {
        return buffers.cycle(sizes[w.next++ & (DRAW - 1)]);
    }

    static int touch(byte[] b, int n) {
        b[0] = 1;
        b[n - 1] = 2;
        return b.length;
    }

    static int touch(ByteBuffer b, int n) {
        b.put(0, (byte) 1).put(n - 1, (byte) 2);
        return b.capacity();
    }

    /** Writes to a buffer of {@code n} bytes and returns its size. */
    interface Touch<T> {
        int touch(T buffer, int n);
    }

    private static <T> Buffers striped(BufferPool<T> pool, Touch<T> touch) {
        return new Buffers() {
            @Override
            public int cycle(int n) {
                T b = pool.acquire(n);
                int r = touch.touch(b, n);
                pool.release(b);
                return r;
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    private static <T> Buffers leased(BufferPool<T> pool, Touch<T> touch) {
        return new Buffers() {
            @Override
            public int cycle(int n) {
                try (Lease<T> lease = pool.lease(n)) {
                    return touch.touch(lease.get(), n);
                }
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    /** The class index of a request of {@code n} bytes, 64 B to 64 KiB, as a user would write it. */
    static int classOf(int n) {
        return n <= 64 ? 0 : 32 - Integer.numberOfLeadingZeros(n - 1) - 6;
    }

    /**
     * One striped pool per class, 64 B to 64 KiB, built by hand; a buffer goes back to the pool
     * it came from, or, {@code byCapacity}, to the pool of its capacity, looked up again.
     */
    static final class HandBuilt<T> implements Buffers {
        private final Pool<T>[] pools;
        private final Touch<T> touch;
        private final boolean byCapacity;

        @SuppressWarnings("unchecked")
        HandBuilt(IntFunction<T> make, Consumer<T> reset, Consumer<T> destroy, Touch<T> touch, boolean byCapacity) {
            this.touch = touch;
            this.byCapacity = byCapacity;
            pools = (Pool<T>[]) new Pool<?>[11];
            for (int i = 0; i < pools.length; i++) {
                int size = 64 << i;
                PoolBuilder<T> b = Pool.builder(() -> make.apply(size));
                b = reset == null ? b : b.reset(reset);
                pools[i] = (destroy == null ? b : b.destroy(destroy)).build();
            }
        }

        @Override
        public int cycle(int n) {
            Pool<T> p = pools[classOf(n)];
            T b = p.acquire();
            int r = touch.touch(b, n);
            (byCapacity ? pools[classOf(r)] : p).release(b);
            return r;
        }

        @Override
        public void close() {
            for (Pool<T> p : pools) {
                p.close();
            }
        }
    }

    /**
     * The floor: one plain slot per platform thread and class, in a table indexed by thread id
     * (a thread whose entry another thread took allocates every time; threads with consecutive
     * ids, as the benchmark's are, never share one), the class found from the size on acquire and from the capacity on
     * release, as a pool that is given only the buffer must. A miss allocates; a release to a
     * full slot drops the buffer. Touched by its owner only.
     */
    static final class Floor<T> implements Buffers {
        private static final int ROWS = 4096;

        /** A thread's slots, one per class. */
        static final class Row {
            final Thread owner;
            final Object[] slots = new Object[11];

            Row(Thread owner) {
                this.owner = owner;
            }
        }

        private final Row[] rows = new Row[ROWS];
        private final IntFunction<T> make;
        private final Consumer<T> reset;
        private final Touch<T> touch;

        Floor(IntFunction<T> make, Consumer<T> reset, Touch<T> touch) {
            this.make = make;
            this.reset = reset;
            this.touch = touch;
        }

        @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
        private Row row() {
            Thread t = Thread.currentThread();
            int i = (int) t.getId() & (ROWS - 1);
            Row r = rows[i];
            if (r == null) {
                r = rows[i] = new Row(t);
            }
            return r.owner == t ? r : null;
        }

        @Override
        @SuppressWarnings("unchecked")
        public int cycle(int n) {
            int c = classOf(n);
            Row r = row();
            Object x = r == null ? null : r.slots[c];
            T b;
            if (x != null) {
                r.slots[c] = null;
                b = (T) x;
            } else {
                b = make.apply(64 << c);
            }
            int capacity = touch.touch(b, n);
            if (reset != null) {
                reset.accept(b);
            }
            // The class of the capacity, not c: a pool given only the buffer must find it so.
            int back = 31 - Integer.numberOfLeadingZeros(capacity) - 6;
            Row owner = row();
            if (owner != null && owner.slots[back] == null) {
                owner.slots[back] = b;
            }
            return capacity;
        }
    }

    private static Buffers netty(boolean direct) {
        PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        return n -> {
            ByteBuf b = direct ? alloc.directBuffer(n) : alloc.heapBuffer(n);
            b.setByte(0, 1).setByte(n - 1, 2);
            int r = b.capacity();
            b.release();
            return r;
        };
    }

    private static Buffers jetty(boolean direct) {
        ArrayByteBufferPool pool = new ArrayByteBufferPool.Quadratic(0, 65536, Integer.MAX_VALUE);
        return new Buffers() {
            @Override
            public int cycle(int n) {
                RetainableByteBuffer b = pool.acquire(n, direct);
                // Jetty hands buffers out empty, in flush mode (limit 0); a writer clears it first.
                int r = touch(b.getByteBuffer().clear(), n);
                b.release();
                return r;
            }

            @Override
            public void close() {
                pool.clear();
            }
        };
    }
}
