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
import java.util.concurrent.atomic.AtomicReferenceArray;

import io.github.stripedpool.LincheckObjects.Obj;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Lincheck over the pool's operations: acquire, release, lease and close, from several threads.
 *
 * <p>The sequential model is {@link Model}: an acquire succeeds while the pool is open and throws
 * {@link PoolClosedException} once it is closed; release and close always succeed. The model
 * deliberately says nothing about which object an acquire returns: a concurrent pool may
 * legitimately create an object while another one sits idle (in another thread's private slot,
 * or pushed an instant after the acquire looked), so "created instead of reused" is no violation.
 * Whether the object returned is one the caller may use is checked by the operation itself and
 * reported in its result: it must not be held by anybody else (an owner field set by a CAS on
 * every hand-out), must not have been destroyed, and must carry no value of a previous holder
 * (the reset ran). Any such violation is a result the model never produces, so Lincheck fails
 * with the interleaving that caused it.
 *
 * <p>{@link #accounting} checks the pool at quiescence: {@code created - dropped == idle + inUse},
 * in use equals what the test holds, every object neither held nor destroyed is idle in the pool,
 * no object was destroyed twice, and after close every object not held is destroyed.
 *
 * <p>Public, with public operations: Lincheck instantiates and calls them reflectively.
 */
public class PoolLincheckTest {


    /** The sequential specification: which results are possible, not which object comes back. */
    public static final class Model {
        private boolean closed;

        public Model() {
        }

        public int acquire() {
            return closed ? CLOSED : OK;
        }

        public int lease() {
            return closed ? CLOSED : OK;
        }

        public int release() {
            return OK;
        }

        public int close() {
            closed = true;
            return OK;
        }
    }

    private final AtomicReferenceArray<Obj> all = new AtomicReferenceArray<>(256);
    private final AtomicInteger created = new AtomicInteger();
    private final AtomicInteger held = new AtomicInteger();
    private final ThreadLocal<ArrayDeque<Obj>> hand = ThreadLocal.withInitial(ArrayDeque::new);
    /** maxIdle 4 on one stripe: two private-slot permits and two stripe slots, so all paths run. */
    private final UnboundedPool<Obj> pool = (UnboundedPool<Obj>) Pool.builder(this::make)
            .reset(o -> o.value = 0)
            .destroy(o -> o.destroyed.incrementAndGet())
            .maxIdle(4)
            .stripes(1)
            .agingInterval(Duration.ofDays(1))
            .name("lincheck")
            .build();

    public PoolLincheckTest() {
    }

    private Obj make() {
        Obj o = new Obj();
        all.set(created.getAndIncrement(), o);
        return o;
    }

    @Operation
    public int acquire() {
        Obj o;
        try {
            o = pool.acquire();
        } catch (PoolClosedException e) {
            return CLOSED;
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

    @Operation
    public int lease() {
        try (Lease<Obj> lease = pool.lease()) {
            Obj o = lease.get();
            int v = claim(o);
            o.value = SECRET;
            o.holder.set(null);
            return v;
        } catch (PoolClosedException e) {
            return CLOSED;
        }
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
        checkObjects(all, created.get(), s);
    }

    /** Kept open for the whole class: the clock threads run while some pool needs them. */
    private static Pool<Object> keepsTheClocksRunning;

    @BeforeAll
    static void startTheAgingClock() {
        // The clock's daemon thread starts with the first pool and ends when none is left; start
        // it outside Lincheck's runs and keep it running through them.
        keepsTheClocksRunning = Pool.builder(Object::new).name("keeps-the-clocks-running").build();
    }

    @AfterAll
    static void stopTheAgingClock() {
        keepsTheClocksRunning.close();
    }

    @Test
    void modelCheckingMatchesTheModelWithExclusiveResetObjects() {
        modelCheck(PoolLincheckTest.class, Model.class);
    }

    @Test
    void stressMatchesTheModelWithExclusiveResetObjects() {
        stress(PoolLincheckTest.class, Model.class);
    }
}
