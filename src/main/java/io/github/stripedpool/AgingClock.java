package io.github.stripedpool;

import java.lang.ref.Reference;
import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;
import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * Tells every live pool when a garbage collection has happened, so that pools age their idle
 * objects in step with the collector, as Go's {@code sync.Pool} does.
 *
 * <p>Mechanism. The JVM offers libraries no hook at the start of a collection, but any
 * collection that runs clears a weak reference to a young, otherwise unreachable object. The
 * clock keeps one such sentinel, and one daemon thread ({@value #THREAD_NAME}, shared by every
 * pool in the JVM) blocks on the sentinel's reference queue. When the sentinel is cleared the
 * thread arms a new one and calls each registered pool, which ages if its own
 * {@code agingInterval} has passed since its last cycle. A collection that runs while the thread
 * is still busy with the previous one is simply not seen; the next one is.
 *
 * <p>Concurrency. {@link #pools} is a lock-free queue of weak references: registering never
 * blocks, and a pool that became unreachable without {@code close()} is forgotten at the next
 * collection. Only the clock thread reads the queue and writes {@link #sentinel}. The thread
 * starts with the first pool and then lives as long as the JVM, blocked when there is nothing
 * to do, like the thread of {@link java.lang.ref.Cleaner}.
 */
final class AgingClock {
    static final String THREAD_NAME = "striped-pool-aging";

    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    private final ReferenceQueue<Object> collections = new ReferenceQueue<>();
    private final ConcurrentLinkedQueue<WeakReference<UnboundedPool<?>>> pools =
            new ConcurrentLinkedQueue<>();
    /** Strongly held so that the reference itself survives until it is enqueued. */
    private Reference<Object> sentinel;

    private AgingClock() {
        arm();
        Thread t = new Thread(this::run, THREAD_NAME);
        t.setDaemon(true);
        t.start();
    }

    private static final class Holder {
        static final AgingClock INSTANCE = new AgingClock();
    }

    static void register(UnboundedPool<?> pool) {
        Holder.INSTANCE.pools.add(new WeakReference<>(pool));
    }

    static void unregister(UnboundedPool<?> pool) {
        Holder.INSTANCE.pools.removeIf(r -> r.get() == pool);
    }

    private void arm() {
        sentinel = new WeakReference<>(new Object(), collections);
    }

    private void run() {
        for (;;) {
            try {
                collections.remove();
            } catch (InterruptedException e) {
                continue; // nothing owns this thread but the clock: keep ticking
            }
            arm();
            long now = System.nanoTime();
            for (Iterator<WeakReference<UnboundedPool<?>>> it = pools.iterator(); it.hasNext(); ) {
                UnboundedPool<?> pool = it.next().get();
                if (pool == null) {
                    it.remove();
                    continue;
                }
                try {
                    pool.onGarbageCollection(now);
                } catch (Throwable e) {
                    LOG.log(System.Logger.Level.ERROR,
                            "aging of pool '" + pool.name() + "' failed; the pool keeps working "
                                    + "and ages again at the next collection", e);
                }
            }
        }
    }
}
