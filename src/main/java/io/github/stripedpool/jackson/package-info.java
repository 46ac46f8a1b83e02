/**
 * A pool as Jackson's buffer recycler pool:
 * {@link io.github.stripedpool.jackson.StripedRecyclerPool}, one line to adopt with
 * {@code JsonFactory.builder().recyclerPool(StripedRecyclerPool.newPool())}. Needs
 * {@code com.fasterxml.jackson.core:jackson-core} 2.17 or later at run time, which the library
 * declares as an optional dependency: an application that uses this package has Jackson already.
 */
package io.github.stripedpool.jackson;
