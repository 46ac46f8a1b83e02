/**
 * Publishes a pool's statistics to Micrometer: {@link io.github.stripedpool.micrometer.PoolMetrics}.
 * Needs {@code io.micrometer:micrometer-core} at run time, which the library declares as an
 * optional dependency: an application that uses this package adds Micrometer itself.
 */
package io.github.stripedpool.micrometer;
