package io.github.stripedpool;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;

/**
 * Captures what the library logs through {@link System.Logger}, which, with no
 * {@code LoggerFinder} installed, is {@code java.util.logging}. The library's module does not
 * read {@code java.logging}, so the tests, compiled into that module, reach it by reflection; at
 * run time they are on the class path, where every module is readable.
 */
final class LeakLogCapture implements AutoCloseable {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    /** Held here: java.util.logging keeps its loggers only weakly. */
    private final Object logger;
    private final Object handler;
    private final Method flush;
    private final Method removeHandler;

    LeakLogCapture(String loggerName) throws ReflectiveOperationException {
        Class<?> loggerClass = Class.forName("java.util.logging.Logger");
        Class<?> handlerClass = Class.forName("java.util.logging.Handler");
        Class<?> formatterClass = Class.forName("java.util.logging.Formatter");
        logger = loggerClass.getMethod("getLogger", String.class).invoke(null, loggerName);
        Object formatter = Class.forName("java.util.logging.SimpleFormatter")
                .getConstructor().newInstance();
        handler = Class.forName("java.util.logging.StreamHandler")
                .getConstructor(OutputStream.class, formatterClass).newInstance(out, formatter);
        flush = handlerClass.getMethod("flush");
        removeHandler = loggerClass.getMethod("removeHandler", handlerClass);
        loggerClass.getMethod("addHandler", handlerClass).invoke(logger, handler);
    }

    /** Everything logged since this capture started, as {@code SimpleFormatter} writes it. */
    synchronized String text() throws ReflectiveOperationException {
        flush.invoke(handler);
        return out.toString(StandardCharsets.UTF_8);
    }

    /** How often {@code needle} occurs in {@link #text()}. */
    int count(String needle) throws ReflectiveOperationException {
        String t = text();
        int n = 0;
        for (int i = t.indexOf(needle); i >= 0; i = t.indexOf(needle, i + needle.length())) {
            n++;
        }
        return n;
    }

    @Override
    public void close() throws ReflectiveOperationException {
        removeHandler.invoke(logger, handler);
    }
}
