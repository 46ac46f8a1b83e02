package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;

/**
 * One pool's trackers, found by the identity of their object without holding the object.
 *
 * <p>Structure. A {@link ConcurrentHashMap} from identity hash code to a chain of trackers with
 * that hash (linked by {@link LeakTracker#next}); a lookup walks the chain and matches with
 * {@link java.lang.ref.Reference#refersTo}, which compares without making the object strongly
 * reachable again. Distinct live objects can share an identity hash, hence the chain.
 *
 * <p>Concurrency. Chains are changed only inside {@code compute}, under the map's lock for that
 * key; lookups walk them without a lock through the volatile {@code next} links. A lookup racing
 * with a removal may still return the tracker being removed: this only happens when the same
 * object is released by one thread while another acquires it, which is itself a double release
 * that the table cannot always see.
 *
 * <p>{@link #size} counts the trackers in the table. It is raised before {@code track} returns
 * and lowered after a removal, so a thread that got an object from a tracked acquisition (by any
 * hand-off that orders memory) reads a non-zero size. Readers use it to skip the lookup when the
 * table is empty, which is what keeps sampled tracking cheap for untracked objects.
 */
final class LeakTable {
    private static final VarHandle SIZE;

    static {
        try {
            SIZE = MethodHandles.lookup().findVarHandle(LeakTable.class, "size", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ConcurrentHashMap<Integer, LeakTracker> chains = new ConcurrentHashMap<>();
    /** A field of the table rather than an AtomicInteger: one load less on every check. */
    private volatile int size;

    boolean isEmpty() {
        return size == 0;
    }

    int size() {
        return size;
    }

    private void added() {
        SIZE.getAndAdd(this, 1);
    }

    private void removed() {
        SIZE.getAndAdd(this, -1);
    }

    /**
     * Adds {@code t}, retiring any older tracker of the same object (released, or stale).
     *
     * @throws StackOverflowError before any change, if the stack has no room for the change
     */
    void track(LeakTracker t, Object object) {
        StackHeadroom.ensure(); // an overflow inside the edit would leave the table half changed
        chains.compute(t.hash, new Edit(t, object, null));
        added();
    }

    /**
     * The trackers linked in the chains, counted by walking them, whatever {@link #size} says;
     * only those still borrowed if {@code borrowedOnly}. For tests.
     */
    int linked(boolean borrowedOnly) {
        int n = 0;
        for (LeakTracker head : chains.values()) {
            for (LeakTracker t = head; t != null; t = t.next) {
                if (!borrowedOnly || !t.released()) {
                    n++;
                }
            }
        }
        return n;
    }

    /** The tracker of {@code object}, or null if it is not tracked. */
    LeakTracker find(Object object) {
        for (LeakTracker t = chains.get(System.identityHashCode(object)); t != null; t = t.next) {
            if (t.refersTo(object)) {
                return t;
            }
        }
        return null;
    }

    /**
     * Retires the tracker of {@code object}, if any: the object was acquired untracked.
     *
     * @throws StackOverflowError before any change, if the stack has no room for the change
     */
    void untrack(Object object) {
        if (find(object) != null) {
            StackHeadroom.ensure();
            chains.computeIfPresent(System.identityHashCode(object), new Edit(null, object, null));
        }
    }

    /** Removes {@code t} if it is still in the table (the reaper, after its object died). */
    boolean remove(LeakTracker t) {
        StackHeadroom.ensure();
        Edit edit = new Edit(null, null, t);
        chains.computeIfPresent(t.hash, edit);
        return edit.removed;
    }

    /**
     * One change of one chain, run by {@code compute} under the map's lock for its key. It
     * clears and counts out the trackers it drops while it walks, before {@code compute}
     * installs the new chain, so an exception in between would leave a cleared tracker linked
     * and counted for good (or, after {@code compute}, a new one uncounted). So every caller
     * first proves the stack's room ({@link StackHeadroom#ensure}): a thread at the end of its
     * stack, which can overflow at any call, fails before the change rather than inside it.
     * (The map may still run out of memory growing its table after it installed a chain, a
     * failure this class does not survive exactly: the size is then off by one.) The edit: the
     * chain without the tracker of {@link #object} (which is cleared) or without
     * {@link #tracker}, each removal counted out of {@link #size}; then {@link #add} in front,
     * if any. Rebuilds the links in place: a concurrent lookup sees either the old or the new
     * successor, both of which lead only to trackers that are, or were just, valid.
     *
     * <p>A class rather than lambdas, as everywhere in this package: the reaper removes
     * trackers on a background thread that must outlive heap exhaustion, and a lambda's call
     * site that is first run while the heap is exhausted fails to link for good (see
     * {@link ClockThread}).
     */
    private final class Edit implements BiFunction<Integer, LeakTracker, LeakTracker> {
        private final LeakTracker add;
        private final Object object;
        private final LeakTracker tracker;
        /** Whether a tracker was removed; read by the caller after {@code compute}. */
        boolean removed;

        Edit(LeakTracker add, Object object, LeakTracker tracker) {
            this.add = add;
            this.object = object;
            this.tracker = tracker;
        }

        @Override
        public LeakTracker apply(Integer hash, LeakTracker head) {
            LeakTracker kept = null;
            LeakTracker tail = null;
            for (LeakTracker x = head; x != null; x = x.next) {
                if (object != null ? x.refersTo(object) : x == tracker) {
                    if (object != null) {
                        x.clear();
                    }
                    removed = true;
                    removed();
                    continue;
                }
                if (tail == null) {
                    kept = x;
                } else {
                    tail.next = x;
                }
                tail = x;
            }
            if (tail != null) {
                tail.next = null;
            }
            if (add == null) {
                return kept;
            }
            add.next = kept;
            return add;
        }
    }
}
