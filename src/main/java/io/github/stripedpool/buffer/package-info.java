/**
 * Byte buffers in size classes with a memory budget:
 * {@link io.github.stripedpool.buffer.BufferPool}, for {@code byte[]}, heap and direct
 * {@link java.nio.ByteBuffer}s. Built on {@link io.github.stripedpool.Pool}, one per size class;
 * dropped direct buffers are freed at once. See {@code docs/buffers.md}.
 */
package io.github.stripedpool.buffer;
