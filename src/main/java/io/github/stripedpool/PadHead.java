package io.github.stripedpool;

/**
 * 128 bytes of padding placed before the fields of a padded class, by inheritance: the JVM lays
 * out a superclass's fields before its subclasses', with or without {@code -XX:-RestrictContended}.
 * Subclasses end with 128 bytes of their own, declared in their final class, so their hot fields
 * sit at least 128 bytes from anything another object may hold. {@code PaddingLayoutTest} and
 * {@code BoundedPaddingTest} check both distances with JOL.
 */
abstract class PadHead {
    /**
     * Fills the 4 bytes that a 12-byte object header leaves before the first {@code long}: left
     * empty, the JVM would move a subclass's {@code int} there, in front of the padding.
     */
    int headGap;
    long h00, h01, h02, h03, h04, h05, h06, h07, h08, h09, h10, h11, h12, h13, h14, h15;
}
