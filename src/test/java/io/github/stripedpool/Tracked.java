package io.github.stripedpool;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A pooled object that remembers what happened to it, and the factory and hooks that record it.
 *
 * <p>Concurrency: every field is atomic, because the hooks run on whichever thread releases,
 * ages or closes. {@link #owner} is set by compare-and-set when a test thread acquires the
 * object and cleared when it gives it back, so a second holder shows up as a failed CAS.
 */
final class Tracked {
    final int id;
    final AtomicReference<Thread> owner = new AtomicReference<>();
    final AtomicInteger resets = new AtomicInteger();
    final AtomicInteger destroys = new AtomicInteger();
    /** State a borrower leaves behind; the reset hook must clear it. */
    volatile String payload;

    private Tracked(int id) {
        this.id = id;
    }

    @Override
    public String toString() {
        return "Tracked#" + id;
    }

    /** Makes {@link Tracked} objects and keeps every one it made. */
    static final class Factory {
        final ConcurrentLinkedQueue<Tracked> made = new ConcurrentLinkedQueue<>();
        final AtomicInteger destroyed = new AtomicInteger();
        private final AtomicInteger ids = new AtomicInteger();

        Tracked create() {
            Tracked t = new Tracked(ids.incrementAndGet());
            made.add(t);
            return t;
        }

        void reset(Tracked t) {
            t.resets.incrementAndGet();
            t.payload = null;
        }

        void destroy(Tracked t) {
            t.destroys.incrementAndGet();
            destroyed.incrementAndGet();
        }

        PoolBuilder<Tracked> builder() {
            return Pool.builder(this::create).reset(this::reset).destroy(this::destroy);
        }

        /** Objects whose destroy hook ran more than once: must always be empty. */
        java.util.List<Tracked> destroyedTwice() {
            java.util.List<Tracked> bad = new java.util.ArrayList<>();
            for (Tracked t : made) {
                if (t.destroys.get() > 1) {
                    bad.add(t);
                }
            }
            return bad;
        }

        /** Objects whose destroy hook never ran. */
        java.util.List<Tracked> neverDestroyed() {
            java.util.List<Tracked> bad = new java.util.ArrayList<>();
            for (Tracked t : made) {
                if (t.destroys.get() == 0) {
                    bad.add(t);
                }
            }
            return bad;
        }
    }
}
