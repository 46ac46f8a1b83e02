package io.github.stripedpool.bench;

import io.github.stripedpool.Pool;
import io.github.stripedpool.buffer.BufferPool;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.PooledByteBufAllocator;
import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
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
 * The pooled-request-body story of the project's seed documents, on the JVM: a service reads
 * request bodies of 1 to 64 KiB into buffers, in a fixed 256 MiB heap whose live data leaves
 * much room ({@code roomy}, a quarter of the heap) or little ({@code tight}, three quarters).
 * Most of the time one body is read at a time; every {@value #PERIOD} requests a burst holds
 * {@value #BURST} bodies at once (about 34 MiB), as concurrent slow uploads would, then lets
 * them all go. A pool keeps what the burst gave back for the next one; if it keeps it through
 * the quiet time too, the collector has that much less headroom and runs more often: the effect
 * that cost a database 18 % of its write throughput. Each request also makes garbage of a
 * quarter of its body's size (what it parsed), alike for every implementation: the allocation
 * that the headroom is for.
 *
 * <p>Implementations: {@code alloc} ({@code new byte[n]}); {@code allocRounded}, allocation of
 * the pool's class size instead ({@code n} rounded up to a power of two, at least 1 KiB) and no
 * pooling at all, which tells the memory that rounding alone takes from what a pool keeps;
 * {@code pool}, a {@link BufferPool}
 * with a 64 MiB budget (sized for the burst) and its default heap-pressure trimming;
 * {@code poolSmall}, the same with the default budget of 16 MiB, a quarter of the tight heap's
 * headroom; {@code poolNoTrim}, the same pool with trimming off ({@code trimAboveHeap(1)}), which gives
 * memory back only by aging; {@code poolFine}, the first with four classes per doubling
 * ({@code classesPerDoubling(4)}), so that a buffer is at most a quarter larger than its body,
 * not up to twice; {@code poolBytesSplit}, the same classes and budget built by hand as one
 * {@link Pool} per class, each keeping an equal share of the budget's <em>bytes</em> rather
 * than the same number of buffers as every other class (see {@link #byBytes}); Netty's
 * {@code PooledByteBufAllocator} and Jetty's {@code ArrayByteBufferPool}, heap buffers. Run it with {@code -prof gc}: {@code gc.count} and
 * {@code gc.time} beside the throughput, since one without the other misleads. The collector is
 * a benchmark method: a JVM flag of the fork.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar HeadroomBenchmark -f 2 -prof gc
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
public class HeadroomBenchmark {
    /**
     * The forks' flags beside the heap's: Netty's allocator with its leak detection off, as the
     * buffer pool's is ({@link BufferBenchmark#NETTY_LEAKS_OFF}), and on worker threads that get
     * its per-thread caches ({@link FastThreadExecutor}): plain threads get none by default, and
     * without them Netty's row allocated a quarter more per request and ran out of memory in the
     * tight heap.
     */
    static final String NETTY_LEAKS_OFF = BufferBenchmark.NETTY_LEAKS_OFF;

    /** Requests between two bursts. */
    static final int PERIOD = 16_384;
    /** Bodies held at once by a burst. */
    static final int BURST = 2_048;
    /** Sizes in the draw; a power of two. */
    static final int DRAW = 4096;
    /** The largest body. */
    static final int MAX_BODY = 64 * 1024;
    /** The budget of every pool but {@code poolSmall}: 64 MiB, sized for the burst. */
    static final long BUDGET = 64L << 20;
    /** Bytes per object of the live set: many small objects, as an application's heap holds. */
    private static final int LIVE_OBJECT_BYTES = 1024;
    /** What a body is read from. */
    private static final byte[] WIRE = wire();

    @Param({"alloc", "allocRounded", "pool", "poolSmall", "poolNoTrim", "poolFine", "poolBytesSplit", "netty", "jetty"})
    public String impl;

    /** {@code roomy}: a quarter of the heap live; {@code tight}: three quarters. */
    @Param({"roomy", "tight"})
    public String liveSet;

    final int[] sizes = draw();
    private Object[] retained;
    private Bodies bodies;

    /** One implementation's buffers. */
    interface Bodies extends AutoCloseable {
        /** A buffer of at least {@code n} bytes. */
        Object take(int n);

        /** Reads a body of {@code n} bytes into {@code b}; returns a checksum of it. */
        int read(Object b, int n);

        void give(Object b);

        @Override
        default void close() {
        }
    }

    /** A thread's place in the draw, and the bodies a burst holds. */
    @State(Scope.Thread)
    public static class Requests {
        long count;
        final Object[] held = new Object[BURST];
        int holding;
        Bodies bodies;

        @Setup(Level.Trial)
        public void start(HeadroomBenchmark b) {
            bodies = b.bodies;
        }

        @TearDown(Level.Trial)
        public void end() {
            for (int i = 0; i < holding; i++) {
                bodies.give(held[i]);
            }
            holding = 0;
        }
    }

    static int[] draw() {
        SplittableRandom r = new SplittableRandom(7);
        int[] s = new int[DRAW];
        for (int i = 0; i < DRAW; i++) {
            int band = r.nextInt(100);
            s[i] = band < 30 ? r.nextInt(1024, 4097) : band < 70 ? r.nextInt(4097, 16385)
                    : r.nextInt(16385, MAX_BODY + 1);
        }
        return s;
    }

    private static byte[] wire() {
        byte[] w = new byte[MAX_BODY];
        new SplittableRandom(11).nextBytes(w);
        return w;
    }

    @Setup(Level.Trial)
    public void setUp() {
        double fraction = switch (liveSet) {
            case "roomy" -> 0.25;
            case "tight" -> 0.75;
            default -> throw new IllegalArgumentException("liveSet must be roomy or tight, got " + liveSet);
        };
        long bytes = (long) (Runtime.getRuntime().maxMemory() * fraction);
        int n = (int) (bytes / (LIVE_OBJECT_BYTES + 16));
        retained = new Object[n];
        for (int i = 0; i < n; i++) {
            retained[i] = new byte[LIVE_OBJECT_BYTES];
        }
        bodies = switch (impl) {
            case "alloc" -> new Arrays() {
                @Override
                public Object take(int size) {
                    return new byte[size];
                }

                @Override
                public void give(Object b) {
                }
            };
            case "allocRounded" -> new Arrays() {
                @Override
                public Object take(int size) {
                    return new byte[Math.max(1024, Integer.highestOneBit(size - 1) << 1)];
                }

                @Override
                public void give(Object b) {
                }
            };
            case "pool" -> pool(BufferPool.bytes().budget(BUDGET).minClassSize(1024).name("headroom").build());
            case "poolSmall" -> pool(BufferPool.bytes().minClassSize(1024).name("headroom-small").build());
            case "poolNoTrim" -> pool(BufferPool.bytes().budget(BUDGET).minClassSize(1024).trimAboveHeap(1)
                    .name("headroom-no-trim").build());
            case "poolFine" -> pool(BufferPool.bytes().budget(BUDGET).minClassSize(1024).classesPerDoubling(4)
                    .name("headroom-fine").build());
            case "poolBytesSplit" -> byBytes(BUDGET);
            case "netty" -> netty();
            case "jetty" -> jetty();
            default -> throw new IllegalArgumentException("unknown impl " + impl);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        bodies.close();
        retained = null;
    }

    // -XX:+ExitOnOutOfMemoryError: a fork that runs out of memory ends at once, and bench/run reports
    // it as a result. Without it, an OutOfMemoryError that killed JMH's worker thread left the fork
    // waiting for that thread (15 minutes, until killed, in one ZGC tight-heap fork).
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m", "-XX:+UseG1GC",
            "-XX:+ExitOnOutOfMemoryError", FastThreadExecutor.SELECT, FastThreadExecutor.CLASS, NETTY_LEAKS_OFF})
    public long[] g1(Requests r) {
        return request(r);
    }

    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"-Xms256m", "-Xmx256m", "-XX:+UseZGC",
            "-XX:+ExitOnOutOfMemoryError", FastThreadExecutor.SELECT, FastThreadExecutor.CLASS, NETTY_LEAKS_OFF})
    public long[] zgc(Requests r) {
        return request(r);
    }

    /**
     * One request: a body read into a buffer and given back, unless the request falls in the
     * burst at the end of its period: then the buffer stays held until the burst's last request
     * gives them all back. What the request parsed out of the body (a quarter of its size, as
     * points of a time series) is returned: the garbage every implementation makes alike, which
     * the collector must find room for.
     */
    private long[] request(Requests r) {
        long k = r.count++;
        int n = sizes[(int) (k & (DRAW - 1))];
        Bodies b = r.bodies;
        Object buf = b.take(n);
        int sum = b.read(buf, n);
        if (k % PERIOD < PERIOD - BURST) {
            b.give(buf);
        } else {
            r.held[r.holding++] = buf;
            if (r.holding == BURST) {
                for (int i = 0; i < BURST; i++) {
                    b.give(r.held[i]);
                    r.held[i] = null;
                }
                r.holding = 0;
            }
        }
        long[] points = new long[n >>> 5];
        points[0] = sum;
        return points;
    }

    /** Reads every 256th byte back: the parse of a body, short enough not to hide the buffers' cost. */
    static int checksum(byte[] a, int offset, int n) {
        int s = 0;
        for (int i = 0; i < n; i += 256) {
            s += a[offset + i];
        }
        return s;
    }

    /** Byte arrays: read by a copy from the wire. */
    abstract static class Arrays implements Bodies {
        @Override
        public int read(Object b, int n) {
            byte[] a = (byte[]) b;
            System.arraycopy(WIRE, 0, a, 0, n);
            return checksum(a, 0, n);
        }
    }

    private static Bodies pool(BufferPool<byte[]> pool) {
        return new Arrays() {
            @Override
            public Object take(int n) {
                return pool.acquire(n);
            }

            @Override
            public void give(Object b) {
                pool.release((byte[]) b);
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    /**
     * {@code poolBytesSplit}: the pool's classes (1 to 64 KiB) and budget, as one {@link Pool}
     * per class whose {@code maxIdle} is an equal share of the budget's bytes over its class
     * size, found by size on acquire and by length on release. Split so, the 64 KiB class keeps
     * 146 buffers of the 427 a burst holds, and the burst's end drops 281 (17.6 MiB) that the
     * next burst makes again; split by count, as {@link BufferPool} splits it, every class keeps
     * 516 and the whole burst stays. The pools' trimming and aging are the same as the buffer
     * pool's classes' (the defaults).
     */
    @SuppressWarnings("unchecked") // an array of a generic type: filled with Pool<byte[]> only
    private static Bodies byBytes(long budget) {
        int classes = 7;
        Pool<byte[]>[] pools = (Pool<byte[]>[]) new Pool<?>[classes];
        for (int i = 0; i < classes; i++) {
            int size = 1024 << i;
            pools[i] = Pool.builder(() -> new byte[size]).maxIdle((int) (budget / classes / size))
                    .name("headroom-bytes-" + size).build();
        }
        return new Arrays() {
            @Override
            public Object take(int n) {
                return pools[n <= 1024 ? 0 : 22 - Integer.numberOfLeadingZeros(n - 1)].acquire();
            }

            @Override
            public void give(Object b) {
                pools[21 - Integer.numberOfLeadingZeros(((byte[]) b).length)].release((byte[]) b);
            }

            @Override
            public void close() {
                for (Pool<byte[]> p : pools) {
                    p.close();
                }
            }
        };
    }

    private static Bodies netty() {
        PooledByteBufAllocator alloc = PooledByteBufAllocator.DEFAULT;
        return new Bodies() {
            @Override
            public Object take(int n) {
                return alloc.heapBuffer(n);
            }

            @Override
            public int read(Object b, int n) {
                ByteBuf buf = (ByteBuf) b;
                buf.clear().writeBytes(WIRE, 0, n);
                return checksum(buf.array(), buf.arrayOffset(), n);
            }

            @Override
            public void give(Object b) {
                ((ByteBuf) b).release();
            }
        };
    }

    private static Bodies jetty() {
        ArrayByteBufferPool pool = new ArrayByteBufferPool.Quadratic(0, MAX_BODY, Integer.MAX_VALUE);
        return new Bodies() {
            @Override
            public Object take(int n) {
                return pool.acquire(n, false);
            }

            @Override
            public int read(Object b, int n) {
                ByteBuffer bb = ((RetainableByteBuffer) b).getByteBuffer().clear();
                bb.put(WIRE, 0, n);
                return checksum(bb.array(), bb.arrayOffset(), n);
            }

            @Override
            public void give(Object b) {
                ((RetainableByteBuffer) b).release();
            }

            @Override
            public void close() {
                pool.clear();
            }
        };
    }
}
