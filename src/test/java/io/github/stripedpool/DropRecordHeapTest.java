package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The record of the object a thread gave back last and saw dropped must keep nothing reachable:
 * held strongly, it kept each oversized buffer a {@code BufferPool} dropped alive until the
 * thread's next give-back, so a loop that takes a buffer of 60% of the heap, releases it and takes
 * the next one, which runs with plain allocation, ran out of memory with the pool.
 */
class DropRecordHeapTest {
    @Test
    void aDroppedOversizedBufferIsKeptReachableByTheDropRecord() throws Exception {
        String control = ChildJvm.run(DropRecordHeapApp.class, 60, "-Xmx96m", "-XX:+UseSerialGC", "-Dmode=control");
        assertTrue(control.contains("ok control"), control);
        String pooled = ChildJvm.run(DropRecordHeapApp.class, 60, "-Xmx96m", "-XX:+UseSerialGC", "-Dmode=pooled");
        assertTrue(pooled.contains("ok pooled"), pooled);
    }
}
