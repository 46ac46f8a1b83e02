package io.github.stripedpool;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs in a child JVM with a small heap ({@link HeapExhaustionTest}): the first releases,
 * acquisitions of idle objects and invalidations a pool (and this JVM) ever makes run while the
 * heap is full to its last bytes; a bounded pool, or with {@code -D}{@value #ENGINE_PROPERTY}{@code
 * =unbounded} an unbounded one; built and used by platform threads, or (JDK 21+, see
 * {@link #THREADS_PROPERTY}) built on a virtual thread and used by a platform one, or built on a
 * platform thread and used by a virtual one: the two kinds take different paths. None of them needs memory for itself, but a path first run sets
 * itself up: a {@code VarHandle} call site is linked, a class loaded, and that allocates. Out of
 * memory halfway through a bounded release once left an entry IDLE, its idle-stack flag set, in
 * no stack: never handed out again, a unit of maxTotal lost for good. Building the pool
 * rehearses those paths ({@link Rehearsal}); here none of them may then run out of memory, and,
 * the heap free again, a bounded pool must hand out its whole capacity at once, and either pool
 * must hand out no object twice, balance its accounting and destroy every object once. Exits 0
 * and prints {@value #WARM} if so, exits 1 with what went wrong otherwise.
 */
final class ColdPathsApp {
    static final String WARM = "a pool's first releases and acquisitions ran in a full heap";
    static final String ENGINE_PROPERTY = "cold.engine";
    private static final boolean BOUNDED = !"unbounded".equals(System.getProperty(ENGINE_PROPERTY));
    /** {@code -Dcold.threads=virtual-builder}: the pool is built on a virtual thread (JDK 21+). */
    static final String THREADS_PROPERTY = "cold.threads";
    private static final boolean VIRTUAL_BUILDER = "virtual-builder".equals(System.getProperty(THREADS_PROPERTY));
    /** {@code -Dcold.threads=virtual-user}: a virtual thread runs the steps (JDK 21+). */
    private static final boolean VIRTUAL_USER = "virtual-user".equals(System.getProperty(THREADS_PROPERTY));
    private static final int MADE = 1;
    private static final int FULL = 2;
    /** The user's and the main thread's steps, in turn. */
    private static volatile int phase;
    private static volatile boolean finished;
    private static volatile Throwable userFailure;

    private static final int MAX_TOTAL = 4;
    /** The bounded pool makes at most 5; the unbounded one makes what it needs. */
    private static final AtomicInteger[] SUPPLY = new AtomicInteger[4 * MAX_TOTAL];
    private static int made;

    private ColdPathsApp() {
    }

    public static void main(String[] args) throws Exception {
        for (int i = 0; i < SUPPLY.length; i++) {
            SUPPLY[i] = new AtomicInteger();
        }
        PoolBuilder<AtomicInteger> builder = Pool.builder(() -> SUPPLY[made++]).reset(x -> { })
                .destroy(AtomicInteger::incrementAndGet).name("cold");
        if (BOUNDED) {
            builder.maxTotal(MAX_TOTAL).validate(x -> true);
        }
        Pool<AtomicInteger> pool = VIRTUAL_BUILDER ? onAVirtualThread(builder::build) : builder.build();
        AtomicInteger[] held = new AtomicInteger[MAX_TOTAL];
        // The pool's first releases (of the object the thread took last, then of others),
        // first acquisitions of idle objects (the one released last, then others: in a bounded
        // pool through the thread's hint, from the idle stacks, past a stale entry), first
        // invalidation (destroy; in a bounded pool the entry freed and its capacity back).
        // Every step, and the record of failures, is made before the heap fills: only the
        // pool's own code runs there.
        String[] names = {"release of the object taken last", "release of another", "release of a third",
            "acquire of the object released last", "acquire of a second idle object",
            "acquire of a third idle object", "invalidate", "release again"};
        Runnable[] steps = {
            () -> pool.release(held[3]),
            () -> pool.release(held[2]),
            () -> pool.release(held[1]),
            () -> held[1] = pool.acquire(Duration.ZERO),
            () -> held[2] = pool.acquire(Duration.ZERO),
            () -> held[3] = pool.acquire(Duration.ZERO),
            () -> pool.invalidate(held[0]),
            () -> pool.release(held[3]),
        };
        boolean[] outOfMemory = new boolean[steps.length];
        BoundedHeapExhaustionApp.freeLastBytes(); // its class loaded before the heap fills
        // Creation needs memory (each object's record): the user makes the objects (a virtual
        // user is handed them), then waits, the heap is filled, then the user runs the steps. A
        // virtual user spins meanwhile: unmounted, it could need memory to mount again.
        Runnable user = () -> {
            try {
                if (!VIRTUAL_USER) {
                    make(pool, held);
                }
                phase = MADE;
                while (phase != FULL) {
                    Thread.onSpinWait();
                }
                for (int i = 0; i < steps.length; i++) {
                    outOfMemory[i] = !step(steps[i]);
                }
            } catch (Throwable t) {
                userFailure = t;
            } finally {
                finished = true;
            }
        };
        if (VIRTUAL_USER) {
            // Made on this platform thread, so that the virtual thread's first acquisitions
            // take idle objects, not new ones (a creation would set its paths up first).
            make(pool, held);
            TestSupport.startVirtual(user);
        } else {
            Thread t = new Thread(user, "cold-user");
            t.start();
        }
        while (phase != MADE && !finished) {
            Thread.onSpinWait();
        }
        List<Object> hog = HeapExhaustionApp.fillTheHeap();
        phase = FULL;
        while (!finished) {
            Thread.onSpinWait(); // no join: it may need memory
        }
        hog.clear();
        BoundedHeapExhaustionApp.freeLastBytes();
        System.gc();

        StringBuilder problems = new StringBuilder();
        if (userFailure != null) {
            problems.append("\nthe user thread failed outside the steps: ").append(userFailure);
        }
        for (int i = 0; i < steps.length; i++) {
            if (outOfMemory[i]) {
                problems.append("\nout of memory in a full heap: ").append(names[i]);
            }
        }
        for (AtomicInteger x : new AtomicInteger[] {held[1], held[2]}) {
            try {
                pool.release(x); // held, unless a step above failed halfway
            } catch (RuntimeException e) {
                problems.append("\nafter the full heap: ").append(e);
            }
        }
        // The whole capacity, at once, each object to one caller (an unbounded pool makes more
        // if it must).
        AtomicInteger[] all = new AtomicInteger[MAX_TOTAL];
        int n = BoundedHeapExhaustionApp.handOutAtOnce(pool, all, 0, MAX_TOTAL, problems);
        while (n > 0) {
            pool.release(all[--n]);
        }
        BoundedHeapExhaustionApp.balancedAndDestroyedOnce(pool, SUPPLY, made, problems);
        System.out.println(problems.length() == 0 ? WARM + ": " + pool.stats() : "FAILED:" + problems);
        System.exit(problems.length() == 0 ? 0 : 1);
    }

    private static void make(Pool<AtomicInteger> pool, AtomicInteger[] held) {
        for (int i = 0; i < MAX_TOTAL; i++) {
            held[i] = pool.acquire(Duration.ZERO);
        }
    }

    /** Builds on a virtual thread, and waits for it. */
    private static <T> T onAVirtualThread(java.util.function.Supplier<T> build) throws InterruptedException {
        java.util.concurrent.atomic.AtomicReference<T> made = new java.util.concurrent.atomic.AtomicReference<>();
        TestSupport.startVirtual(() -> made.set(build.get())).join();
        return made.get();
    }

    /** Runs {@code step} with the heap's last bytes taken; false if it ran out of memory. */
    private static boolean step(Runnable step) {
        BoundedHeapExhaustionApp.topUp();
        try {
            step.run();
            return true;
        } catch (OutOfMemoryError e) {
            return false;
        }
    }
}
