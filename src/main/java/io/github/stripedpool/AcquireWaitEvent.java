package io.github.stripedpool;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Threshold;

/**
 * A JDK Flight Recorder event for an acquisition of a bounded pool that had to wait: its
 * duration is the wait, and only waits of at least 1 ms are recorded by default (the recording
 * may set another threshold). A wait that ended in a timeout says so. The wait counts from before
 * a platform thread's yields (see {@code BoundedWaiting}), as {@link PoolStats#waitNanosMax()}
 * does; an acquisition that found an object while yielding did not wait and has no event.
 */
@Name(AcquireWaitEvent.NAME)
@Label("Pool Acquire Wait")
@Category("Striped Pool")
@Description("An acquisition of a bounded pool that waited for an object")
@Threshold("1 ms")
final class AcquireWaitEvent extends Event {
    static final String NAME = "io.github.stripedpool.AcquireWait";

    @Label("Pool")
    String pool;

    @Label("Timed Out")
    @Description("Whether the wait ended in a PoolTimeoutException")
    boolean timedOut;
}
