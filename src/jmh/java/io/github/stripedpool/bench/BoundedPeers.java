package io.github.stripedpool.bench;

import com.zaxxer.hikari.util.ConcurrentBag;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import org.vibur.objectpool.ConcurrentPool;
import org.vibur.objectpool.PoolObjectFactory;
import org.vibur.objectpool.util.ConcurrentLinkedDequeCollection;

/**
 * The bounded pools of {@link BoundedBenchmark}, each capped at {@code cap} objects, each made
 * to wait at most {@code wait} for one. A wait that runs out is a result of the benchmark (a
 * pool that starves some threads), so {@link Blocking#acquire} returns null then instead of
 * throwing.
 */
final class BoundedPeers {
    static final String NAMES = "striped, concurrentBag, commonsPool2, vibur, stormpot, ceiling";

    private BoundedPeers() {
    }

    /** A bounded pool whose acquire waits; one implementation per fork, so calls stay monomorphic. */
    interface Blocking extends AutoCloseable {
        /** An object, or null if none came free within the wait. */
        Payload acquire() throws Exception;

        void release(Payload p);

        @Override
        void close() throws Exception;
    }

    static Blocking create(String impl, int size, int cap, Duration wait) {
        switch (impl) {
            case "striped":
                return striped(size, cap, wait);
            case "commonsPool2":
                return commonsPool2(size, cap, wait);
            case "concurrentBag":
                return concurrentBag(size, cap, wait);
            case "vibur":
                return vibur(size, cap, wait);
            case "stormpot":
                return stormpot(size, cap, wait);
            case "ceiling":
                return ceiling(size);
            default:
                throw new IllegalArgumentException("unknown impl '" + impl + "'; expected one of " + NAMES);
        }
    }

    /** This library, {@code maxTotal(cap)}. */
    static Blocking striped(int size, int cap, Duration wait) {
        Pool<Payload> pool = Pool.builder(() -> new Payload(size))
                .maxTotal(cap)
                .acquireTimeout(wait)
                .name("bounded-benchmark")
                .build();
        return new Blocking() {
            @Override
            public Payload acquire() {
                try {
                    return pool.acquire();
                } catch (PoolTimeoutException e) {
                    return null;
                }
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

    /**
     * {@code GenericObjectPool} with {@code maxTotal = maxIdle = cap}, blocking borrow (its
     * default), JMX off, no evictor, no tests on borrow.
     */
    static Blocking commonsPool2(int size, int cap, Duration wait) {
        GenericObjectPoolConfig<Payload> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(cap);
        config.setMaxIdle(cap);
        config.setBlockWhenExhausted(true);
        config.setMaxWait(wait);
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
                try {
                    return pool.borrowObject();
                } catch (java.util.NoSuchElementException e) {
                    return null; // its way of saying the wait ran out
                }
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

    /**
     * HikariCP's {@code ConcurrentBag} holding {@code cap} entries, {@code borrow} with a timeout
     * and {@code requite}, as HikariCP uses it.
     */
    static Blocking concurrentBag(int size, int cap, Duration wait) {
        // The listener asks for new entries when borrowers wait; the bag is full at cap, as a
        // HikariCP pool at maximumPoolSize would be, so it adds none.
        ConcurrentBag<Payload> bag = new ConcurrentBag<>(waiting -> { });
        for (int i = 0; i < cap; i++) {
            bag.add(new Payload(size));
        }
        long waitNanos = wait.toNanos();
        return new Blocking() {
            @Override
            public Payload acquire() throws InterruptedException {
                return bag.borrow(waitNanos, TimeUnit.NANOSECONDS);
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

    /**
     * Vibur's {@code ConcurrentPool} over a {@code ConcurrentLinkedDeque}, all {@code cap}
     * objects made up front, not fair (its faster setting: a releasing thread may take the
     * object back before a waiter), {@code tryTake} with a timeout and {@code restore}.
     */
    static Blocking vibur(int size, int cap, Duration wait) {
        ConcurrentPool<Payload> pool = new ConcurrentPool<>(new ConcurrentLinkedDequeCollection<>(),
                new PoolObjectFactory<>() {
                    @Override
                    public Payload create() {
                        return new Payload(size);
                    }

                    @Override
                    public boolean readyToTake(Payload p) {
                        return true;
                    }

                    @Override
                    public boolean readyToRestore(Payload p) {
                        return true;
                    }

                    @Override
                    public void destroy(Payload p) {
                        // plain heap objects: nothing to free
                    }
                }, cap, cap, false);
        long waitNanos = wait.toNanos();
        return new Blocking() {
            @Override
            public Payload acquire() {
                return pool.tryTake(waitNanos, TimeUnit.NANOSECONDS);
            }

            @Override
            public void release(Payload p) {
                pool.restore(p);
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }

    /** Stormpot with {@code cap} objects, through its thread-local tap (see {@link StormpotPeer}). */
    static Blocking stormpot(int size, int cap, Duration wait) {
        StormpotPeer peer = new StormpotPeer(new Peers.Factory(size), size, cap, wait.toMillis());
        return new Blocking() {
            @Override
            public Payload acquire() {
                return peer.claim();
            }

            @Override
            public void release(Payload p) {
                peer.release(p);
            }

            @Override
            public void close() {
                peer.close();
            }
        };
    }

    /**
     * Not a pool: the ceiling. Every thread has an object of its own, with no cap, no wait and no
     * shared write, so a cycle is the work alone. On a machine with as many cores as the cap (2
     * here) no bounded pool can be faster: at most {@code cap} holds run at once in both cases,
     * and a pool adds its own cost and the hand-over between threads. The ratio of a pool to this
     * row is how much of the machine the pool leaves to the work.
     */
    static Blocking ceiling(int size) {
        ThreadLocal<Payload> own = ThreadLocal.withInitial(() -> new Payload(size));
        return new Blocking() {
            @Override
            public Payload acquire() {
                return own.get();
            }

            @Override
            public void release(Payload p) {
                // nothing to give back: the object stays the thread's own
            }

            @Override
            public void close() {
                // nothing to close
            }
        };
    }
}
