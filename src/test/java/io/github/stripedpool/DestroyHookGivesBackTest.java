package io.github.stripedpool;

import static io.github.stripedpool.PoolAssertions.MANUAL_AGING;
import static io.github.stripedpool.PoolAssertions.engine;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * A destroy hook that gives back another object (a composite returning its part to the pool)
 * while its own object is being dropped: the caller's next give-back of that object is a second
 * one, refused, and the object is destroyed once. The hook's nested release used to replace the
 * record of the drop, and the second give-back destroyed the object again.
 */
class DestroyHookGivesBackTest {

    static final class Node {
        Node part;
    }

    @Test
    void invalidateWhoseDestroyReleasesAPart_thenReleaseAgain_destroysOnce() {
        AtomicInteger destroyedX = new AtomicInteger();
        AtomicReference<Pool<Node>> ref = new AtomicReference<>();
        AtomicReference<Node> xRef = new AtomicReference<>();
        UnboundedPool<Node> pool = engine(Pool.builder(Node::new).agingInterval(MANUAL_AGING).destroy(n -> {
            if (n == xRef.get()) {
                destroyedX.incrementAndGet();
            }
            Node part = n.part;
            if (part != null) {
                n.part = null;
                ref.get().release(part); // gives its part back to the pool
            }
        }), "destroy-gives-back-a-part");
        ref.set(pool);
        pool.release(pool.acquire()); // the slot and its permit
        Node x = pool.acquire();
        x.part = pool.acquire();
        xRef.set(x);
        pool.invalidate(x); // destroyed once; its destroy releases the part
        Throwable t = null;
        try {
            pool.invalidate(x); // the caller gives x back twice in a row
        } catch (IllegalStateException e) {
            t = e;
        }
        assertEquals(1, destroyedX.get(), "x destroyed twice; second invalidate threw " + t + "; " + pool.stats());
        assertEquals(true, t instanceof IllegalStateException, "the second invalidate was not refused");
        PoolStats st = pool.stats();
        assertEquals(st.created() - st.dropped(), st.idle() + st.inUse(), "accounting: " + st);
    }
}
