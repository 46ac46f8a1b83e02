package io.github.stripedpool;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@value #THREADS} virtual threads each hold an object of a bounded pool built with
 * {@code reportHeldLongerThan} until the maintenance thread has reported all of them as held too
 * long, then release: every borrowing must be reported once, with its virtual thread's name and
 * a stack that starts at the experiment's acquire, and once more on return. Compiled at Java 17,
 * so virtual threads are reached by reflection; needs a JDK 21+ to run.
 * {@link BoundedHeldTooLongTest} runs it in process, or in a child JVM through {@link #main},
 * which prints one {@value #RESULT} line.
 */
final class BoundedHeldTooLongVirtualExperiment {
    static final String RESULT = "held-too-long-virtual-experiment:";
    static final int THREADS = 4;

    private BoundedHeldTooLongVirtualExperiment() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println(run());
    }

    static String run() throws Exception {
        List<LeakReport> reports = new CopyOnWriteArrayList<>();
        CountDownLatch allReported = new CountDownLatch(THREADS);
        CountDownLatch allReturned = new CountDownLatch(THREADS);
        Method start = Thread.class.getMethod("startVirtualThread", Runnable.class);
        int held = 0;
        int returned = 0;
        int sites = 0;
        int names = 0;
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(THREADS)
                .reportHeldLongerThan(Duration.ofMillis(30))
                .onLeak(r -> {
                    reports.add(r);
                    if (r.kind() == LeakReport.Kind.HELD_TOO_LONG) {
                        allReported.countDown();
                    } else if (r.kind() == LeakReport.Kind.RETURNED) {
                        allReturned.countDown();
                    }
                }).build()) {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                String name = "holder-" + i;
                threads.add((Thread) start.invoke(null, (Runnable) () -> hold(pool, name, allReported)));
            }
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
            }
            // A release while the maintenance run still reports its borrowing has its RETURNED
            // report delivered by that run, right after the HELD_TOO_LONG one: after the release.
            allReturned.await(20, TimeUnit.SECONDS);
            for (LeakReport r : reports) {
                held += r.kind() == LeakReport.Kind.HELD_TOO_LONG ? 1 : 0;
                returned += r.kind() == LeakReport.Kind.RETURNED ? 1 : 0;
                sites += r.stackTrace().length > 0
                        && r.stackTrace()[0].getClassName().startsWith(BoundedHeldTooLongVirtualExperiment.class.getName()) ? 1 : 0;
                names += r.threadName().startsWith("holder-") ? 1 : 0;
            }
            return RESULT + " held=" + held + " returned=" + returned + " sites=" + sites
                    + " names=" + names + " counted=" + pool.stats().heldTooLong();
        }
    }

    private static void hold(Pool<Object> pool, String name, CountDownLatch allReported) {
        Thread.currentThread().setName(name);
        Object x = pool.acquire();
        try {
            allReported.await(20, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            pool.release(x);
        }
    }

    static long value(String line, String key) {
        int i = line.indexOf(" " + key + "=");
        if (i < 0) {
            throw new AssertionError("no " + key + " in: " + line);
        }
        int from = i + key.length() + 2;
        int to = line.indexOf(' ', from);
        return Long.parseLong(line.substring(from, to < 0 ? line.length() : to));
    }
}
