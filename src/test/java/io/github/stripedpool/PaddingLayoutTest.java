package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;
import org.openjdk.jol.vm.VM;
import org.openjdk.jol.vm.VirtualMachine;

/**
 * The padding promised by the package conventions, measured on the running JVM with JOL: every
 * field or array element that one thread writes on a hot path is at least {@value #APART} bytes
 * from anything another thread's hot path writes. Runs with the JVM's default flags, where
 * {@code @Contended} is ignored and only the class-hierarchy and array-end padding count.
 */
class PaddingLayoutTest {
    /** Two 64-byte cache lines: adjacent-line prefetchers move lines in pairs. */
    private static final int APART = 128;

    private static VirtualMachine vm;

    @BeforeAll
    static void printTheLayouts() {
        vm = VM.current();
        System.out.println(vm.details());
        System.out.println(ClassLayout.parseClass(Stripe.class).toPrintable());
        System.out.println(ClassLayout.parseClass(PrivateSlot.class).toPrintable());
    }

    @Test
    void stripeStateAndHintArePaddedOnBothSides() {
        assertHotFieldPadded(Stripe.class, "state");
        assertHotFieldPadded(Stripe.class, "hint");
    }

    @Test
    void privateSlotItemIsPaddedOnBothSides() {
        assertHotFieldPadded(PrivateSlot.class, "item");
    }

    /** The owner's counters are written on every cycle too, so they need the same distance. */
    @Test
    void privateSlotCountersArePaddedOnBothSides() {
        for (String counter : new String[] {"privateHits", "puts", "sharedReleases", "created",
                "dropped", "homeHits", "stolenHits", "victimHits", "misses", "hookFailures",
                "lastShared", "mayPut", "fastPut", "fastUntil", "spares", "spareTop", "sparePuts"}) {
            assertHotFieldPadded(PrivateSlot.class, counter);
        }
    }

