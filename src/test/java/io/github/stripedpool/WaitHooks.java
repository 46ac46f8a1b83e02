package io.github.stripedpool;

import java.lang.reflect.Proxy;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;

/**
 * Stalls a waiter at a chosen point of {@code BoundedWaiting.awaitQueued}, which a virtual thread
 * cannot be stopped at otherwise (no call there can be overridden, nothing there blocks). The
 * method is retransformed so that five of its calls go through this class instead:
 * {@code states.isClosed} ("open", before: the read of the closed flag ahead of the look),
 * {@code states.reserveIdle} ("look", before; "reserved", after, only when it took an entry), {@code queue.starving()} ("mode", before),
 * {@code queue.starve()} ("starved", after) and {@code queue.spendSignal(w)} ("spent" or
 * "kept", after); and in {@code BoundedWaiting.lookForTheNext}, the look a waiter owes once
 * served, {@code states.reserveIdle} ("owed", after, only when it took an entry). A test arms a one-shot {@link Gate} for a thread and a point; the thread stops
 * there until the gate opens. Test code only; undone by {@link #uninstall}.
 */
final class WaitHooks {
    private WaitHooks() {
    }

    static final long LIMIT_SECONDS = 60;

    /** A one-shot stop: the thread counts {@code arrived} down, then waits for {@code go}. */
    static final class Gate {
        final CountDownLatch arrived = new CountDownLatch(1);
        final CountDownLatch go = new CountDownLatch(1);

        boolean hasArrived() {
            return arrived.getCount() == 0;
        }

        void open() {
            go.countDown();
        }
    }

    private static final ConcurrentHashMap<List<Object>, Gate> GATES = new ConcurrentHashMap<>();

    static Gate arm(Thread t, String point) {
        Gate g = new Gate();
        GATES.put(Arrays.asList(t, point), g);
        return g;
    }

    static void clear() {
        for (Gate g : GATES.values()) {
            g.open();
        }
        GATES.clear();
    }

