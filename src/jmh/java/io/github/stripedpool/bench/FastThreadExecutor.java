package io.github.stripedpool.bench;

import io.netty.util.concurrent.FastThreadLocalThread;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * JMH's worker threads as Netty {@link FastThreadLocalThread}s, the only threads on which
 * Netty 4.2's {@code Recycler} pools. JMH builds it by reflection, through the public
 * {@code (int maxThreads, String prefix)} constructor, when a fork runs with
 * {@code -Djmh.executor=CUSTOM -Djmh.executor.class=io.github.stripedpool.bench.FastThreadExecutor};
 * the benchmarks that compare with Netty pass these flags in their {@code @Fork}, so every peer
 * of those benchmarks runs on the same kind of thread.
 */
public final class FastThreadExecutor extends ThreadPoolExecutor {
    /** The two fork flags that make JMH use this executor, for {@code @Fork(jvmArgsAppend)}. */
    static final String SELECT = "-Djmh.executor=CUSTOM";
    static final String CLASS = "-Djmh.executor.class=io.github.stripedpool.bench.FastThreadExecutor";

    public FastThreadExecutor(int maxThreads, String prefix) {
        super(maxThreads, maxThreads, 0, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(),
                factory(prefix));
    }

    private static ThreadFactory factory(String prefix) {
        AtomicInteger n = new AtomicInteger();
        return r -> {
            Thread t = new FastThreadLocalThread(r, prefix + "-fast-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
    }
}
