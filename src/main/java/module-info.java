/**
 * striped-pool: a striped, GC-aged object pool for the JVM.
 *
 * <p>The core API lives in {@link io.github.stripedpool}: start with
 * {@link io.github.stripedpool.Pool#builder(java.util.function.Supplier)}. Two optional
 * integrations sit beside it: {@link io.github.stripedpool.jmx} (an MBean per pool, on request)
 * and {@link io.github.stripedpool.micrometer} (a Micrometer {@code MeterBinder}); and
 * {@link io.github.stripedpool.jackson} plugs a pool into Jackson as its buffer recycler pool.
 * {@link io.github.stripedpool.buffer} builds size-classed pools of byte arrays and heap or
 * direct byte buffers on the same engine.
 */
module io.github.stripedpool {
    // Optional: leak events are recorded for Flight Recorder when the runtime has jdk.jfr and
    // resolves it (on the module path: --add-modules jdk.jfr); without it they are logged only.
    requires static jdk.jfr;
    // Optional: io.github.stripedpool.jmx uses it, and says what to add when it is missing; and
    // heap-pressure trimming reads the heap's memory pools through it (HeapReadings), and reads
    // Runtime's figures without it. So a runtime image without
    // java.management still loads the library. Transitive: PoolJmx's methods take and return its
    // types.
    requires static transitive java.management;
    // Optional: heap-pressure trimming reads a stop-the-world collector's own figures at the end
    // of its pauses through com.sun.management (LastPause); without it, the heap's memory pools.
    requires static jdk.management;
    // Optional: only io.github.stripedpool.micrometer uses it (micrometer-core's automatic
    // module name); an application that binds a pool to a MeterRegistry brings it, and, as a
    // module, requires micrometer.core itself. Not transitive: javac would then look for the
    // module when compiling every module that requires this one, Micrometer or not.
    requires static micrometer.core;
    // Optional: only io.github.stripedpool.jackson uses it; an application that gives a
    // JsonFactory this pool brings jackson-core and, as a module, requires it itself. Not
    // transitive, for the reason given for micrometer.core.
    requires static com.fasterxml.jackson.core;
    exports io.github.stripedpool;
    exports io.github.stripedpool.buffer;
    exports io.github.stripedpool.jackson;
    exports io.github.stripedpool.jmx;
    exports io.github.stripedpool.micrometer;
}
