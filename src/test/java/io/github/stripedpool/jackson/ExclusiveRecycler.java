package io.github.stripedpool.jackson;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A recycler that notes every moment two threads use it at once. It belongs to a thread from
 * the moment Jackson links it to a pool until it gives it back; a link, a release or a buffer
 * taken or returned by any other thread in between is a violation.
 */
final class ExclusiveRecycler extends BufferRecycler {
    private final AtomicReference<Thread> user = new AtomicReference<>();
    private final Queue<String> violations;

    ExclusiveRecycler(Queue<String> violations) {
        this.violations = violations;
    }

    @Override
    public BufferRecycler withPool(RecyclerPool<BufferRecycler> pool) {
        Thread other = user.compareAndExchange(null, Thread.currentThread());
        if (other != null) {
            violations.add(Thread.currentThread() + " got a recycler " + other + " was using");
        }
        return super.withPool(pool);
    }

    @Override
    public void releaseToPool() {
        // Before the pool can hand it out again: the next user must find it free.
        if (!user.compareAndSet(Thread.currentThread(), null)) {
            violations.add(Thread.currentThread() + " released a recycler held by " + user.get());
        }
        super.releaseToPool();
    }

    @Override
    public byte[] allocByteBuffer(int ix, int minSize) {
        check();
        return super.allocByteBuffer(ix, minSize);
    }

    @Override
    public void releaseByteBuffer(int ix, byte[] buffer) {
        check();
        super.releaseByteBuffer(ix, buffer);
    }

    @Override
    public char[] allocCharBuffer(int ix, int minSize) {
        check();
        return super.allocCharBuffer(ix, minSize);
    }

    @Override
    public void releaseCharBuffer(int ix, char[] buffer) {
        check();
        super.releaseCharBuffer(ix, buffer);
    }

    private void check() {
        Thread holder = user.get();
        if (holder != Thread.currentThread()) {
            violations.add(Thread.currentThread() + " used a recycler held by " + holder);
        }
    }
}
