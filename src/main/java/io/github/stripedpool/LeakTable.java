package io.github.stripedpool;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

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

    /** Adds {@code t}, retiring any older tracker of the same object (released, or stale). */
    void track(LeakTracker t, Object object) {
        chains.compute(t.hash, (h, head) -> {
            LeakTracker rest = unlink(head, object);
            t.next = rest;
            return t;
        });
        added();
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

    /** Retires the tracker of {@code object}, if any: the object was acquired untracked. */
    void untrack(Object object) {
        if (find(object) != null) {
            chains.computeIfPresent(System.identityHashCode(object), (h, head) -> unlink(head, object));
        }
    }

    /** Removes {@code t} if it is still in the table (the reaper, after its object died). */
    boolean remove(LeakTracker t) {
        boolean[] removed = new boolean[1];
        chains.computeIfPresent(t.hash, (h, head) -> without(head, x -> x == t, x -> removed[0] = true));
        return removed[0];
    }

    /** The chain {@code head} without the tracker of {@code object}, which is cleared. */
    private LeakTracker unlink(LeakTracker head, Object object) {
        return without(head, x -> x.refersTo(object), LeakTracker::clear);
    }

    /**
     * The chain {@code head} without the trackers {@code drop} selects; each of them is counted
     * out of {@link #size} and passed to {@code dropped}. Runs under the bin lock. Rebuilds the
     * links in place: a concurrent lookup sees either the old or the new successor, both of
     * which lead only to trackers that are, or were just, valid.
     */
    private LeakTracker without(LeakTracker head, Predicate<LeakTracker> drop,
            Consumer<LeakTracker> dropped) {
        LeakTracker kept = null;
        LeakTracker tail = null;
        for (LeakTracker x = head; x != null; x = x.next) {
            if (drop.test(x)) {
                dropped.accept(x);
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
        return kept;
    }
}
