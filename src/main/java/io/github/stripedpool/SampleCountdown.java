package io.github.stripedpool;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How the unbounded engine decides, under {@link LeakDetection#SAMPLED}, which acquisitions to
 * track: one in {@link #interval} on average, decided on the acquiring thread without a shared
 * write. A platform thread counts down a plain field of its own {@link PrivateSlot}
 * ({@link PrivateSlotFields#countdown}, owner only), refilled at random around the interval so
 * that a periodic load is not sampled in step; a thread without a slot (a virtual thread) draws
 * from its {@link ThreadLocalRandom}. Holds only final fields: shared by every thread of a pool.
 *
 * @param <T> the type of the pooled objects
 */
final class SampleCountdown<T> {
    /** Tracks and reports the sampled acquisitions. */
    private final LeakDetectingPool<T> sampler;
    /** The mean number of acquisitions per tracked one. */
    final int interval;

    SampleCountdown(LeakDetectingPool<T> sampler, int interval) {
        this.sampler = sampler;
        this.interval = interval;
    }

    /** Acquisitions until the next tracked one: mean {@link #interval}, at random. */
    int next() {
        int n = interval;
        return n >= 1 << 29 ? n : 1 + ThreadLocalRandom.current().nextInt(2 * n - 1);
    }

    /** Counts the acquisition of {@code x} down, and tracks it when the count runs out. */
    T acquired(PrivateSlot slot, T x) {
        if (slot != null ? --slot.countdown <= 0 : ThreadLocalRandom.current().nextInt(interval) == 0) {
            if (slot != null) {
                slot.countdown = next();
            }
            sampler.trackSampled(x);
        } else {
            sampler.acquiredUntracked(x);
        }
        return x;
    }
}
