package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The library loads {@code BoundedThreads.Local} when a pool is built, and
 * {@code AcquireWaitEvent} when Flight Recorder starts (the recording below), because "a virtual
 * thread that waits there while another loads it pins its carrier" (BoundedThreads.loadNow;
 * BoundedVirtualThreadTest counts such "lateClasses"). The classes of the wait itself are not:
 * in a fresh JVM, the first virtual threads that wait load {@code BoundedWaitQueue$Waiter}, and
 * the first that time out load {@code PoolTimeoutException}, on a virtual thread, under the
 * class loader's lock.
 * BoundedVirtualThreadExperiment hides it with an unrecorded warm-up round. Runs in a child JVM
 * (JDK 21+), so that no earlier test has loaded the classes.
 */
@Timeout(180)
class BoundedFirstWaitClassLoadTest {
    static final String RESULT = "first-wait-classes:";

    public static void main(String[] args) throws Exception {
        ExecutorService virtual = (ExecutorService) Executors.class
                .getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
        Path jfr = Files.createTempFile("first-wait", ".jfr");
        TreeSet<String> late = new TreeSet<>();
        try (Recording recording = new Recording();
             Pool<Object> pool = Pool.builder(Object::new).maxTotal(2)
                     .acquireTimeout(Duration.ofSeconds(60)).build()) {
            recording.enable("jdk.ClassLoad").withThreshold(Duration.ZERO);
            Object a = pool.acquire();
            Object b = pool.acquire();
            pool.release(a);
            pool.release(b);
            a = pool.acquire();
            b = pool.acquire(); // the pool's ordinary paths warmed up; nobody has waited yet
            recording.start();
            List<Future<?>> tasks = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                final boolean shortWait = i % 2 == 0;
                tasks.add(virtual.submit(() -> {
                    try {
                        Object x = pool.acquire(shortWait ? Duration.ofMillis(20) : Duration.ofSeconds(60));
                        pool.release(x);
                    } catch (PoolTimeoutException expected) {
                        // half of them are meant to give up
                    }
                    return null;
                }));
            }
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (System.nanoTime() - until < 0) {
                Thread.onSpinWait(); // the short waits time out
            }
            pool.release(a);
            pool.release(b);
            for (Future<?> f : tasks) {
                f.get(60, TimeUnit.SECONDS);
            }
            recording.stop();
            recording.dump(jfr);
            for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
                if (!e.getEventType().getName().equals("jdk.ClassLoad")) {
                    continue;
                }
                RecordedClass c = e.getClass("loadedClass");
                String by = e.getThread() == null || e.getThread().getJavaName() == null ? "?"
                        : e.getThread().getJavaName(); // virtual threads of the executor have no name
                if (c != null && c.getName().startsWith(Pool.class.getPackageName() + ".") && by.isEmpty()
                        && !c.getName().startsWith(BoundedFirstWaitClassLoadTest.class.getName())) {
                    late.add(c.getName());
                }
            }
        } finally {
            virtual.shutdown();
            Files.deleteIfExists(jfr);
        }
        System.out.println(RESULT + late);
    }

    @Test
    void noClassOfTheLibraryIsFirstLoadedByAVirtualThreadThatWaits() throws Exception {
        Path jdk = Runtime.version().feature() >= 21 ? Path.of(System.getProperty("java.home"))
                : VirtualThreadTest.findJdk21();
        String out = ChildJvm.run(jdk, VirtualThreadTest.childClassPath(), BoundedFirstWaitClassLoadTest.class,
                150, "-Xmx256m");
        String line = out.lines().filter(l -> l.startsWith(RESULT)).findFirst().orElseThrow(
                () -> new AssertionError("no result line:\n" + out));
        assertTrue(line.equals(RESULT + "[]"), "library classes first loaded by virtual threads while "
                + "they waited (each a carrier pinned while another thread loads it): " + line);
    }
}
