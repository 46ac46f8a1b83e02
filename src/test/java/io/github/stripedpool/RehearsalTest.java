package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The rehearsal of the pools' paths that the first build of the JVM runs ({@link Rehearsal};
 * whether it does its job is {@code HeapExhaustionTest}'s, in a child JVM): it must not fail the
 * build of a thread that was interrupted, nor clear its interrupt.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RehearsalTest {

    @Test
    void anInterruptedThreadRehearsesAndStaysInterrupted() {
        Thread.currentThread().interrupt();
        try {
            Rehearsal.run(LeakSettings.DISABLED);
            assertTrue(Thread.currentThread().isInterrupted(), "the rehearsal cleared the thread's interrupt");
        } finally {
            Thread.interrupted();
        }
    }

    /**
     * The throwaway pools read no system property: a bad leak-detection property fails only the
     * builds that use it, not one that sets its own level (it failed every build, since the
     * rehearsal was never done).
     */
    @Test
    void aBadLeakDetectionPropertyDoesNotFailTheRehearsal() {
        String before = System.getProperty(LeakSettings.LEVEL_PROPERTY);
        System.setProperty(LeakSettings.LEVEL_PROPERTY, "bogus");
        try {
            Rehearsal.run(LeakSettings.DISABLED);
            Rehearsal.run(LeakSettings.resolve(LeakDetection.PARANOID, 0, null));
            Rehearsal.run(LeakSettings.resolve(LeakDetection.SAMPLED, 3, null));
        } finally {
            if (before == null) {
                System.clearProperty(LeakSettings.LEVEL_PROPERTY);
            } else {
                System.setProperty(LeakSettings.LEVEL_PROPERTY, before);
            }
        }
    }

    /**
     * A platform builder's rehearsal needs no carrier of the virtual-thread scheduler: while a
     * spinning virtual thread holds every carrier it must end at once. (It once started a
     * virtual thread and waited for it: 10 s whenever the carriers were busy or pinned, as in a
     * build inside a class initialiser that request handlers on virtual threads wait for.)
     */
    @Test
    void aPlatformBuildersRehearsalNeedsNoCarrier() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(TestSupport.virtualThreadsHere(), "virtual threads need JDK 21+");
        String set = System.getProperty("jdk.virtualThreadScheduler.parallelism");
        int carriers = set != null ? Integer.parseInt(set) : Runtime.getRuntime().availableProcessors();
        java.util.concurrent.atomic.AtomicInteger running = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        for (int i = 0; i < carriers; i++) {
            TestSupport.startVirtual(() -> {
                running.incrementAndGet();
                while (!stop.get()) {
                    Thread.onSpinWait();
                }
            });
        }
        try {
            Spin.until(() -> running.get() == carriers, java.time.Duration.ofSeconds(20),
                    () -> running.get() + " of " + carriers + " carriers taken");
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            Thread builder = new Thread(() -> {
                Rehearsal.run(LeakSettings.DISABLED);
                done.countDown();
            }, "platform-builder");
            builder.start();
            assertTrue(done.await(5, TimeUnit.SECONDS),
                    "a platform builder's rehearsal waited for a carrier: " + builder.getState());
        } finally {
            stop.set(true);
        }
    }

    @Test
    void aPoolBuiltByAnInterruptedThreadWorks() {
        Thread.currentThread().interrupt();
        try (Pool<Object> pool = Pool.builder(Object::new).maxTotal(1).name("interrupted-build").build()) {
            pool.release(pool.acquire());
            assertTrue(Thread.currentThread().isInterrupted());
        } finally {
            Thread.interrupted();
        }
    }
}
