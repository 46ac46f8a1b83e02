package io.github.stripedpool;

import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIIII_Result;

/**
 * The validate hook against a claim of the object it checks: a bounded pool of one object, idle,
 * with a validate hook; one actor acquires it (the hook runs with the entry RESERVED, see
 * {@link BoundedStates#toValidate}), while the other invalidates the same object as a former
 * borrower would by mistake, a claim (BORROWED to RESERVED) that may land between the acquirer's
 * take of the idle entry and its own claim of it, during the hook, or after it.
 *
 * <p>Whatever the order, the object is never destroyed while the hook checks it, never destroyed
 * twice, and the capacity stays exact. Result: r1 = 1 if the acquirer got the object, 2 if a new
 * one (its take lost the entry to the invalidation); r2 = 1 if the invalidation was accepted, 0
 * if it was refused as a release of an object not borrowed; r3 = objects destroyed; r4 = live
 * objects afterwards; r5 = 1 if the destroy hook ran while the validate hook was checking the
 * same object.
 */
@JCStressTest
@Description("BoundedPool: the validate hook vs an invalidation of the object it checks")
@Outcome(id = "1, 0, 0, 1, 0", expect = Expect.ACCEPTABLE,
        desc = "the invalidation came while the object was idle or under validation: refused")
@Outcome(id = "1, 1, 1, 0, 0", expect = Expect.ACCEPTABLE,
        desc = "the invalidation came after the acquire: it destroyed the object the acquirer holds (the caller's mistake)")
@Outcome(id = "2, 1, 1, 1, 0", expect = Expect.ACCEPTABLE,
        desc = "the invalidation claimed the entry between the take and the validation: the acquirer made a new object")
@Outcome(id = ".*, .*, .*, .*, 1", expect = Expect.FORBIDDEN, desc = "destroyed while the validate hook checked it")
@Outcome(expect = Expect.FORBIDDEN, desc = "destroyed twice, handed out after its destroy, or capacity lost or exceeded")
@State
public class BoundedValidateVsStaleInvalidateRace {
    private volatile Object checking;
    private volatile int destroyedWhileChecked;
    private volatile int destroyed;
    private final BoundedPool<Object> pool;
    private final Object first;

    public BoundedValidateVsStaleInvalidateRace() {
        pool = (BoundedPool<Object>) Pool.builder(Object::new).maxTotal(1).name("race")
                .validate(x -> {
                    checking = x;
                    int spin = 0; // a window the other actor can land in
                    for (int i = 0; i < 64; i++) {
                        spin += i;
                    }
                    checking = null;
                    return spin >= 0;
                })
                .destroy(x -> {
                    if (checking == x) {
                        destroyedWhileChecked = 1;
                    }
                    destroyed++; // destroys are serialised by the entry's state, when correct
                })
                .build();
        first = pool.acquire();
        pool.release(first);
    }

    @Actor
    public void acquire(IIIII_Result r) {
        r.r1 = pool.acquire(Duration.ofSeconds(5)) == first ? 1 : 2;
    }

    @Actor
    public void staleInvalidate(IIIII_Result r) {
        try {
            pool.invalidate(first);
            r.r2 = 1;
        } catch (IllegalStateException | IllegalArgumentException refused) {
            r.r2 = 0;
        }
    }

    @Arbiter
    public void check(IIIII_Result r) {
        r.r3 = destroyed;
        r.r4 = pool.live();
        r.r5 = destroyedWhileChecked;
        pool.close();
    }
}
