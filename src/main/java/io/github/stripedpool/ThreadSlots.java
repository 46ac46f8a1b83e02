package io.github.stripedpool;

import java.lang.ref.WeakReference;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The making and finding of the unbounded pool's {@link PrivateSlot}s, apart from the pool's
 * thread-id table, which the fast paths read directly: the registry of every slot not yet
 * reaped, the {@code ThreadLocal} that finds the slot of a thread whose table entry belongs to
 * another thread, the round-robin choice of home stripes, and the slot made last.
 *
 * <p>Invariants. A slot is in {@link #registry} from its making until it is reaped (its owner
 * is dead), so aging, close and {@code stats()} reach every live slot; the registry holds it
 * strongly. {@link #fallback}'s value is a JDK type that holds the slot weakly: a thread's
 * {@code ThreadLocalMap} keeps its value until the stale entry happens to be expunged, long
 * after the pool is gone, and a library object there would pin the class loader of an
 * application that used the library (an undeployed web application's). {@link #recent} is
 * written by the thread that made the slot and read by the next one, which reaps it if its owner
 * died (thread-per-task code); a stale read only leaves that reaping to aging. Reaping forgets
 * it ({@link #forgetRecent}), so that a reaped slot does not keep its dead thread reachable.
 */
final class ThreadSlots {
    /** Every private slot not yet reaped: aging, close and stats reach them here. */
    final ConcurrentLinkedQueue<PrivateSlot> registry = new ConcurrentLinkedQueue<>();
    private final ThreadLocal<WeakReference<PrivateSlot>> fallback = new ThreadLocal<>();
    private final AtomicInteger nextHome = new AtomicInteger();
    /** The slot made last: the next thread to start reaps it if its owner died meanwhile. */
    private volatile PrivateSlot recent;
    private final int mask;
    private final boolean exact;
    private final int hooks;
    private final LeakDetectingPool<?> sampler;
    private final SampleCountdown<?> sampling;

    /**
     * @param stripes the number of stripes, a power of two: homes are assigned among them
     * @param exact whether the pool has a destroy hook (see {@link PrivateSlot})
     * @param hooks the pool's release hooks, as {@link UserHooks#slotHooks()} tells them
     * @param sampler and {@code sampling}: under sampled leak detection, else null
     */
    ThreadSlots(int stripes, boolean exact, int hooks, LeakDetectingPool<?> sampler, SampleCountdown<?> sampling) {
        this.mask = stripes - 1;
        this.exact = exact;
        this.hooks = hooks;
        this.sampler = sampler;
        this.sampling = sampling;
    }

    /** The slot made last, or null. */
    PrivateSlot recent() {
        return recent;
    }

    /**
     * Forgets {@code s} as the most recent slot once it is reaped, so that it does not keep its
     * dead thread reachable. Racy: a slot made meanwhile may be forgotten instead, which only
     * leaves its reaping to aging (see the class comment).
     */
    void forgetRecent(PrivateSlot s) {
        if (recent == s) {
            recent = null;
        }
    }

    /** A new slot for {@code t}, registered, and known as the most recent. */
    PrivateSlot make(Thread t) {
        PrivateSlot s = new PrivateSlot(t, nextHome.getAndIncrement() & mask, exact,
                sampler == null ? null : sampler.table(), hooks);
        if (sampling != null) {
            sampling.start(s);
        }
        registry.add(s);
        recent = s;
        return s;
    }

    /** The calling thread's slot as its {@code ThreadLocal} knows it, or null. */
    PrivateSlot fallback() {
        WeakReference<PrivateSlot> ref = fallback.get();
        return ref == null ? null : ref.get();
    }

    /** Makes {@code s} the calling thread's slot for {@link #fallback}. */
    void remember(PrivateSlot s) {
        fallback.set(new WeakReference<>(s));
    }

    /** The value of the calling thread's {@code ThreadLocal} entry, as the thread holds it. */
    Object threadLocalValue() {
        return fallback.get();
    }
}
