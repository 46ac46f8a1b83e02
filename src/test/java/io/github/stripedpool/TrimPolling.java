package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/** Collects until a pool has trimmed a number of times: a trim runs on a worker after the collection. */
public final class TrimPolling {
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    private TrimPolling() {
    }

    /**
     * Collects, one collection at a time, each time waiting up to 2 s for its trim, until
     * {@code trims} reaches {@code target}; fails with {@code state} after 20 s.
     */
    public static void collectUntil(LongSupplier trims, long target, Supplier<String> state) {
        long deadline = System.nanoTime() + DEADLINE.toNanos();
        while (trims.getAsLong() < target) {
            long seen = trims.getAsLong();
            System.gc();
            long waitUntil = Math.min(deadline, System.nanoTime() + 2_000_000_000L);
            while (trims.getAsLong() == seen && System.nanoTime() - waitUntil < 0) {
                Thread.onSpinWait();
            }
            if (System.nanoTime() - deadline > 0) {
                fail(target + " trims not seen within " + DEADLINE + ": " + state.get());
            }
        }
    }
}
