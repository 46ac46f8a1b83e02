package io.github.stripedpool;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs in a child JVM ({@link BackgroundClassInitTest}) with class initialisation logged: builds
 * a pool of each kind, then lets every kind of background work run once (aging and its destroy
 * hook, leak reports of both engines, bounded eviction (twice: the second of an object the
 * refill made), held-too-long reports).
 * Exits 0 once each has happened, 1 if one did not within the deadline.
 */
final class BackgroundClassInitApp {
    private static final long DEADLINE_SECONDS = 60;

    private BackgroundClassInitApp() {
    }

    public static void main(String[] args) throws Exception {
        AtomicInteger aged = new AtomicInteger();
        AtomicInteger leaks = new AtomicInteger();
        AtomicInteger boundedLeaks = new AtomicInteger();
        AtomicInteger evicted = new AtomicInteger();
        AtomicInteger heldTooLong = new AtomicInteger();
        Pool<byte[]> unbounded = Pool.builder(() -> new byte[64]).name("unbounded")
                .agingInterval(Duration.ZERO).destroy(x -> aged.incrementAndGet()).build();
        Pool<byte[]> tracked = Pool.builder(() -> new byte[64]).name("tracked")
                .leakDetection(LeakDetection.PARANOID).onLeak(r -> leaks.incrementAndGet()).build();
        Pool<byte[]> bounded = Pool.builder(() -> new byte[64]).name("bounded").maxTotal(4).minIdle(1)
                .maxIdleTime(Duration.ofMillis(50)).maxLifetime(Duration.ofMillis(100)).reportHeldLongerThan(Duration.ofMillis(50))
                .leakDetection(LeakDetection.PARANOID)
                .onLeak(r -> {
                    if (r.kind() == LeakReport.Kind.HELD_TOO_LONG) {
                        heldTooLong.incrementAndGet();
                    } else if (r.kind() == LeakReport.Kind.LEAKED) {
                        boundedLeaks.incrementAndGet();
                    }
                })
                .destroy(x -> evicted.incrementAndGet()).build();

        HeapExhaustionApp.idle(unbounded, 4);
        byte[] held = bounded.acquire(); // held too long, then released
        byte[] idle = bounded.acquire();
        bounded.acquire(); // leaked
        bounded.release(idle); // not used again: evicted after maxLifetime, then refilled for minIdle
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(DEADLINE_SECONDS);
        while ((aged.get() == 0 || leaks.get() == 0 || boundedLeaks.get() == 0 || evicted.get() < 2
                || heldTooLong.get() == 0) && System.nanoTime() < deadline) {
            tracked.acquire(); // leaked
            System.gc();
            Thread.sleep(20); // a poll interval; the deadline bounds the loop
        }
        bounded.release(held);
        String line = "aged " + aged + ", leaks " + leaks + " and " + boundedLeaks + ", evicted " + evicted
                + ", held too long " + heldTooLong;
        boolean ok = aged.get() > 0 && leaks.get() > 0 && boundedLeaks.get() > 0 && evicted.get() >= 2
                && heldTooLong.get() > 0;
        System.out.println((ok ? "every kind of background work ran: " : "FAILED: ") + line);
        System.exit(ok ? 0 : 1);
    }
}
