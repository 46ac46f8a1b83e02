package io.github.stripedpool;

import java.util.Set;
import java.util.TreeSet;

/**
 * Child JVM of {@link FailedBuildStartsThreadsTest}: the JVM's first build, which fails on a
 * contradiction among its settings (-Dkind=unbounded: minIdle without maxTotal; -Dkind=bounded:
 * minIdle above maxTotal), at the leak level -Dlevel. Prints the library's threads alive right
 * after the build threw.
 */
public final class FailedBuildStartsThreadsApp {
    static Set<String> libraryThreads() {
        Set<String> s = new TreeSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.isAlive() && t.getName().startsWith(Background.THREAD_PREFIX)) {
                s.add(t.getName());
            }
        }
        return s;
    }

    public static void main(String[] args) {
        LeakDetection level = LeakDetection.valueOf(System.getProperty("level"));
        boolean bounded = "bounded".equals(System.getProperty("kind"));
        System.out.println("BEFORE=" + libraryThreads());
        PoolBuilder<Object> b = Pool.builder(Object::new).leakDetection(level);
        if (bounded) {
            b.maxTotal(1).minIdle(2);
        } else {
            b.minIdle(0);
        }
        try {
            b.build();
            System.out.println("BUILT (unexpected)");
        } catch (IllegalStateException expected) {
            System.out.println("REJECTED=" + expected.getMessage());
        }
        System.out.println("AFTER=" + libraryThreads());
    }
}
