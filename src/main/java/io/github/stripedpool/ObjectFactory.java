package io.github.stripedpool;

import java.util.function.Supplier;

/**
 * Makes the objects of a pool, and may fail with a checked exception: opening a connection or a
 * file throws {@code IOException}. Pass it to {@link Pool#builder(ObjectFactory)}; a lambda or
 * method reference that throws a checked exception becomes one without a wrapper. When it
 * throws, {@link Pool#acquire()} throws {@link ObjectCreationException} with the exception as
 * its cause, and the pool stays as it was.
 *
 * <p>It is a {@link Supplier} too, whose {@link #get()} throws what {@link #create()} throws,
 * checked or not, so that it can go wherever a supplier of objects is expected.
 *
 * @param <T> the type of the objects made
 */
@FunctionalInterface
public interface ObjectFactory<T> extends Supplier<T> {

    /**
     * Makes a new object. Called by the pool whenever no idle object is available, on the
     * acquiring thread (or, in a bounded pool with {@code minIdle}, on a background worker).
     *
     * @return a new object, never null
     * @throws Exception if the object cannot be made; the pool wraps it in
     *         {@link ObjectCreationException}
     */
    T create() throws Exception;

    /**
     * Calls {@link #create()}, letting a checked exception through undeclared.
     *
     * @return what {@link #create()} returned
     */
    @Override
    default T get() {
        try {
            return create();
        } catch (Exception e) {
            throw ObjectFactory.<RuntimeException>undeclared(e);
        }
    }

    /** Throws {@code e} whatever its type: the compiler takes it for an {@code X}. */
    @SuppressWarnings("unchecked")
    private static <X extends Throwable> X undeclared(Throwable e) throws X {
        throw (X) e;
    }
}
