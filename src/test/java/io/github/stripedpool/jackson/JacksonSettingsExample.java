package io.github.stripedpool.jackson;

import io.github.stripedpool.LeakDetection;

/** The settings example of docs/jackson.md. */
final class JacksonSettingsExample {
    private JacksonSettingsExample() {
    }

    static StripedRecyclerPool recyclers() {
        // jackson-settings:begin
        StripedRecyclerPool recyclers = StripedRecyclerPool.newPool(builder -> builder
                .name("api-json")                                  // in stats, logs and leak reports
                .maxIdle(256)                                      // idle recyclers kept at most
                .leakDetection(LeakDetection.SAMPLED));            // parsers never closed
        // jackson-settings:end
        return recyclers;
    }
}