    private static FieldLayout field(ClassLayout layout, Class<?> type, String name) {
        return layout.fields().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError(type + " has no field " + name));
    }

    static void assertHotFieldPadded(Class<?> type, String name) {
        ClassLayout layout = ClassLayout.parseClass(type);
        FieldLayout hot = field(layout, type, name);
        long before = hot.offset();
        long after = layout.instanceSize() - (hot.offset() + hot.size());
        System.out.printf("%s.%s: offset %d, %d bytes before, %d bytes after, instance %d bytes%n",
                type.getSimpleName(), name, hot.offset(), before, after, layout.instanceSize());
        assertTrue(before >= APART, type.getSimpleName() + "." + name + " only " + before
                + " bytes from the object start:\n" + layout.toPrintable());
        assertTrue(after >= APART, type.getSimpleName() + "." + name + " only " + after
                + " bytes from the object end:\n" + layout.toPrintable());
    }

    @Test
    void stripeArraysHavePaddingElementsAtBothEnds() {
        assertTrue(Stripe.PAD * vm.arrayIndexScale("java.lang.Object") >= APART,
                "Stripe.PAD references cover fewer than " + APART + " bytes");
        assertTrue(Stripe.PAD * vm.arrayIndexScale("int") >= APART,
                "Stripe.PAD ints cover fewer than " + APART + " bytes");
        for (int capacity : new int[] {0, 1, 7, 64}) {
            Stripe s = new Stripe(capacity);
            assertEquals(Stripe.PAD + capacity + Stripe.PAD, s.items.length);
            assertArrayEndsPadded("items", s.items, "java.lang.Object", Stripe.PAD, capacity);
            assertArrayEndsPadded("stamps", s.stamps, "int", Stripe.PAD, capacity);
        }
    }

    @Test
    void counterArraysHavePaddingElementsAtBothEnds() {
        assertTrue(Counts.PAD * vm.arrayIndexScale("long") >= APART,
                "Counts.PAD longs cover fewer than " + APART + " bytes");
        long[] counts = Counts.newArray();
        assertArrayEndsPadded("counts", counts, "long", Counts.PAD, Counts.SIZE);
    }

    /** The used elements start and end at least APART bytes inside the array object. */
    private static void assertArrayEndsPadded(String what, Object array, String component, int pad,
            int used) {
        long base = vm.arrayBaseOffset(component);
        long scale = vm.arrayIndexScale(component);
        long size = vm.sizeOf(array);
        long firstUsed = base + pad * scale;
        long afterUsed = base + (pad + used) * scale;
        assertTrue(firstUsed >= APART, what + ": first used element at byte " + firstUsed);
        assertTrue(size - afterUsed >= APART, what + ": only " + (size - afterUsed)
                + " bytes after the last used element");
    }

    // ---------------------------------------------------------------- a built pool

    @Test
    void hotMemoryOfDifferentStripesAndSlotsIsAtLeast128BytesApart() throws Exception {
        try (UnboundedPool<Object> p = PoolAssertions.engine(
                Pool.builder(Object::new).maxIdle(4 * 64).stripes(4), "layout")) {
            // Three threads with private slots (this one and two others), each holding an object.
            // The others stay alive until the check is done: a dead thread's slot is reaped.
            java.util.concurrent.CountDownLatch used = new java.util.concurrent.CountDownLatch(2);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
            List<Thread> others = new ArrayList<>();
            for (int t = 0; t < 2; t++) {
                Thread th = new Thread(() -> {
                    p.release(p.acquire());
                    used.countDown();
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                th.start();
                others.add(th);
            }
            used.await();
            p.release(p.acquire());
            List<PrivateSlot> slots = new ArrayList<>(registry(p));
            try {
                assertEquals(3, slots.size());
                checkApart(p, slots);
            } finally {
                done.countDown();
                for (Thread th : others) {
                    th.join();
                }
            }
        }
    }

    private static void checkApart(UnboundedPool<Object> p, List<PrivateSlot> slots) throws Exception {
        {
            List<List<long[]>> owners = stableHotRegions(p.stripes(), slots);
            int checked = 0;
            for (int i = 0; i < owners.size(); i++) {
                for (int j = i + 1; j < owners.size(); j++) {
                    for (long[] a : owners.get(i)) {
                        for (long[] b : owners.get(j)) {
                            long gap = Math.max(b[0] - a[1], a[0] - b[1]);
                            checked++;
                            if (gap < APART) {
                                fail(String.format("hot memory of %s [%#x, %#x) and of %s [%#x, %#x) "
                                                + "is only %d bytes apart", label(i, p), a[0], a[1],
                                        label(j, p), b[0], b[1], gap));
                            }
                        }
                    }
                }
            }
            System.out.println("hot regions of " + owners.size() + " stripes and slots: " + checked
                    + " pairs, all at least " + APART + " bytes apart");
        }
    }

    private static String label(int i, UnboundedPool<?> p) {
        int n = p.stripes().length;
        return i < n ? "stripe " + i : "private slot " + (i - n);
    }

    /**
     * Hot regions, as {start, end} addresses, of each stripe and each private slot: what the
     * threads using it write on every acquire or release. Read until two successive readings
     * agree, since a collection may move objects while the addresses are read.
     */
    private static List<List<long[]>> stableHotRegions(Stripe[] stripes, List<PrivateSlot> slots)
            throws ReflectiveOperationException {
        List<List<long[]>> last = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            List<List<long[]>> now = hotRegions(stripes, slots);
            if (last != null && same(last, now)) {
                return now;
            }
            last = now;
        }
        throw new AssertionError("objects kept moving while their addresses were read");
    }

    private static List<List<long[]>> hotRegions(Stripe[] stripes, List<PrivateSlot> slots)
            throws ReflectiveOperationException {
        // The field holders are reached through the padded classes that extend them.
        long topOffset = vm.fieldOffset(Stripe.class.getSuperclass().getDeclaredField("state"));
        long[] slotHot = fieldSpan(PrivateSlot.class.getSuperclass());
        List<List<long[]>> all = new ArrayList<>();
        for (Stripe s : stripes) {
            List<long[]> r = new ArrayList<>();
            long a = vm.addressOf(s) + topOffset;
            r.add(new long[] {a, a + 8});
            if (s.capacity > 0) {
                r.add(usedElements(s.items, "java.lang.Object", Stripe.PAD, s.capacity));
                r.add(usedElements(s.stamps, "int", Stripe.PAD, s.capacity));
            }
            r.add(usedElements(s.counts, "long", Counts.PAD, Counts.SIZE));
            all.add(r);
        }
        for (PrivateSlot slot : slots) {
            // From the item to the last counter: everything the owner writes on a cycle.
            long a = vm.addressOf(slot);
            all.add(List.of(new long[] {a + slotHot[0], a + slotHot[1]}));
        }
        return all;
    }

    /** {first byte, one past the last byte} of the fields a class declares itself. */
    private static long[] fieldSpan(Class<?> type) {
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (Field f : type.getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers())) {
                continue;
            }
            long off = vm.fieldOffset(f);
            lo = Math.min(lo, off);
            hi = Math.max(hi, off + vm.sizeOfField(f.getType().getName()));
        }
        return new long[] {lo, hi};
    }

    private static long[] usedElements(Object array, String component, int pad, int used) {
        long start = vm.addressOf(array) + vm.arrayBaseOffset(component)
                + (long) pad * vm.arrayIndexScale(component);
        return new long[] {start, start + (long) used * vm.arrayIndexScale(component)};
    }

    private static boolean same(List<List<long[]>> a, List<List<long[]>> b) {
        for (int i = 0; i < a.size(); i++) {
            for (int j = 0; j < a.get(i).size(); j++) {
                if (!java.util.Arrays.equals(a.get(i).get(j), b.get(i).get(j))) {
                    return false;
                }
            }
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private static Collection<PrivateSlot> registry(UnboundedPool<?> pool) throws ReflectiveOperationException {
        Field f = UnboundedPool.class.getDeclaredField("registry");
        f.setAccessible(true);
        return (Collection<PrivateSlot>) f.get(pool);
    }
}
