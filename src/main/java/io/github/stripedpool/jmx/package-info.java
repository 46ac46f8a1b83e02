/**
 * A pool's statistics as a JMX MBean, registered on request:
 * {@link io.github.stripedpool.jmx.PoolJmx}.
 */
package io.github.stripedpool.jmx;
