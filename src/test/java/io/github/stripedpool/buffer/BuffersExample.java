package io.github.stripedpool.buffer;

// buffers:begin
import io.github.stripedpool.Lease;
import io.github.stripedpool.buffer.BufferPool;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;

class BuffersExample {
    // One pool for the application: 32 MiB of idle byte[] at most, classes 64 B to 64 KiB.
    static final BufferPool<byte[]> BUFFERS = BufferPool.bytes()
            .budget(32L << 20)
            .name("copy")
            .build();

    static long copy(InputStream in, OutputStream out) throws IOException {
        try (Lease<byte[]> lease = BUFFERS.lease(8192)) {
            byte[] buf = lease.get();         // buf.length is 8192 here, but may be larger
            long total = 0;
            for (int n; (n = in.read(buf, 0, buf.length)) > 0; total += n) {
                out.write(buf, 0, n);         // the count read, never buf.length
            }
            return total;
        }                                     // back to the pool: buf must not be used after this
    }

    public static void main(String[] args) throws IOException {
        for (int i = 0; i < 3; i++) {
            copy(new ByteArrayInputStream(new byte[100_000]), new ByteArrayOutputStream());
        }
        System.out.println(BUFFERS.stats().classStats(7)); // the 8 KiB class: created 1, hit rate 66.67%
    }
}
// buffers:end
