package io.github.stripedpool;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * A periodic JDK Flight Recorder snapshot of one pool's {@link PoolStats}, every 10 seconds by
 * default while a recording has it enabled. No recording, no cost: Flight Recorder calls the
 * hook that takes the snapshots only while the event is enabled.
 */
@Name(PoolStatsEvent.NAME)
@Label("Pool Statistics")
@Category("Striped Pool")
@Description("The counters of a pool, taken periodically")
@StackTrace(false)
@Period("10 s")
final class PoolStatsEvent extends Event {
    static final String NAME = "io.github.stripedpool.PoolStatistics";

    @Label("Pool")
    String pool;

    @Label("Bounded")
    boolean bounded;

    @Label("Idle")
    long idle;

    @Label("In Use")
    long inUse;

    @Label("Created")
    long created;

    @Label("Dropped")
    long dropped;

    @Label("Acquired")
    long acquired;

    @Label("Misses")
    @Description("Acquisitions that found nothing idle and called the factory")
    long misses;

    @Label("Hook Failures")
    long hookFailures;

    @Label("Invalidated")
    @Description("Objects given back with invalidate and destroyed")
    long invalidated;

    @Label("Not Retained")
    @Description("Released objects the retainIf predicate refused, destroyed")
    long notRetained;

    @Label("Held Too Long")
    @Description("Borrowings of a bounded pool reported as held too long")
    long heldTooLong;

    @Label("Trims")
    @Description("Collections after which the heap was short and the pool gave idle objects back at once")
    long trims;

    @Label("Leaks")
    long leaks;

    @Label("Closed")
    boolean closed;

    static void emit(PoolStats s, boolean bounded) {
        PoolStatsEvent e = new PoolStatsEvent();
        e.pool = s.name();
        e.bounded = bounded;
        e.idle = s.idle();
        e.inUse = s.inUse();
        e.created = s.created();
        e.dropped = s.dropped();
        e.acquired = s.acquired();
        e.misses = s.misses();
        e.hookFailures = s.hookFailures();
        e.invalidated = s.invalidated();
        e.notRetained = s.notRetained();
        e.heldTooLong = s.heldTooLong();
        e.trims = s.trims();
        e.leaks = s.leaks();
        e.closed = s.isClosed();
        e.commit();
    }
}
