package io.github.stripedpool.bench;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The floor of {@link JacksonBenchmark}: one recycler per carrier thread, in a plain slot. A
 * virtual thread runs on a carrier (one of about one per processor), and only one thread runs on a
 * carrier at a time, so a slot per carrier is the least a pool of recyclers can be on virtual
 * threads as on platform threads (a platform thread is its own carrier): no atomic instruction,
 * no counter, no check, no aging. What a real pool adds above it is its bookkeeping; how far the
 * pools are from it is what any pool could still gain on this workload.
 *
 * <p>Why it is correct, if not usable. Each slot is read and written only by the thread mounted on
 * its carrier, and mounting a virtual thread on a carrier happens after the previous one left it
 * (the scheduler's hand-over orders the two), so a recycler in a slot is never taken by two
 * threads. A virtual thread that parked between acquire and release would resume on any carrier
 * and release there: the recycler goes to that carrier's slot, one already there is dropped, and a
 * virtual thread that finds its carrier's slot empty makes a new recycler. Nothing is shared,
 * nothing is lost but to the collector. Not a usable pool: it needs the JDK-internal
 * {@code Thread.currentCarrierThread()} (the fork opens {@code java.lang}), keeps recyclers of
 * dead carriers for good, and gives a thread that holds two recyclers at once only one back.
 */
final class CarrierRecyclerFloor implements RecyclerPool<BufferRecycler> {
    private static final long serialVersionUID = 1L;

    /** The JVM's carrier threads and benchmark threads have small ids: 64 slots rarely collide. */
    private static final int SLOTS = 64;

    /** {@code Thread.currentCarrierThread()} on JDK 21+; {@code Thread.currentThread()} before. */
    private static final MethodHandle CARRIER = carrierThread();

    /** One carrier's recycler; {@code carrier} tells a slot of another carrier of the same index. */
    static final class Slot {
        final Thread carrier;
        BufferRecycler recycler;

        Slot(Thread carrier) {
            this.carrier = carrier;
        }
    }

    private final transient Slot[] slots = new Slot[SLOTS];

    private static MethodHandle carrierThread() {
        MethodType type = MethodType.methodType(Thread.class);
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            return lookup.findStatic(Thread.class, "currentCarrierThread", type);
        } catch (NoSuchMethodException e) {
            try { // JDK 17: no virtual threads, every thread is its own carrier
                return MethodHandles.lookup().findStatic(Thread.class, "currentThread", type);
            } catch (ReflectiveOperationException impossible) {
                throw new ExceptionInInitializerError(impossible);
            }
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("the floor recycler pool needs the JVM option "
                    + "--add-opens=java.base/java.lang=ALL-UNNAMED (JacksonBenchmark's forks add it)", e);
        }
    }

    @SuppressWarnings("deprecation") // Thread.getId(): threadId() only exists from JDK 19
    private Slot slot(Thread carrier) {
        int i = (int) carrier.getId() & (SLOTS - 1);
        Slot s = slots[i];
        if (s == null || s.carrier != carrier) {
            // A new carrier, or one whose index another took: the last to write keeps the slot.
            // The field it checks is final, so a slot seen by another carrier is seen whole.
            s = new Slot(carrier);
            slots[i] = s;
        }
        return s;
    }

    private static Thread carrier() {
        try {
            return (Thread) CARRIER.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    @Override
    public BufferRecycler acquirePooled() {
        Slot s = slot(carrier());
        BufferRecycler r = s.recycler;
        if (r == null) {
            return new BufferRecycler();
        }
        s.recycler = null;
        return r;
    }

    @Override
    public void releasePooled(BufferRecycler recycler) {
        slot(carrier()).recycler = recycler;
    }
}
