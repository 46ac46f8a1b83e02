package io.github.stripedpool;

import io.github.stripedpool.RaceFixtures.Item;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * A thread's first call on a pool makes its private slot and enters it in the thread-id table,
 * while another thread closes the pool, which empties that table: the fast paths' closed check.
 * The entering thread enters by compare-and-set and then reads the closed flag; close writes the
 * flag and then empties every entry. Result: r1 = entries left in the table once both are done.
 * An entry left behind would let that thread's later calls take the fast path of a closed pool.
 */
@JCStressTest
@Description("UnboundedPool: a slot entered in the thread-id table races close; no entry outlives close")
@Outcome(id = "0", expect = Expect.ACCEPTABLE, desc = "the table is empty: close emptied the entry, or its thread took it out")
@Outcome(expect = Expect.FORBIDDEN, desc = "an entry outlived close")
@State
public class PoolSlotEntryVsCloseRace {
    private final UnboundedPool<Item> pool = RaceFixtures.plainPool();

    @Actor
    public void firstUse() {
        try {
            pool.release(pool.acquire());
        } catch (PoolClosedException e) {
            // closed first: nothing entered
        }
    }

    @Actor
    public void close() {
        pool.close();
    }

    @Arbiter
    public void check(I_Result r) {
        r.r1 = pool.enteredSlots();
    }
}
