package io.github.stripedpool;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/**
 * The JDK Flight Recorder event of a {@link LeakReport}, shown in JDK Mission Control under
 * "Striped Pool". Enabled by default, so any recording (for instance
 * {@code -XX:StartFlightRecording}) captures it. The event's own stack trace would be the leak
 * thread's, which says nothing; the acquisition stack is in the {@code acquisitionStackTrace} field instead.
 */
@Name(LeakEvent.NAME)
@Label("Pooled Object Leak")
@Category("Striped Pool")
@Description("An object acquired from a pool became garbage without being released, or (bounded pools that watch hold times) was held too long")
@StackTrace(false)
final class LeakEvent extends Event {
    static final String NAME = "io.github.stripedpool.Leak";

    @Label("Kind")
    @Description("LEAKED, HELD_TOO_LONG (still borrowed past the threshold) or RETURNED (released after that)")
    String kind;

    @Label("Pool")
    String pool;

    @Label("Object Class")
    String objectClass;

    @Label("Thread")
    @Description("The thread that acquired the object")
    String thread;

    @Label("Age")
    @Description("Time from the acquisition to the report")
    @Timespan(Timespan.MILLISECONDS)
    long ageMillis;

    /** Not named {@code stackTrace}: that is the name of the event's own, implicit field. */
    @Label("Acquisition Stack Trace")
    @Description("Where the object was acquired, one frame per line")
    String acquisitionStackTrace;

    static void emit(LeakReport report) {
        LeakEvent e = new LeakEvent();
        if (!e.shouldCommit()) {
            return;
        }
        e.kind = report.kind().name();
        e.pool = report.poolName();
        e.objectClass = report.objectClass();
        e.thread = report.threadName();
        e.ageMillis = report.age().toMillis();
        StringBuilder sb = new StringBuilder();
        for (StackTraceElement frame : report.stackTrace()) {
            sb.append("at ").append(frame).append('\n');
        }
        e.acquisitionStackTrace = sb.toString();
        e.commit();
    }
}
