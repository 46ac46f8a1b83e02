/**
 * striped-pool: a striped, GC-aged object pool for the JVM.
 *
 * <p>The whole public API lives in {@link io.github.stripedpool}: start with
 * {@link io.github.stripedpool.Pool#builder(java.util.function.Supplier)}.
 */
module io.github.stripedpool {
    requires jdk.jfr;
    exports io.github.stripedpool;
}
