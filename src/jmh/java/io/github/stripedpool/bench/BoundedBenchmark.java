package io.github.stripedpool.bench;

import com.zaxxer.hikari.util.ConcurrentBag;
import io.github.stripedpool.Pool;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Bounded pools under contention: 4 threads share a pool capped at 2 objects; each acquires,
 * works for {@code holdTokens} of {@link Blackhole#consumeCPU} while holding the object, and
 * releases it, with no pause between cycles, so that two threads always wait. Throughput is
 * cycles per microsecond for all threads together; {@code SampleTime} gives the distribution of
 * one cycle (the wait for an object, the hold and the release), whose tail is the wait.
 *
 * <ul>
 *   <li>{@code striped}: this library, {@code maxTotal(2)}; waiters served in arrival order by
 *       direct hand-off;</li>
 *   <li>{@code commonsPool2}: {@code GenericObjectPool} with {@code maxTotal = maxIdle = 2},
 *       blocking borrow (its default), JMX off, no evictor, no tests on borrow;</li>
 *   <li>{@code concurrentBag}: HikariCP's {@code ConcurrentBag} holding 2 entries,
 *       {@code borrow} with a timeout and {@code requite}, as HikariCP uses it.</li>
 * </ul>
 * Every pool waits at most 30 seconds, far beyond any wait here, so no cycle fails.
 *
 * <pre>
 * java -jar target-jmh/benchmarks.jar BoundedBenchmark -f 1 -wi 2 -i 3 -r 1s
 * </pre>
 */
@State(Scope.Benchmark)
@BenchmarkMode({Mode.Throughput, Mode.SampleTime})
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(4)
public class BoundedBenchmark {
    /** The cap of every pool: half the thread count, so that half the threads wait. */
    static final int MAX_TOTAL = 2;
    static final Duration WAIT = Duration.ofSeconds(30);

    @Param({"striped", "commonsPool2", "concurrentBag"})
    public String impl;

    /**
     * Work done while holding the object: 100 tokens are a few hundred nanoseconds (a cheap
     * native call), 1000 a few microseconds (closer to real use of an expensive resource).
     */
    @Param({"100", "1000"})
    public int holdTokens;

    /** Bytes in each pooled payload. */
    @Param({"1024"})
    public int size;

    private Blocking peer;

    /** A bounded pool whose acquire waits; one implementation per fork, so calls stay monomorphic. */
    interface Blocking extends AutoCloseable {
        Payload acquire() throws Exception;

        void release(Payload p);

        @Override
        void close() throws Exception;
    }

    @Setup(Level.Trial)
    public void setUp() {
        switch (impl) {
            case "striped":
                peer = striped(size);
                break;
            case "commonsPool2":
                peer = commonsPool2(size);
                break;
            case "concurrentBag":
                peer = concurrentBag(size);
                break;
            default:
                throw new IllegalArgumentException("unknown impl '" + impl
                        + "'; expected striped, commonsPool2 or concurrentBag");
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        peer.close();
    }

    @Benchmark
    public void acquireHoldRelease(Blackhole bh) throws Exception {
        Blocking peer = this.peer;
        Payload p = peer.acquire();
        Payload.touch(p, bh);
        Blackhole.consumeCPU(holdTokens);
        peer.release(p);
    }

    static Blocking striped(int size) {
        Pool<Payload> pool = Pool.builder(() -> new Payload(size))
                .maxTotal(MAX_TOTAL)
                .acquireTimeout(WAIT)
                .name("bounded-benchmark")
                .build();
        return new Blocking() {
            @Override
            public Payload acquire() {
                return pool.acquire();
            }

            @Override
            public void release(Payload p) {
                pool.release(p);
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    static Blocking commonsPool2(int size) {
        GenericObjectPoolConfig<Payload> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(MAX_TOTAL);
        config.setMaxIdle(MAX_TOTAL);
        config.setBlockWhenExhausted(true);
        config.setMaxWait(WAIT);
        config.setJmxEnabled(false);
        config.setTimeBetweenEvictionRuns(Duration.ofMillis(-1));
        GenericObjectPool<Payload> pool = new GenericObjectPool<>(new BasePooledObjectFactory<>() {
            @Override
            public Payload create() {
                return new Payload(size);
            }

            @Override
            public PooledObject<Payload> wrap(Payload p) {
                return new DefaultPooledObject<>(p);
            }
        }, config);
        return new Blocking() {
            @Override
            public Payload acquire() throws Exception {
                return pool.borrowObject();
            }

            @Override
            public void release(Payload p) {
                pool.returnObject(p);
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    static Blocking concurrentBag(int size) {
        // The listener asks for new entries when borrowers wait; the bag is full at 2, as a
        // HikariCP pool at maximumPoolSize would be, so it adds none.
        ConcurrentBag<Payload> bag = new ConcurrentBag<>(waiting -> { });
        for (int i = 0; i < MAX_TOTAL; i++) {
            bag.add(new Payload(size));
        }
        long waitMillis = WAIT.toMillis();
        return new Blocking() {
            @Override
            public Payload acquire() throws InterruptedException {
                Payload p = bag.borrow(waitMillis, TimeUnit.MILLISECONDS);
                if (p == null) {
                    throw new IllegalStateException("ConcurrentBag.borrow timed out");
                }
                return p;
            }

            @Override
            public void release(Payload p) {
                bag.requite(p);
            }

            @Override
            public void close() throws Exception {
                bag.close();
            }
        };
    }
}
