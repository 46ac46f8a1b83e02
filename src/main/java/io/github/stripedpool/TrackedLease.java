package io.github.stripedpool;

/**
 * The lease of a tracked acquisition: remembers where it was closed, and gives that stack as the
 * cause of the {@link IllegalStateException} thrown by a later {@link #get()} or {@link #close()},
 * so that the report of a use after close shows both the use and the close. Only tracked
 * acquisitions get one: an untracked lease pays for no stack trace.
 *
 * <p>Like {@link Lease}, meant for one thread: {@link #closedAt} is a plain field.
 */
final class TrackedLease<T> extends Lease<T> {
    private CallSite closedAt;

    TrackedLease(Pool<T> pool, T object) {
        super(pool, object);
    }

    @Override
    public T get() {
        try {
            return super.get();
        } catch (IllegalStateException e) {
            throw withCloseSite(e);
        }
    }

    @Override
    public void close() {
        if (closedAt != null) {
            try {
                super.close(); // throws: closed twice
            } catch (IllegalStateException e) {
                throw withCloseSite(e);
            }
            return;
        }
        closedAt = new CallSite("lease closed here", Thread.currentThread().getName());
        super.close();
    }

    private IllegalStateException withCloseSite(IllegalStateException e) {
        CallSite site = closedAt;
        if (site != null && e.getCause() == null) {
            site.callerFrames();
            e.initCause(site);
        }
        return e;
    }
}
