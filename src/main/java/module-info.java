/**
 * striped-pool: a striped, GC-aged object pool for the JVM.
 *
 * <p>The whole public API lives in {@link io.github.stripedpool}: start with
 * {@link io.github.stripedpool.Pool#builder(java.util.function.Supplier)}.
 */
module io.github.stripedpool {
    // Optional: leak events are recorded for Flight Recorder when the runtime has jdk.jfr and
    // resolves it (on the module path: --add-modules jdk.jfr); without it they are logged only.
    requires static jdk.jfr;
    exports io.github.stripedpool;
}
