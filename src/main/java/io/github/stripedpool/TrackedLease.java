package io.github.stripedpool;

/**
 * The lease of a tracked acquisition: remembers where it ended (its first {@link #close()}, or
 * its {@link #invalidate()}), and gives that stack as the cause of the
 * {@link IllegalStateException} thrown by a later {@link #get()}, {@link #close()} or
 * {@link #invalidate()}, so that the report of a use after the end shows both the use and the
 * end. Only tracked acquisitions get one: an untracked lease pays for no stack trace.
 *
 * <p>Like {@link Lease}, meant for one thread: {@link #endedAt} is a plain field.
 */
final class TrackedLease<T> extends Lease<T> {
    /** Where the lease ended, or null while it holds its object. */
    private CallSite endedAt;

    TrackedLease(Pool<T> pool, T object) {
        super(pool, object);
    }

    @Override
    public T get() {
        try {
            return super.get();
        } catch (IllegalStateException e) {
            throw withEndSite(e);
        }
    }

    @Override
    public void close() {
        if (endedAt != null) {
            try {
                super.close(); // throws, unless it is the close that follows invalidate()
            } catch (IllegalStateException e) {
                throw withEndSite(e);
            }
            return;
        }
        endedAt = new CallSite("lease closed here", Thread.currentThread().getName());
        super.close();
    }

    @Override
    public void invalidate() {
        if (endedAt != null) {
            try {
                super.invalidate(); // throws: the lease already ended
            } catch (IllegalStateException e) {
                throw withEndSite(e);
            }
            return;
        }
        endedAt = new CallSite("lease invalidated here", Thread.currentThread().getName());
        super.invalidate();
    }

    private IllegalStateException withEndSite(IllegalStateException e) {
        CallSite site = endedAt;
        if (site != null && e.getCause() == null) {
            site.callerFrames();
            e.initCause(site);
        }
        return e;
    }
}
