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
 * <p>Unbounded pools age idle objects with the garbage collector; bounded pools
 * ({@link io.github.stripedpool.PoolBuilder#maxTotal(int)}) cap the objects that exist and wait
 * for one with a timeout. See {@link io.github.stripedpool.Pool} for the contract.
 */
package io.github.stripedpool;
