package io.github.stripedpool.integration;

import io.github.stripedpool.Pool;
import io.github.stripedpool.jmx.PoolJmx;
import jakarta.annotation.PostConstruct;
import jakarta.annotation.PreDestroy;
import jakarta.enterprise.context.ApplicationScoped;
import java.util.zip.Deflater;

/** The Jakarta EE and CDI bean of docs/which-pool.md, as it stands there. */
@ApplicationScoped
public class CdiDeflaters {
    private Pool<Deflater> pool;
    private PoolJmx mbean;

    @PostConstruct
    void start() {
        pool = Pool.builder(() -> new Deflater(Deflater.BEST_SPEED))
                .maxTotal(8).reset(Deflater::reset).destroy(Deflater::end)
                .name("deflaters").build();
        mbean = PoolJmx.register(pool);
    }

    @PreDestroy
    void stop() {
        mbean.close();
        pool.close();
    }

    public Pool<Deflater> pool() {
        return pool;
    }
}
