package io.github.stripedpool;

import java.util.Arrays;

/**
 * Where something happened to a pooled object: an acquisition, a release, the close of a lease.
 * Never thrown. Constructing it records the stack in the JVM's compact internal form; the
 * {@link StackTraceElement}s are only made when a report or an exception needs them, which is
 * what keeps tracking affordable. Suppression is disabled: a site never collects other throwables.
 *
 * <p>Used as the cause of the exceptions thrown on misuse, so that both stack traces, the earlier
 * event's and the current one's, show in one printed exception.
 */
final class CallSite extends Throwable {
    private static final long serialVersionUID = 1L;

    /**
     * The library's classes whose frames can sit on top of a recorded stack; frames of these
     * classes (and of their nested classes and lambdas) are cut from the top, so that a report
     * starts at the caller's line. Not {@code CallSite} itself: the JVM leaves a throwable's own
     * constructor frames out of its stack.
     */
    private static final String[] OWN_CLASSES = {
            Pool.class.getName(), // its default methods, such as acquire(Duration)
            LeakDetectingPool.class.getName(),
            BoundedPool.class.getName(),
            BoundedHeldTooLong.class.getName(),
            LeakTracker.class.getName(),
            TrackedLease.class.getName(),
            Lease.class.getName(),
            UnboundedPool.class.getName(),
            SampleCountdown.class.getName(),
            ReleaseChecks.class.getName(),
            // The pools built on the engine, by name: this package does not depend on theirs.
            "io.github.stripedpool.buffer.BufferPool",
            "io.github.stripedpool.jackson.StripedRecyclerPool",
    };

    /** Marks an event whose stack was not recorded; shared, never thrown, never printed. */
    static final CallSite UNRECORDED = new CallSite("not recorded", "");

    /** A constant: "acquired here", "released here", ... */
    private final String what;
    private final String threadName;
    private boolean trimmed;

    /** Records the current thread's stack; the message is only assembled if it is read. */
    CallSite(String what, String threadName) {
        super(null, null, false, true);
        this.what = what;
        this.threadName = threadName;
    }

    @Override
    public String getMessage() {
        return what + ", by thread '" + threadName + "'";
    }

    /**
     * The recorded stack without the library's own frames on top. Synchronized because a site
     * can be read by the thread that misused a pool and by the job that reports its leak at once; it is read at
     * most a few times in its life.
     */
    synchronized StackTraceElement[] callerFrames() {
        if (!trimmed) {
            setStackTrace(trim(super.getStackTrace()));
            trimmed = true;
        }
        return super.getStackTrace();
    }

    /** Makes {@link #printStackTrace()} and {@link #getStackTrace()} show the trimmed stack too. */
    @Override
    public StackTraceElement[] getStackTrace() {
        return callerFrames();
    }

    static StackTraceElement[] trim(StackTraceElement[] frames) {
        int from = 0;
        while (from < frames.length && isOwn(frames[from].getClassName())) {
            from++;
        }
        // Everything was ours (a call from inside the library): keep it all rather than nothing.
        return from == frames.length ? frames : Arrays.copyOfRange(frames, from, frames.length);
    }

    private static boolean isOwn(String className) {
        for (String own : OWN_CLASSES) {
            if (className.startsWith(own)
                    && (className.length() == own.length() || className.charAt(own.length()) == '$')) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return getMessage(); // no class name: it reads as a caption above the frames
    }
}
