package io.github.stripedpool;

import java.util.concurrent.atomic.AtomicInteger;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Test;

/**
 * Lincheck over one small {@link Stripe}: pushes, pops, steals, the victim pass and aging, from
 * several threads, in every interleaving the model checker reaches and in free-running stress.
 *
 * <p>A stripe is not a linearizable stack: its {@code top} hint is racy by design, so a pop may
 * miss an object a concurrent push just placed, and a push may see the stripe full while a pop
 * frees a slot (see the {@link Stripe} class comment). What must hold in every interleaving is
 * checked instead as invariants: each token records its own state (held by a thread, idle in the
 * stripe, dropped), and every transition is a compare-and-set that fails if the stripe handed a
 * token to two takers or returned one that was not idle. An operation returns 0, or the code of
 * the violation it saw; the test class run sequentially (Lincheck's default model) returns 0
 * everywhere, so any non-zero result fails the check. {@link #accounting} checks at the end that
 * nothing was lost: tokens pushed minus tokens taken equals the tokens idle in the stripe.
 *
 * <p>Public, with public operations: Lincheck instantiates and calls them reflectively.
 */
public class StripeLincheckTest {
    static final int HELD = 0;
    static final int IDLE = 1;
    static final int DROPPED = 2;

    /** Violation codes returned by the operations. */
    static final int OK = 0;
    static final int TAKEN_TWICE = 1;
    static final int DROPPED_TWICE = 2;

    static final class Token {
        final AtomicInteger state = new AtomicInteger(HELD);
    }

    /** Two slots: small enough that pushes find it full and pops find it empty. */
    private final Stripe stripe = new Stripe(2);
    private final AtomicInteger pushed = new AtomicInteger();
    private final AtomicInteger taken = new AtomicInteger();

    public StripeLincheckTest() {
    }

    @Operation
    public int pushNew() {
        return push(new Token());
    }

    /** An owner's pop of a young object (stamp 0 in epoch 0), then the release of the same token. */
    @Operation
    public int popAndPushBack() {
        Token t = (Token) stripe.popYoung(0);
        if (t == null) {
            return OK;
        }
        int v = claim(t);
        return v != OK ? v : push(t);
    }

    /** A thief's young pop, keeping the token. */
    @Operation
    public int steal() {
        Token t = (Token) stripe.popYoung(0);
        return t == null ? OK : claim(t);
    }

    /** The victim pass of an acquire: objects of any age. */
    @Operation
    public int victimPass() {
        Token t = (Token) stripe.popAny(0);
        return t == null ? OK : claim(t);
    }

    /** An aging cycle two epochs on, which drops every idle token (all carry stamp 0). */
    @Operation
    public int age() {
        int[] violation = {OK};
        stripe.dropAged(2, x -> {
            if (!((Token) x).state.compareAndSet(IDLE, DROPPED)) {
                violation[0] = DROPPED_TWICE;
            }
            taken.incrementAndGet();
        });
        return violation[0];
    }

    private int push(Token t) {
        t.state.set(IDLE); // before the publishing CAS: a taker must see IDLE
        if (stripe.push(t, 0) >= 0) {
            pushed.incrementAndGet();
        } else {
            t.state.set(HELD); // the stripe looked full: the token stays with its holder
        }
        return OK;
    }

    private int claim(Token t) {
        taken.incrementAndGet();
        return t.state.compareAndSet(IDLE, HELD) ? OK : TAKEN_TWICE;
    }

    @Validate
    public void accounting() {
        int idle = 0;
        for (int i = 0; i < stripe.capacity; i++) {
            Object x = stripe.items[Stripe.PAD + i];
            if (x != null) {
                idle++;
                if (((Token) x).state.get() != IDLE) {
                    throw new IllegalStateException("slot " + i + " holds a token that is not idle");
                }
            }
        }
        if (pushed.get() - taken.get() != idle) {
            throw new IllegalStateException("pushed " + pushed + " - taken " + taken + " != idle " + idle);
        }
    }

    @Test
    void modelCheckingFindsNoLostOrDuplicatedObject() {
        new ModelCheckingOptions()
                .iterations(15)
                .invocationsPerIteration(300)
                .threads(2)
                .actorsPerThread(3)
                .actorsBefore(1)
                .actorsAfter(1)
                .check(StripeLincheckTest.class);
    }

    @Test
    void stressFindsNoLostOrDuplicatedObject() {
        new StressOptions()
                .iterations(10)
                .invocationsPerIteration(1_000)
                .threads(3)
                .actorsPerThread(3)
                .check(StripeLincheckTest.class);
    }
}
