package example.quickstart;

import io.github.stripedpool.Lease;
import io.github.stripedpool.Pool;

/** The README's pom as it stands: compiles against the installed library and runs. */
public final class Main {
    public static void main(String[] args) {
        Pool<StringBuilder> pool = Pool.builder(StringBuilder::new).reset(sb -> sb.setLength(0)).build();
        try (Lease<StringBuilder> lease = pool.lease()) {
            lease.get().append("quick start");
        }
        System.out.println(pool.stats());
        pool.close();
    }
}
