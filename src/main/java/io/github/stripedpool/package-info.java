/**
 * A striped, GC-aged object pool: {@link io.github.stripedpool.Pool} and its
 * {@link io.github.stripedpool.PoolBuilder}.
 *
 * <pre>{@code
 * Pool<StringBuilder> pool = Pool.builder(() -> new StringBuilder(256))
 *         .reset(sb -> sb.setLength(0))
 *         .maxIdle(1024)
 *         .name("builders")
 *         .build();
 * StringBuilder sb = pool.acquire();
 * try {
 *     sb.append("hello");
 * } finally {
 *     pool.release(sb);
 * }
 * }</pre>
 *
 * <h2>Conventions of the implementation</h2>
 * Stated once here, followed by every class of the package:
 * <ul>
 *   <li><b>Memory ordering is named at the access, or in the field's comment.</b> Where a
 *       field's accesses need different orderings, they go through a
 *       {@link java.lang.invoke.VarHandle} and the access mode in the call ({@code getAcquire},
 *       {@code setRelease}, {@code compareAndSet}) is the ordering the code relies on. Fields
 *       with one ordering everywhere are declared {@code volatile} (or final). Plain accesses to a
 *       field another thread reads are deliberate races (an owner's plain take of its private
 *       slot, owner-written counters read by {@code stats()}, a stripe's scan hint); the class
 *       comment of the class that owns the field says why each is benign.</li>
 *   <li><b>Padding.</b> Anything written on a hot path by one thread and placed where another
 *       thread's hot data could sit is kept 128 bytes away from it (two 64-byte lines, because
 *       adjacent-line prefetchers fetch lines in pairs). Objects get it from the class hierarchy
 *       ({@code PadHead} before the fields, a tail class after them) so that it holds without
 *       {@code -XX:-RestrictContended}; arrays get it from unused elements at both ends.
 *       {@code @Contended} is added on top and takes over when the JVM honours it.</li>
 *   <li><b>Hot paths copy fields into final locals</b> and make one attempt; anything longer
 *       moves to a {@code ...Slow} method so that the fast path stays small enough to inline.</li>
 *   <li><b>Configuration is structure.</b> Options become final fields when the pool is built;
 *       no system property is read on a hot path.</li>
 * </ul>
 */
package io.github.stripedpool;
