package io.github.stripedpool.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The overload burst of {@link ConnectionPoolShape}: a steady load at half the cap, then four
 * times the cap for a while, then the steady load again. Measures the timeouts, the longest
 * wait, the 99th percentile of the waits that began during the burst, how long after the burst
 * ended the last of its waiters got an object (the queue drained), and the objects the pool made.
 */
final class BurstResult {
    static final String HEADER = "| pool | timeouts | longest wait | wait p99 in the burst | queue drained after "
            + "| objects made |\n|---|---:|---:|---:|---:|---:|\n";

    final String peer;
    final long timeouts;
    final long longest;
    final long p99;
    final long drained;
    final int made;
    final int cap;

    private BurstResult(String peer, long timeouts, long longest, long p99, long drained, int made, int cap) {
        this.peer = peer;
        this.timeouts = timeouts;
        this.longest = longest;
        this.p99 = p99;
        this.drained = drained;
        this.made = made;
        this.cap = cap;
    }

    static BurstResult run(String peer, int cap, long hold, Duration steady, Duration burst) throws Exception {
        AtomicInteger made = new AtomicInteger();
        AtomicLong timeouts = new AtomicLong();
        AtomicLong longest = new AtomicLong();
        AtomicLong lastBurstAcquire = new AtomicLong();
        WaitHistogram inBurst = new WaitHistogram();
        List<Throwable> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (BoundedPeers.Blocking pool = BoundedPeers.create(peer, 64, cap, ConnectionPoolShape.WAIT)) {
            final long[] burstEnd = {Long.MAX_VALUE};
            class Loop implements Runnable {
                final boolean burster;
                volatile boolean stop;

                Loop(boolean burster) {
                    this.burster = burster;
                }

                @Override
                public void run() {
                    try {
                        while (!stop) {
                            long t0 = System.nanoTime();
                            Payload p = pool.acquire();
                            long t1 = System.nanoTime();
                            longest.accumulateAndGet(t1 - t0, Math::max);
                            if (burster) {
                                inBurst.record(t1 - t0);
                                lastBurstAcquire.accumulateAndGet(t1, Math::max);
                            }
                            if (p == null) {
                                timeouts.incrementAndGet();
                                continue;
                            }
                            if (p.fresh) {
                                p.fresh = false; // held by this thread alone: a plain write is enough
                                made.incrementAndGet();
                            }
                            LockSupport.parkNanos(hold);
                            pool.release(p);
                            if (burster && System.nanoTime() >= burstEnd[0]) {
                                return;
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }
            }
            List<Thread> steadyThreads = new ArrayList<>();
            List<Loop> steadyLoops = new ArrayList<>();
            for (int i = 0; i < cap / 2; i++) {
                Loop l = new Loop(false);
                steadyLoops.add(l);
                Thread t = new Thread(l, "steady-" + i);
                t.setDaemon(true);
                steadyThreads.add(t);
                t.start();
            }
            Thread.sleep(steady.toMillis()); // the steady load before the burst
            List<Thread> bursters = new ArrayList<>();
            long start = System.nanoTime();
            burstEnd[0] = start + burst.toNanos();
            for (int i = 0; i < 4 * cap - cap / 2; i++) {
                Thread t = new Thread(new Loop(true), "burst-" + i);
                t.setDaemon(true);
                bursters.add(t);
                t.start();
            }
            for (Thread t : bursters) {
                t.join(60_000);
                if (t.isAlive()) {
                    throw new IllegalStateException(peer + ": a burst thread is stuck in the pool");
                }
            }
            Thread.sleep(steady.toMillis()); // the steady load after it
            steadyLoops.forEach(l -> l.stop = true);
            for (Thread t : steadyThreads) {
                t.join(60_000);
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException(peer + " failed in the burst", failures.get(0));
            }
            long drained = Math.max(0, lastBurstAcquire.get() - burstEnd[0]);
            return new BurstResult(peer, timeouts.get(), longest.get(), inBurst.percentile(0.99), drained,
                    made.get(), cap);
        }
    }

    String row() {
        return "| " + ShapeResult.Names.of(peer) + " | " + timeouts + " | " + ConnectionPoolShape.Format.nanos(longest)
                + " | " + ConnectionPoolShape.Format.nanos(p99) + " | " + ConnectionPoolShape.Format.nanos(drained)
                + " | " + made + (made > cap ? " (over the cap of " + cap + ")" : "") + " |";
    }
}
