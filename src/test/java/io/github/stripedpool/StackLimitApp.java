package io.github.stripedpool;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Run by {@link StackLimitTest} in a new JVM: builds each of the test's pools and walks a thread
 * down to the end of its stack acquiring and releasing, before any other use of the library;
 * then checks that each pool still hands out and takes back two objects. Prints the modes walked.
 */
public final class StackLimitApp {
    private StackLimitApp() {
    }

    /**
     * Unbounded pools in every mode. (A bounded pool is walked only through its waiting path, in
     * {@link StackLimitTest}: an overflow at the end of the stack inside a bounded pool's acquire
     * or release can still lose its unit of capacity.)
     */
    static Map<String, Function<Tracked.Factory, PoolBuilder<Tracked>>> modes() {
        Function<Tracked.Factory, PoolBuilder<Tracked>> unbounded = f -> Pool.builder(f::create).maxIdle(2);
        Map<String, Function<Tracked.Factory, PoolBuilder<Tracked>>> m = new LinkedHashMap<>();
        m.put("unbounded", unbounded);
        m.put("unbounded with hooks", f -> f.builder().maxIdle(2));
        m.put("unbounded, paranoid", unbounded.andThen(b -> b.leakDetection(LeakDetection.PARANOID)));
        m.put("unbounded, sampled", unbounded.andThen(b -> b.leakDetection(LeakDetection.SAMPLED)));
        return m;
    }

    public static void main(String[] args) throws Exception {
        List<String> walked = new ArrayList<>();
        for (Map.Entry<String, Function<Tracked.Factory, PoolBuilder<Tracked>>> a : modes().entrySet()) {
            String mode = a.getKey();
            Function<Tracked.Factory, PoolBuilder<Tracked>> builder = a.getValue();
            try (Pool<Tracked> pool = builder.apply(new Tracked.Factory()).name("deep").build()) {
                StackWalk deep = new StackWalk(pool);
                Thread t = new Thread(null, () -> deep.down(0), "deep", 256 * 1024);
                t.start();
                t.join(60_000);
                if (t.isAlive() || deep.overflows == 0) {
                    System.out.println(mode + ": stuck or never overflowed");
                    return;
                }
                Tracked x = pool.acquire(Duration.ofSeconds(5));
                Tracked y = pool.acquire(Duration.ofSeconds(5));
                pool.release(x);
                pool.release(y);
                pool.stats();
            } catch (Throwable e) {
                System.out.println(mode + ": " + e);
                e.printStackTrace(System.out);
                return;
            }
            walked.add(mode);
        }
        System.out.println("walked: " + String.join(", ", walked));
    }
}
