package io.github.stripedpool;

import java.lang.reflect.Method;

/**
 * Turns the pool's log off while a test makes hooks fail on purpose, and back on when closed.
 * The pool logs through {@link System.Logger}, which on a plain JDK is backed by
 * {@code java.util.logging}; that module is reached by reflection because the tests are compiled
 * into the library's module, which does not read it. The logger is held strongly for the
 * duration, since {@code java.util.logging} keeps only weak references to configured loggers.
 */
final class QuietPoolLog implements AutoCloseable {
    private final Object logger;
    private final Object savedLevel;
    private final Method setLevel;

    QuietPoolLog() {
        try {
            Class<?> loggerClass = Class.forName("java.util.logging.Logger");
            Class<?> levelClass = Class.forName("java.util.logging.Level");
            logger = loggerClass.getMethod("getLogger", String.class).invoke(null, "io.github.stripedpool");
            savedLevel = loggerClass.getMethod("getLevel").invoke(logger);
            setLevel = loggerClass.getMethod("setLevel", levelClass);
            setLevel.invoke(logger, levelClass.getField("OFF").get(null));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot configure java.util.logging", e);
        }
    }

    @Override
    public void close() {
        try {
            setLevel.invoke(logger, savedLevel);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot configure java.util.logging", e);
        }
    }
}
