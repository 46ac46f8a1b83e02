package io.github.stripedpool;

// The bounded example of README.md and docs/bounded.md: both show the block between the markers
// verbatim (BoundedDeflaterExampleTest checks it, and runs the class), so keep them in step.
// bounded-example:begin
import io.github.stripedpool.Pool;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.zip.Deflater;

/** Compresses on many threads with at most 8 native zlib streams, reused and ended in one place. */
final class BoundedDeflaterExample implements AutoCloseable {
    private final Pool<Deflater> deflaters = Pool.builder(() -> new Deflater(Deflater.BEST_SPEED))
            .maxTotal(8)                            // at most 8 native zlib streams
            .reset(Deflater::reset)                 // ready for the next input
            .destroy(Deflater::end)                 // frees the native memory
            .acquireTimeout(Duration.ofSeconds(2))  // then PoolTimeoutException
            .maxIdleTime(Duration.ofMinutes(5))     // shrink after a burst
            .name("deflaters")
            .build();

    byte[] compress(byte[] input) {
        Deflater d = deflaters.acquire();           // waits while 8 are in use
        try {
            d.setInput(input);
            d.finish();
            ByteArrayOutputStream out = new ByteArrayOutputStream(input.length / 2 + 64);
            byte[] buf = new byte[8192];
            while (!d.finished()) {
                out.write(buf, 0, d.deflate(buf));
            }
            return out.toByteArray();
        } finally {
            deflaters.release(d);                   // reset, then to the oldest waiter if any
        }
    }

    Pool<Deflater> pool() {
        return deflaters;                           // for pool().stats(), or PoolMetrics
    }

    @Override
    public void close() {
        deflaters.close();                          // ends idle Deflaters now, busy ones on release
    }
}
// bounded-example:end
