package io.github.stripedpool;

import java.util.function.Consumer;

/**
 * Sends a {@link LeakReport} out through every channel: the JDK Flight Recorder, the
 * {@link System.Logger} {@code io.github.stripedpool}, then the pool's listener. Each channel's
 * failure is contained, so that a listener that throws, or a logging back-end that fails, never
 * keeps a report from the other channels nor reaches the pool that reports. Holds no lock; its
 * callers hold none either, since the listener is user code.
 */
final class ReportDelivery {
    private static final System.Logger LOG = System.getLogger("io.github.stripedpool");

    /**
     * Cleared at the first failure to load the event class; a benign race: two threads that both
     * see it set may both try, and both then clear it.
     */
    private static volatile boolean flightRecorder = true;

    private ReportDelivery() {
    }

    static void deliver(LeakReport report, String pool, Consumer<? super LeakReport> listener) {
        // Flight recorder and log first: a listener that blocks or throws must not hide them.
        if (flightRecorder && !FlightRecorderEvents.available()) {
            // Found by the pools' registration: a runtime image without the jdk.jfr module.
            flightRecorder = false;
            warn("leak reports are not recorded for Flight Recorder: the module jdk.jfr is "
                    + "not available", null);
        } else if (flightRecorder && FlightRecorderEvents.recording()) {
            // Not before Flight Recorder is initialised: no recording could take the event, and
            // its class's first use would set up Flight Recorder's metadata for nothing.
            try {
                LeakEvent.emit(report);
            } catch (LinkageError e) {
                // A runtime image without the jdk.jfr module: say so once, not at every report.
                flightRecorder = false;
                warn("leak reports are not recorded for Flight Recorder: the leak event could "
                        + "not be loaded (" + e + ")", null);
            } catch (Throwable e) {
                warn("pool '" + pool + "': could not record a leak report for Flight Recorder; "
                        + "it is still logged and counted", e);
            }
        }
        try {
            LOG.log(System.Logger.Level.WARNING, report.toString());
        } catch (Throwable e) {
            // A logging back-end that failed (its set-up ran out of memory, say) must not keep
            // the report from the listener, nor fail the pool's own work after it.
        }
        if (listener != null) {
            try {
                listener.accept(report);
            } catch (Throwable e) {
                warn("pool '" + pool + "': the onLeak listener threw; the report was still "
                        + "logged and counted", e);
            }
        }
    }

    /**
     * Logs a warning, or nothing: called where a failure is already being handled, so that a
     * logging back-end that fails too (no memory to build the message) adds nothing more.
     */
    private static void warn(String message, Throwable failure) {
        try {
            LOG.log(System.Logger.Level.WARNING, message, failure);
        } catch (Throwable e) {
            // Nothing left to report with; the delivery goes on.
        }
    }
}
