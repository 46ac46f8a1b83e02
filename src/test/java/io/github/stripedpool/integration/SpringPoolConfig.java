package io.github.stripedpool.integration;

import io.github.stripedpool.Pool;
import io.github.stripedpool.jmx.PoolJmx;
import io.github.stripedpool.micrometer.PoolMetrics;
import java.util.zip.Deflater;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The Spring configuration of docs/which-pool.md, as it stands there. */
@Configuration
class SpringPoolConfig {
    @Bean(destroyMethod = "close")                  // Spring would infer close(); explicit is clearer
    Pool<Deflater> deflaters() {
        return Pool.builder(() -> new Deflater(Deflater.BEST_SPEED))
                .maxTotal(8)
                .reset(Deflater::reset)
                .destroy(Deflater::end)
                .name("deflaters")
                .build();
    }

    @Bean                                           // Spring Boot binds MeterBinder beans to its registry
    PoolMetrics deflaterMetrics(Pool<Deflater> deflaters) {
        return new PoolMetrics(deflaters);          // AutoCloseable: its meters are removed at shutdown
    }

    @Bean(destroyMethod = "close")
    PoolJmx deflaterMBean(Pool<Deflater> deflaters) {
        return PoolJmx.register(deflaters);
    }
}
