package io.github.stripedpool;

import static io.github.stripedpool.LincheckObjects.CLOSED;
import static io.github.stripedpool.LincheckObjects.OK;
import static io.github.stripedpool.LincheckObjects.SECRET;
import static io.github.stripedpool.LincheckObjects.check;
import static io.github.stripedpool.LincheckObjects.checkObjects;
import static io.github.stripedpool.LincheckObjects.claim;
import static io.github.stripedpool.LincheckObjects.modelCheck;
import static io.github.stripedpool.LincheckObjects.stress;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicInteger;
import io.github.stripedpool.LincheckObjects.Obj;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lincheck over a bounded pool's acquire, release, stats and close, from several threads, with
 * {@value #MAX_TOTAL} objects at most.
 *
 * <p>The sequential model is {@link Model}: an acquire gives a usable object or times out (both
 * {@code OK}: an acquire without waiting may time out while another thread's release is under
 * way, which linearizes before that release) while the pool is open, and throws
 * {@link PoolClosedException} once it is closed. The model says nothing about which object comes
 * back. Violations are results the model never produces: an object held by two threads, a
 * destroyed object handed out, an object not reset, more than {@value #MAX_TOTAL} objects made
 * alive at once, or a stats snapshot whose accounting does not hold. So Lincheck fails with the
 * interleaving that caused it.
 *
 * <p>{@link #accounting} checks the pool at quiescence: {@code created - dropped == live ==
 * idle + inUse <= maxTotal}, in use equals what the test holds, no object destroyed twice or
 * while held, and after close every object not held is destroyed.
 *
 * <p>Public, with public operations: Lincheck instantiates and calls them reflectively.
 */
public class BoundedPoolLincheckTest {
    static final int MAX_TOTAL = 2;
    static final int OVER_CAP = 5;
    static final int BAD_STATS = 6;

    /** The sequential specification: which results are possible, not which object comes back. */
    public static final class Model {
        private boolean closed;

        public Model() {
        }

        public int acquire() {
            return closed ? CLOSED : OK;
        }

        public int release() {
            return OK;
        }

        public int stats() {
            return OK;
        }

        public int close() {
            closed = true;
            return OK;
        }
    }

    private final AtomicReferenceArray<Obj> all = new AtomicReferenceArray<>(256);
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger alive = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private final ThreadLocal<ArrayDeque<Obj>> hand = ThreadLocal.withInitial(ArrayDeque::new);
    private final BoundedPool<Obj> pool = (BoundedPool<Obj>) Pool.builder(this::make)
            .reset(o -> o.value = 0)
            .destroy(this::destroy)
            .maxTotal(MAX_TOTAL)
            .acquireTimeout(Duration.ZERO)
            .name("bounded-lincheck")
            .build();

    public BoundedPoolLincheckTest() {
    }

    private Obj make() {
        Obj o = new Obj();
        all.set(created.getAndIncrement(), o);
        alive.incrementAndGet();
        return o;
    }

    private void destroy(Obj o) {
        o.destroyed.incrementAndGet();
        alive.decrementAndGet();
    }

    @Operation
    public int acquire() {
        Obj o;
        try {
            o = pool.acquire();
        } catch (PoolClosedException e) {
            return CLOSED;
        } catch (PoolTimeoutException e) {
            return OK;
        }
        if (alive.get() > MAX_TOTAL) {
            return OVER_CAP;
        }
        int v = claim(o);
        hand.get().push(o);
        held.incrementAndGet();
        return v;
    }

    @Operation
    public int release() {
        Obj o = hand.get().poll();
        if (o != null) {
            o.value = SECRET;
            o.holder.set(null);
            held.decrementAndGet();
            pool.release(o);
        }
        return OK;
    }

    /** A snapshot taken while other threads work: never more in use or alive than the cap. */
    @Operation
    public int stats() {
        PoolStats s = pool.stats();
        return s.inUse() > MAX_TOTAL || s.idle() > MAX_TOTAL || s.created() - s.dropped() > MAX_TOTAL
                ? BAD_STATS : OK;
    }

    @Operation
    public int close() {
        pool.close();
        return OK;
    }

    @Validate
    public void accounting() {
        PoolStats s = pool.stats();
        check(s.created() == created.get(), "created", s);
        check(s.inUse() == held.get(), "inUse " + s.inUse() + " vs held " + held, s);
        check(s.created() - s.dropped() == s.idle() + s.inUse(), "created - dropped == idle + inUse", s);
        check(pool.live() == s.idle() + s.inUse(), "live " + pool.live() + " == idle + inUse", s);
        check(pool.live() <= MAX_TOTAL, "live within maxTotal", s);
        check(pool.waiting() == 0, "nobody waits at quiescence", s);
        checkObjects(all, created.get(), s);
    }

    /** Kept open for the whole class: the clock threads run while some pool needs them. */
    private static Pool<Object> keepsTheClocksRunning;

    @BeforeAll
    static void startTheClocks() {
        keepsTheClocksRunning = Pool.builder(Object::new).maxTotal(1).name("keeps-the-clocks-running").build();
    }

    @AfterAll
    static void stopTheClocks() {
        keepsTheClocksRunning.close();
    }

    @Test
    void modelCheckingMatchesTheModelWithinTheCap() {
        modelCheck(BoundedPoolLincheckTest.class, Model.class);
    }

    @Test
    void stressMatchesTheModelWithinTheCap() {
        stress(BoundedPoolLincheckTest.class, Model.class);
    }
}
