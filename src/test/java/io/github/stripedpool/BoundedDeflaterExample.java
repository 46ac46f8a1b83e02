package io.github.stripedpool;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.zip.Deflater;

/**
 * The example of {@code docs/bounded.md}, compiled and run by {@link BoundedDeflaterExampleTest}
 * so that the page cannot drift from the API. Keep the two in step.
 */
final class BoundedDeflaterExample implements AutoCloseable {
    // A Deflater holds native zlib memory until end() is called: a hard cap, reuse, and a
    // destroy hook that frees it are exactly what a bounded pool is for.
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
            deflaters.release(d);                   // reset here, then to the next waiter
        }
    }

    @Override
    public void close() {
        deflaters.close();                          // ends idle Deflaters now, busy ones on release
    }

    Pool<Deflater> pool() {
        return deflaters;
    }
}
