package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.stripedpool.LeakTesting.Buffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Where the level comes from: the builder, else the system property, else DISABLED. */
class LeakSettingsTest {
    private static final String LEVEL = "stripedpool.leakDetection";
    private static final String INTERVAL = "stripedpool.leakDetection.samplingInterval";

    @AfterEach
    void clearProperties() {
        System.clearProperty(LEVEL);
        System.clearProperty(INTERVAL);
    }

    private static PoolBuilder<Buffer> builder() {
        return Pool.builder(Buffer::new);
    }

    @Test
    void withNeitherBuilderNorPropertyThePoolIsThePlainEngine() {
        Pool<Buffer> pool = builder().onLeak(r -> { }).build();
        assertInstanceOf(UnboundedPool.class, pool);
        assertEquals(0, pool.stats().leaks());
        pool.close();
    }

    @Test
    void sampledUnboundedPoolSamplesInsideTheEngineAndBoundedPoolIsWrapped() {
        Pool<Buffer> unbounded = builder().leakDetection(LeakDetection.SAMPLED).build();
        assertInstanceOf(UnboundedPool.class, unbounded, "no wrapper call on an untracked acquisition");
        unbounded.close();
        Pool<Buffer> bounded = builder().leakDetection(LeakDetection.SAMPLED).maxTotal(2).build();
        assertInstanceOf(LeakDetectingPool.class, bounded);
        bounded.close();
    }

    @Test
    void disabledOnTheBuilderBuildsThePlainEngine() {
        Pool<Buffer> pool = builder().leakDetection(LeakDetection.DISABLED).build();
        assertInstanceOf(UnboundedPool.class, pool);
        pool.close();
    }

    @Test
    void thePropertyAppliesWhenTheBuilderSaysNothingInAnyCase() {
        for (String v : new String[] {"paranoid", "PARANOID", " Paranoid "}) {
            System.setProperty(LEVEL, v);
            Pool<Buffer> pool = builder().build();
            assertTrue(pool.toString().startsWith("LeakDetectingPool[paranoid"), pool::toString);
            pool.close();
        }
        System.setProperty(LEVEL, "sampled");
        System.setProperty(INTERVAL, "32");
        Pool<Buffer> pool = builder().build();
        assertTrue(pool.toString().contains("sampled 1/32"), pool::toString);
        pool.close();
    }

    @Test
    void theBuilderWinsOverTheProperty() {
        System.setProperty(LEVEL, "paranoid");
        Pool<Buffer> off = builder().leakDetection(LeakDetection.DISABLED).build();
        assertInstanceOf(UnboundedPool.class, off);
        off.close();

        System.setProperty(LEVEL, "disabled");
        System.setProperty(INTERVAL, "32");
        Pool<Buffer> on = builder().leakDetection(LeakDetection.SAMPLED).leakSamplingInterval(8).build();
        assertTrue(on.toString().contains("sampled 1/8"), on::toString);
        on.close();

        Pool<Buffer> mixed = builder().leakDetection(LeakDetection.SAMPLED).build();
        assertTrue(mixed.toString().contains("sampled 1/32"), mixed::toString);
        mixed.close();
    }

    @Test
    void samplingDefaultsToOneIn1024() {
        Pool<Buffer> pool = builder().leakDetection(LeakDetection.SAMPLED).build();
        assertTrue(pool.toString().contains("sampled 1/1024"), pool::toString);
        pool.close();
    }

    @Test
    void aBadLevelPropertyFailsTheBuildNamingThePropertyAndTheLevels() {
        System.setProperty(LEVEL, "sometimes");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder().build());
        assertTrue(e.getMessage().contains(LEVEL) && e.getMessage().contains("'sometimes'")
                && e.getMessage().contains("disabled, sampled or paranoid"), e.getMessage());
        // An explicit level does not read the property at all.
        builder().leakDetection(LeakDetection.DISABLED).build().close();
    }

    @Test
    void aBadIntervalPropertyFailsASampledBuild() {
        System.setProperty(LEVEL, "sampled");
        for (String v : new String[] {"0", "-3", "often"}) {
            System.setProperty(INTERVAL, v);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> builder().build());
            assertTrue(e.getMessage().contains(INTERVAL) && e.getMessage().contains("a whole number from 1 to "),
                    e.getMessage());
        }
    }

    @Test
    void aSamplingIntervalBelowOneIsRejectedByTheBuilder() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> builder().leakSamplingInterval(0));
        assertTrue(e.getMessage().contains("leakSamplingInterval must be at least 1, got 0"), e.getMessage());
        assertThrows(NullPointerException.class, () -> builder().leakDetection(null));
        assertThrows(NullPointerException.class, () -> builder().onLeak(null));
    }

    @Test
    void statsOfALeakDetectingPoolComeFromTheEngine() {
        Pool<Buffer> pool = builder().name("stats").leakDetection(LeakDetection.PARANOID).build();
        Buffer b = pool.acquire();
        pool.release(b);
        PoolStats s = pool.stats();
        assertEquals("stats", s.name());
        assertEquals(1, s.acquired());
        assertEquals(1, s.released());
        assertEquals(0, s.leaks());
        assertTrue(s.toString().endsWith("| leaks 0"), s::toString);
        pool.close();
        assertTrue(pool.isClosed());
        assertThrows(PoolClosedException.class, pool::acquire);
    }
}
