package io.github.stripedpool;

// quick-start:begin
import io.github.stripedpool.Lease;
import io.github.stripedpool.Pool;

class QuickStartExample {
    static final class Buf {
        final byte[] bytes;
        int length;
        Buf(int size) { bytes = new byte[size]; }
        void clear() { java.util.Arrays.fill(bytes, 0, length, (byte) 0); length = 0; }
        void free() { length = -1; } // release native memory, close a channel...
    }

    public static void main(String[] args) {
        Pool<Buf> pool = Pool.builder(() -> new Buf(1024))
                .reset(Buf::clear)      // runs on release, before anyone else can see the object
                .destroy(Buf::free)     // runs when the pool lets go of an object
                .maxIdle(4096)
                .name("buffers")
                .build();

        Buf buf = pool.acquire();
        try {
            buf.bytes[buf.length++] = 42;
        } finally {
            pool.release(buf);
        }

        try (Lease<Buf> lease = pool.lease()) {
            Buf b = lease.get();
            b.bytes[b.length++] = 7;
        }

        System.out.println(pool.stats()); // 1 idle, hit rate 50.00%, created 1
        pool.close();                     // destroys the idle buffer
        System.out.println(pool.stats()); // (closed): 0 idle, created 1, dropped 1
    }
}
// quick-start:end
