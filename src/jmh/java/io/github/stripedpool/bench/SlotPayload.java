package io.github.stripedpool.bench;

import stormpot.Poolable;
import stormpot.Slot;

/** A payload that carries the slot Stormpot releases it through, as its {@code Poolable}s must. */
final class SlotPayload extends Payload implements Poolable {
    private final Slot slot;

    SlotPayload(int size, Slot slot) {
        super(size);
        this.slot = slot;
    }

    @Override
    public void release() {
        slot.release(this);
    }
}
