package io.github.stripedpool.bench;

import org.apache.commons.pool2.BasePooledObjectFactory;
import org.apache.commons.pool2.PooledObject;
import org.apache.commons.pool2.impl.DefaultPooledObject;
import org.apache.commons.pool2.impl.GenericObjectPool;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

/**
 * commons-pool2's {@code GenericObjectPool}, configured never to block, like the striped pool:
 * no cap on the total ({@code maxTotal = -1}) and {@code blockWhenExhausted = false}; the same
 * idle capacity as the other pools; JMX off; no evictor, no tests on borrow or return.
 *
 * <p>What the defaults would cost: {@code maxTotal = 8} with {@code blockWhenExhausted = true}
 * makes a ninth concurrent borrower wait without a time limit; {@code maxIdle = 8} destroys every
 * object released while 8 are idle, so a burst of more than 8 holders keeps creating objects;
 * {@code jmxEnabled = true} registers an MBean per pool, a platform-MBean-server call at
 * construction and a registration to undo at close. The per-borrow work (a lock-protected
 * deque, an identity map lookup on return, timestamps and statistics) is the same either way.
 */
final class CommonsPool2Peer implements Peer {
    private final GenericObjectPool<Payload> pool;

    CommonsPool2Peer(Peers.Factory factory, int maxIdle) {
        GenericObjectPoolConfig<Payload> config = new GenericObjectPoolConfig<>();
        config.setMaxTotal(-1);
        config.setBlockWhenExhausted(false);
        config.setMaxIdle(maxIdle);
        config.setJmxEnabled(false);
        config.setTimeBetweenEvictionRuns(java.time.Duration.ofMillis(-1));
        pool = new GenericObjectPool<>(new BasePooledObjectFactory<>() {
            @Override
            public Payload create() {
                return factory.get();
            }

            @Override
            public PooledObject<Payload> wrap(Payload p) {
                return new DefaultPooledObject<>(p);
            }
        }, config);
    }

    @Override
    public Payload acquire() {
        try {
            return pool.borrowObject();
        } catch (Exception e) {
            throw new IllegalStateException("commons-pool2 borrow failed", e);
        }
    }

    @Override
    public void release(Payload p) {
        pool.returnObject(p);
    }

    @Override
    public long created() {
        return pool.getCreatedCount();
    }

    @Override
    public void close() {
        pool.close();
    }
}
