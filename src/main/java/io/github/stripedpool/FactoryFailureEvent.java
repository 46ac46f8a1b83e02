package io.github.stripedpool;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A JDK Flight Recorder event for a factory call that threw or returned null. Enabled by
 * default; its stack trace is the acquiring thread's (or a background refill's).
 */
@Name(FactoryFailureEvent.NAME)
@Label("Pool Factory Failure")
@Category("Striped Pool")
@Description("The factory of a pool threw or returned null")
final class FactoryFailureEvent extends Event {
    static final String NAME = "io.github.stripedpool.FactoryFailure";

    @Label("Pool")
    String pool;

    @Label("Failure")
    @Description("The exception's class and message, or 'returned null'")
    String failure;

    static void emit(String pool, Throwable failure) {
        FactoryFailureEvent e = new FactoryFailureEvent();
        if (!e.shouldCommit()) {
            return;
        }
        e.pool = pool;
        e.failure = failure == null ? "returned null" : failure.toString();
        e.commit();
    }
}
