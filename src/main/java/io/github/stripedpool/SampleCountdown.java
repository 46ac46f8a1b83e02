package io.github.stripedpool;

import java.util.concurrent.ThreadLocalRandom;

/**
 * How the unbounded engine decides, under {@link LeakDetection#SAMPLED}, which acquisitions to
 * track: one in {@link #interval} on average, decided on the acquiring thread without a shared
 * write. Holds only final fields: shared by every thread of a pool.
 *
 * <p>The countdown of a platform thread lives in its own {@link PrivateSlot} (owner only, plain
 * fields): the tracked acquisition is the {@link PrivateSlotFields#countdown}-th counted from
 * the moment {@link PrivateSlotFields#privateHits} was {@link PrivateSlotFields#sampleBase}. The
 * acquisitions before it that find an object in the slot take the engine's plain fast path,
 * which stops at {@link PrivateSlotFields#fastUntil}: so an untracked acquisition costs what it
 * costs without leak detection, and only the acquisitions that miss the slot, and the one to
 * track, come here. A thread without a slot (a virtual thread) draws from its
 * {@link ThreadLocalRandom}. Countdowns are drawn at random around the interval, so that a
 * periodic load is not sampled in step.
 *
 * <p>Invariant: an object whose tracker is in the table is never handed out by the fast path.
 * The tracker of a tracked object stays in the table after its release (so that a second release
 * finds it) until the object's next acquisition retires it ({@link #acquired}). A tracked object
 * comes back either to a stripe, a dead owner's slot (reaped to the stripes) or a virtual
 * thread's stripe, all taken on the slow path only, or to the private slot of the releasing
 * thread, whose fast path {@link #releasedTracked} closes until that thread's next acquisition.
 * That acquisition takes the slot's object on the slow path, unless the slot was empty when it
 * looked and a hook it ran (the factory) re-entered the pool and filled it: then it leaves the
 * fast path closed for the one after, which takes that object.
 * Objects that aging or close take from a live owner's slot are forgotten, never handed out.
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

    /** Starts the countdown of a new slot. */
    void start(PrivateSlot s) {
        rebase(s, next());
    }

    /**
     * Counts the acquisition of {@code x} down, and tracks it when the count runs out.
     *
     * @param slot the acquiring thread's slot, or null (a virtual thread)
     * @param fromSlot whether {@code x} came from the slot, whose hit counter then counts it
     */
    T acquired(PrivateSlot slot, T x, boolean fromSlot) {
        boolean track;
        if (slot == null) {
            track = ThreadLocalRandom.current().nextInt(interval) == 0;
        } else {
            long done = slot.privateHits - slot.sampleBase + (fromSlot ? 0 : 1);
            long left = slot.countdown - done; // acquisitions after this one until the tracked one
            track = left <= 0;
            rebase(slot, track ? next() : left);
            if (!fromSlot && slot.item != null) {
                // The factory ran user code, which may have released a tracked object into the
                // slot and closed the fast path (releasedTracked): it stays closed until an
                // acquisition takes that object on the slow path and retires its tracker.
                slot.fastUntil = Long.MIN_VALUE;
            }
        }
        if (track) {
            sampler.trackSampled(x);
        } else {
            sampler.acquiredUntracked(x);
        }
        return x;
    }

    /** The tracked acquisition is the {@code n}-th from now; the fast path takes n - 1 of them. */
    private static void rebase(PrivateSlot s, long n) {
        s.sampleBase = s.privateHits;
        s.countdown = n;
        if (!s.exact) {
            s.fastUntil = s.privateHits + n - 1;
        }
    }

    /**
     * A release on a platform thread with a slot: checks it against the table, and returns
     * whether {@code x} was tracked. If it was, the slot's fast path stays closed until the
     * owner's next acquisition, which retires the tracker (see the class comment).
     */
    boolean releasedTracked(PrivateSlot s, T x) {
        if (sampler.nothingTracked() || !sampler.releasedSampled(x, "release")) {
            return false;
        }
        s.fastUntil = Long.MIN_VALUE; // the countdown itself is kept: the next acquire rebases
        return true;
    }
}
