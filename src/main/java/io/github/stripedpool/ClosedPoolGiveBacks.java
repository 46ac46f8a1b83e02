package io.github.stripedpool;

import java.lang.ref.WeakReference;

/**
 * The object each thread last gave back to a closed unbounded pool, so that the same object
 * given back again in a row on that thread is refused as a double release instead of destroyed
 * twice: after {@code close()} the threads' slots, which hold that record while the pool is
 * open ({@link PrivateSlot#recordDropped}), are gone. Weakly held, so that a closed pool kept in
 * a static field keeps nothing it destroyed reachable.
 *
 * <p>Thread safety: each thread reads and writes only its own entry of the {@link ThreadLocal};
 * nothing is shared. Only the release and invalidate paths of a closed pool come here.
 */
final class ClosedPoolGiveBacks {
    private final ThreadLocal<WeakReference<Object>> last = new ThreadLocal<>();

    /**
     * Whether {@code x} is what the calling thread gave back last to the closed pool; if not,
     * records it as that.
     */
    boolean again(Object x) {
        WeakReference<Object> r = last.get();
        if (r != null && r.get() == x) {
            return true;
        }
        last.set(new WeakReference<>(x));
        return false;
    }
}
