package example.consumer;

import io.github.stripedpool.Lease;
import io.github.stripedpool.ObjectCreationException;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import io.github.stripedpool.PoolTimeoutException;
import io.github.stripedpool.jmx.PoolJmx;
import java.time.Duration;

/**
 * Uses the library's public API as an application would and checks what it sees. The argument
 * says how it was started: {@code classpath}, {@code modulepath}, or {@code minimal} (the module
 * path with only the modules this one requires, as in a runtime image made by jlink: no
 * java.management, no jdk.jfr). Exits non-zero on any failure.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        String mode = args.length == 1 ? args[0] : "";
        Module library = Pool.class.getModule();
        switch (mode) {
            case "classpath":
                check(!library.isNamed(), "the library should be in the unnamed module, is in " + library);
                break;
            case "modulepath":
            case "minimal":
                check("io.github.stripedpool".equals(library.getName()),
                        "the library should be the module io.github.stripedpool, is " + library);
                check(ModuleLayer.boot().findModule("micrometer.core").isEmpty(),
                        "micrometer.core was resolved: the optional dependency leaked to a user");
                check(mode.equals("modulepath")
                        == ModuleLayer.boot().findModule("java.management").isPresent(),
                        "java.management should be resolved on the module path, and not when "
                        + "the modules are limited");
                break;
            default:
                throw new IllegalArgumentException("pass classpath, modulepath or minimal, not " + String.join(" ", args));
        }
        try {
            Class.forName("io.micrometer.core.instrument.MeterRegistry");
            check(false, "Micrometer is visible: the library's optional dependency leaked to a user");
        } catch (ClassNotFoundException expected) {
            // a user who does not ask for Micrometer does not get it
        }

        try (Pool<StringBuilder> pool = Pool.builder(() -> new StringBuilder(64))
                .reset(sb -> sb.setLength(0)).name("consumer-builders").build()) {
            StringBuilder sb = pool.acquire();
            sb.append("secret");
            pool.release(sb);
            try (Lease<StringBuilder> lease = pool.lease()) {
                check(lease.get().length() == 0, "a released object was not reset");
            }
            PoolStats s = pool.stats();
            check(s.acquired() == 2 && s.released() == 2 && s.created() >= 1, "figures: " + s);
            try (PoolJmx jmx = PoolJmx.register(pool)) {
                check(!mode.equals("minimal"), "JMX registration worked without java.management");
                check(jmx.toString().contains("name=\"consumer-builders\""), jmx.toString());
            } catch (IllegalStateException e) {
                check(mode.equals("minimal") && e.getMessage().contains("requires java.management"),
                        "unexpected: " + e);
            }
        }

        try (Pool<StringBuilder> bounded = Pool.builder(StringBuilder::new).maxTotal(1)
                .acquireTimeout(Duration.ofMillis(50)).name("consumer-bounded").build()) {
            StringBuilder only = bounded.acquire();
            try {
                bounded.acquire();
                check(false, "a bounded pool at its cap handed out a second object");
            } catch (PoolTimeoutException expected) {
                // as documented
            }
            bounded.release(only);
        }

        try (Pool<Object> failing = Pool.builder(() -> {
            throw new IllegalStateException("no connection");
        }).name("consumer-failing").build()) {
            failing.acquire();
            check(false, "a throwing factory did not raise ObjectCreationException");
        } catch (ObjectCreationException expected) {
            check(expected.getCause() instanceof IllegalStateException, "cause lost: " + expected);
        }
        // Heap-pressure trimming reads a concurrent collector's figures through java.management
        // where it can: it must still see collections, and trim, where the module is missing.
        try (Pool<byte[]> trimmed = Pool.builder(() -> new byte[64]).trimAboveHeap(0)
                .name("consumer-trimmed").build()) {
            trimmed.release(trimmed.acquire());
            long deadline = System.nanoTime() + 30_000_000_000L;
            while (trimmed.stats().trims() == 0 && System.nanoTime() - deadline < 0) {
                System.gc();
                Thread.onSpinWait();
            }
            check(trimmed.stats().trims() > 0, "no trim after collections: " + trimmed.stats());
        }
        System.out.println("consumer OK: " + mode + ", Java " + Runtime.version());
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }
}