    private static void at(String point) {
        Gate g = GATES.remove(Arrays.asList(Thread.currentThread(), point));
        if (g == null) {
            return;
        }
        g.arrived.countDown();
        try {
            if (!g.go.await(LIMIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("gate " + point + " never opened");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * Whether {@code t} is parked in a bounded pool's wait, not in one of these gates: a wake-up
     * sent while it still leaves a gate's latch could be taken by that latch's park.
     */
    static boolean parkedInItsWait(Thread t) {
        if (t.getState() != Thread.State.TIMED_WAITING) {
            return false;
        }
        boolean inWait = false;
        for (StackTraceElement f : t.getStackTrace()) {
            if (f.getClassName().equals(WaitHooks.class.getName())) {
                return false;
            }
            inWait |= f.getMethodName().equals("awaitQueued");
        }
        return inWait;
    }

    /**
     * Starts {@code waiter}, whose acquire must queue, lets its first look find nothing, arms
     * the gates {@code next} (in order) for what comes after, and returns once the waiter is
     * parked in its wait ({@link #parkedInItsWait}): the start of every forced interleaving of a
     * waiter's wake-up with a release and close.
     *
     * @return the gates armed at {@code next}, in the same order
     */
    static Gate[] queueAndPark(Thread waiter, String... next) throws InterruptedException {
        Gate look = arm(waiter, "look");
        Gate mode = arm(waiter, "mode");
        waiter.start();
        if (!look.arrived.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the waiter never queued");
        }
        look.open(); // its first look finds nothing: every object is held
        if (!mode.arrived.await(20, TimeUnit.SECONDS)) {
            throw new AssertionError("the waiter's first look took something");
        }
        Gate[] gates = new Gate[next.length];
        for (int i = 0; i < next.length; i++) {
            gates[i] = arm(waiter, next[i]);
        }
        mode.open();
        // Parked in its wait, not in the gate's latch: a wake-up that came while it was still
        // leaving the latch's park could be taken by that park, and the wait would sleep on.
        long parkedBy = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!parkedInItsWait(waiter)) {
            if (System.nanoTime() > parkedBy) {
                throw new AssertionError("the waiter never parked");
            }
            Thread.onSpinWait();
        }
        return gates;
    }

    /**
     * Waits until {@code t} reaches {@code g} or ends, at most 20 s; no failure here, the caller
     * asserts on {@link Gate#hasArrived()} (a thread that ends first took another way).
     */
    static void awaitArrivalOrEnd(Gate g, Thread t) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!g.hasArrived() && t.isAlive() && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }

    /** Waits for {@code l}, at most 30 s; fails otherwise. */
    static void await(CountDownLatch l) {
        try {
            if (!l.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("never released");
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    // ------------------------------------------------------------- the calls redirected here

    static BoundedEntry reserveIdle(BoundedStates s, int home) {
        at("look");
        BoundedEntry e = s.reserveIdle(home);
        if (e != null) {
            at("reserved");
        }
        return e;
    }

    static boolean isClosed(BoundedStates s) {
        at("open");
        return s.isClosed();
    }

    /** The look of {@code BoundedWaiting.lookForTheNext}: stops ("owed") after it took an entry. */
    static BoundedEntry owedReserveIdle(BoundedStates s, int home) {
        BoundedEntry e = s.reserveIdle(home);
        if (e != null) {
            at("owed");
        }
        return e;
    }

    static boolean starving(BoundedWaitQueue q) {
        at("mode");
        return q.starving();
    }

    static void starve(BoundedWaitQueue q) {
        q.starve();
        at("starved");
    }

    static boolean spendSignal(BoundedWaitQueue q, BoundedWaitQueue.Waiter w) {
        boolean spent = q.spendSignal(w);
        at(spent ? "spent" : "kept");
        return spent;
    }

    // ------------------------------------------------------------- the retransformation

    private static final String WAITING = "io/github/stripedpool/BoundedWaiting";
    private static final String STATES = "io/github/stripedpool/BoundedStates";
    private static final String QUEUE = "io/github/stripedpool/BoundedWaitQueue";
    private static final String SELF = "io/github/stripedpool/WaitHooks";

    // java.instrument is not read by the module the tests compile into: reflection and a proxy.
    private static Object inst;
    private static Object transformer;
    private static Class<?> instType;
    private static Class<?> transformerType;

    static byte[] transform(String name, byte[] bytes) {
        if (!WAITING.equals(name)) {
            return null;
        }
        ClassReader r = new ClassReader(bytes);
        ClassWriter w = new ClassWriter(r, 0);
        r.accept(new ClassVisitor(Opcodes.ASM9, w) {
            @Override
            public MethodVisitor visitMethod(int access, String m, String desc, String sig, String[] ex) {
                MethodVisitor mv = super.visitMethod(access, m, desc, sig, ex);
                if (m.equals("lookForTheNext")) {
                    return new MethodVisitor(Opcodes.ASM9, mv) {
                        @Override
                        public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                            if (op == Opcodes.INVOKEVIRTUAL && STATES.equals(owner) && n.equals("reserveIdle")) {
                                super.visitMethodInsn(Opcodes.INVOKESTATIC, SELF, "owedReserveIdle",
                                        "(L" + owner + ";" + d.substring(1), false);
                            } else {
                                super.visitMethodInsn(op, owner, n, d, itf);
                            }
                        }
                    };
                }
                if (!m.equals("awaitQueued")) {
                    return mv;
                }
                return new MethodVisitor(Opcodes.ASM9, mv) {
                    @Override
                    public void visitMethodInsn(int op, String owner, String n, String d, boolean itf) {
                        boolean hooked = op == Opcodes.INVOKEVIRTUAL
                                && (STATES.equals(owner) && (n.equals("reserveIdle") || n.equals("isClosed"))
                                    || QUEUE.equals(owner) && (n.equals("starving")
                                        || n.equals("starve") || n.equals("spendSignal")));
                        if (hooked) {
                            super.visitMethodInsn(Opcodes.INVOKESTATIC, SELF, n,
                                    "(L" + owner + ";" + d.substring(1), false);
                        } else {
                            super.visitMethodInsn(op, owner, n, d, itf);
                        }
                    }
                };
            }
        }, 0);
        return w.toByteArray();
    }

    static synchronized void install() throws Exception {
        if (inst == null) {
            inst = Class.forName("net.bytebuddy.agent.ByteBuddyAgent").getMethod("install").invoke(null);
            instType = Class.forName("java.lang.instrument.Instrumentation");
            transformerType = Class.forName("java.lang.instrument.ClassFileTransformer");
        }
        transformer = Proxy.newProxyInstance(WaitHooks.class.getClassLoader(), new Class<?>[] {transformerType},
                (proxy, m, args) -> {
                    switch (m.getName()) {
                        case "transform":
                            int n = args.length; // (loader, name, class, domain, bytes), or with a module first
                            return transform((String) args[n - 4], (byte[]) args[n - 1]);
                        case "hashCode":
                            return System.identityHashCode(proxy);
                        case "equals":
                            return proxy == args[0];
                        default:
                            return "WaitHooks transformer";
                    }
                });
        instType.getMethod("addTransformer", transformerType, boolean.class).invoke(inst, transformer, true);
        retransform();
    }

    private static void retransform() throws Exception {
        instType.getMethod("retransformClasses", Class[].class).invoke(inst, (Object) new Class<?>[] {BoundedWaiting.class});
    }

    static synchronized void uninstall() throws Exception {
        clear();
        if (transformer != null) {
            instType.getMethod("removeTransformer", transformerType).invoke(inst, transformer);
            transformer = null;
            retransform();
        }
    }
}
