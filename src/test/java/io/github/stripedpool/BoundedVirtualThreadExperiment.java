package io.github.stripedpool;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * {@value #THREADS} virtual threads share a bounded pool of {@value #MAX_TOTAL} objects, each
 * acquiring and releasing {@value #CYCLES} times: every one must finish (nobody starves or times
 * out), no object may be held by two at once, and no virtual thread may pin its carrier while
 * it waits (JFR's {@code jdk.VirtualThreadPinned} events of any duration). A warm-up round runs
 * first, unrecorded: loading and initialising a class pins the virtual thread that waits for it,
 * which says nothing about the pool. The library's own JFR events are off in the recording: the
 * recorder may pin a virtual thread that commits any event while it flushes its buffer. On JDK 24+ a {@code synchronized} wait no longer pins, so
 * there the check catches only waits in native code, class loading or class initialisers; on
 * JDK 21 to 23 it catches monitors too. A pin while loading a class is rare (the threads must
 * meet on its loading lock), so the recording also lists every library class loaded while the
 * threads run ({@code jdk.ClassLoad}): each is a pin waiting to happen, and the list is the same
 * in every run.
 *
 * <p>Compiled at Java 17, so virtual threads are reached by reflection; needs a JDK 21+ to run.
 * {@link BoundedVirtualThreadTest} runs it in process, or in a child JVM through {@link #main},
 * which prints one {@value #RESULT} line for the parent to read.
 */
final class BoundedVirtualThreadExperiment {
    static final String RESULT = "bounded-virtual-thread-experiment:";
    static final int THREADS = 5_000;
    static final int MAX_TOTAL = 4;
    static final int CYCLES = 20;
    private static final String LIBRARY = Pool.class.getPackageName() + ".";

    private BoundedVirtualThreadExperiment() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    /** Runs the experiment; returns the {@value #RESULT} line. */
    static String run() throws Exception {
        ExecutorService virtual = (ExecutorService) Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        Counters c = new Counters();
        long pinned = 0;
        long late = 0;
        PoolStats s;
        Path jfr = Files.createTempFile("bounded-virtual", ".jfr");
        try (Recording recording = new Recording();
             Pool<AtomicReference<Thread>> pool = Pool.builder(AtomicReference<Thread>::new)
                     .maxTotal(MAX_TOTAL).acquireTimeout(Duration.ofSeconds(60)).build()) {
            recording.enable("jdk.VirtualThreadPinned").withThreshold(Duration.ZERO).withStackTrace();
            recording.enable("jdk.ClassLoad").withThreshold(Duration.ZERO);
            // The library's own events off: committing any JFR event from a virtual thread can
            // pin it while the recorder flushes its buffer (seen once on JDK 25: 1.9 ms in
            // AcquireWaitEvent.commit(), "Contended monitor enter" inside the recorder). That is
            // the recorder's cost, paid by every event, not the pool's wait, which this checks.
            recording.disable(AcquireWaitEvent.NAME);
            recording.disable(FactoryFailureEvent.NAME);
            recording.disable(LeakEvent.NAME);
            recording.disable(PoolStatsEvent.NAME);
            runThreads(virtual, pool, THREADS / 50, c); // the warm-up: loads every class involved
            // ...and the pool's work after a collection (on a worker), which a collection
            // during the run would otherwise load then
            BoundedMaintenance m = ((BoundedPool<?>) pool).maintenance();
            long heard = m.collectionsHeard();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (m.collectionsHeard() == heard && System.nanoTime() - deadline < 0) {
                System.gc(); // a full collection takes milliseconds: the loop paces itself
            }
            c.finished.set(0);
            recording.start();
            runThreads(virtual, pool, THREADS, c);
            recording.stop();
            recording.dump(jfr);
            s = pool.stats();
            for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
                if (e.getEventType().getName().equals("jdk.VirtualThreadPinned")) {
                    if (pinned == 0) {
                        System.out.println("pinned: " + e);
                    }
                    pinned++;
                } else if (e.getEventType().getName().equals("jdk.ClassLoad")) {
                    RecordedClass loaded = e.getClass("loadedClass");
                    if (loaded != null && loaded.getName().startsWith(LIBRARY)) {
                        System.out.println("loaded while the threads ran: " + loaded.getName());
                        late++;
                    }
                }
            }
        } finally {
            virtual.shutdown();
            Files.deleteIfExists(jfr);
        }
        if (c.firstFailure.get() != null) {
            c.firstFailure.get().printStackTrace(System.out);
        }
        System.out.println(s);
        long imbalance = s.created() - s.dropped() - s.idle() - s.inUse();
        return RESULT + " finished=" + c.finished.get() + " failures=" + c.failures.get()
                + " overlaps=" + c.overlaps.get() + " pinned=" + pinned + " lateClasses=" + late
                + " created=" + s.created()
                + " imbalance=" + imbalance + " waits=" + s.waits() + " timeouts=" + s.timeouts()
                + " longestWaitMicros=" + s.waitNanosMax() / 1000;
    }

    /** What the threads report. */
    private static final class Counters {
        final AtomicInteger finished = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger failures = new AtomicInteger();
        final AtomicReference<Throwable> firstFailure = new AtomicReference<>();
    }

    /** Runs {@code threads} virtual threads of {@value #CYCLES} acquire-release cycles each. */
    private static void runThreads(ExecutorService virtual, Pool<AtomicReference<Thread>> pool,
            int threads, Counters c) throws Exception {
        List<Future<?>> tasks = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            tasks.add(virtual.submit(() -> {
                try {
                    for (int k = 0; k < CYCLES; k++) {
                        AtomicReference<Thread> x = pool.acquire();
                        if (!x.compareAndSet(null, Thread.currentThread())) {
                            c.overlaps.incrementAndGet();
                        }
                        Thread.yield(); // let other virtual threads run while this one holds
                        x.set(null);
                        pool.release(x);
                    }
                    c.finished.incrementAndGet();
                } catch (Throwable e) {
                    c.failures.incrementAndGet();
                    c.firstFailure.compareAndSet(null, e);
                }
                return null;
            }));
        }
        for (Future<?> f : tasks) {
            f.get(120, TimeUnit.SECONDS);
        }
    }

    /** The value of {@code key} in a {@value #RESULT} line. */
    static long value(String line, String key) {
        for (String kv : line.substring(RESULT.length()).trim().split(" ")) {
            String[] p = kv.split("=");
            if (p[0].equals(key)) {
                return Long.parseLong(p[1]);
            }
        }
        throw new IllegalArgumentException("no " + key + " in " + line);
    }
}
