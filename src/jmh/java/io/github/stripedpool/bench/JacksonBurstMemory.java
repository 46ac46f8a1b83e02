package io.github.stripedpool.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.stripedpool.jackson.StripedRecyclerPool;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * What each recycler pool keeps after a burst: many virtual threads stream a response at once to
 * a client that is slow to read, so that every one of them holds a recycler at the same moment;
 * then the load falls to one request a millisecond for a few seconds, with a collection every
 * 250 ms (two aging cycles of the striped pool, whose interval is one second). Printed per pool:
 * the recyclers idle in it right after the burst and after the light load
 * ({@link RecyclerPool#pooledCount()}; Jackson's thread-local pool cannot count them, and keeps
 * each in the thread that made it), and the heap still in use after a full collection at those
 * two moments, above what it was before the burst. A plain harness rather than JMH: what is
 * measured is a state, not a rate.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.github.stripedpool.bench.JacksonBurstMemory
 * quick|full|smoke [output.md]}. Quick and full: a burst of 10,000 virtual threads and 3 s of
 * light load per pool (about 30 s in all); smoke: 200 threads and 300 ms, to prove the code runs.
 * Needs JDK 21+ (virtual threads); on an older JDK it says so and writes no table.
 */
public final class JacksonBurstMemory {
    private static final MemoryMXBean MEMORY = ManagementFactory.getMemoryMXBean();

    private JacksonBurstMemory() {
    }

    public static void main(String[] args) throws Exception {
        String mode = args.length > 0 ? args[0] : "quick";
        boolean smoke = mode.equals("smoke");
        if (!smoke && !mode.equals("quick") && !mode.equals("full")) {
            throw new IllegalArgumentException("usage: JacksonBurstMemory quick|full|smoke [output.md]");
        }
        if (!ConnectionPoolShape.VirtualThreadExecutor.available()) {
            System.out.println("JacksonBurstMemory: skipped, the burst is of virtual threads, which need "
                    + "JDK 21 or newer; this is " + Runtime.version());
            return;
        }
        int burst = smoke ? 200 : 10_000;
        long lightMillis = smoke ? 300 : 3_000;
        StringBuilder md = new StringBuilder();
        md.append("| pool | idle recyclers after the burst | after the light load | heap kept after the burst | after the light load |\n");
        md.append("|---|---:|---:|---:|---:|\n");
        for (String name : JacksonWorkload.POOLS) {
            String row = row(name, burst, lightMillis);
            System.out.println(row);
            md.append(row).append('\n');
        }
        md.append("\n").append(burst).append(" virtual threads each holding a recycler at once, then one request a ms for ")
                .append(lightMillis).append(" ms with a collection every 250 ms; heap: used after a full collection, "
                        + "above the same before the burst. JDK ").append(Runtime.version()).append(".\n");
        if (args.length > 1) {
            Files.writeString(Path.of(args[1]), md.toString(), StandardCharsets.UTF_8);
        }
    }

    private static String row(String name, int burst, long lightMillis) throws Exception {
        RecyclerPool<BufferRecycler> pool = JacksonWorkload.pool(name);
        ObjectMapper mapper = JacksonWorkload.mapper(pool);
        JacksonWorkload.Page page = JacksonWorkload.page();
        for (int i = 0; i < 200; i++) {
            JacksonWorkload.request(mapper, page);
        }
        long before = heapAfterGc();
        burst(mapper, page, burst);
        int idleAfterBurst = pool.pooledCount();
        long afterBurst = heapAfterGc() - before;
        long agingBefore = agingCycles(pool);
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(lightMillis);
        long nextGc = System.nanoTime();
        while (System.nanoTime() - end < 0) {
            JacksonWorkload.request(mapper, page);
            if (System.nanoTime() - nextGc >= 0) {
                System.gc();
                nextGc = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(250);
            }
            LockSupport.parkNanos(1_000_000);
        }
        int idleAfterLight = pool.pooledCount();
        long afterLight = heapAfterGc() - before;
        String aging = pool instanceof StripedRecyclerPool ? " (" + (agingCycles(pool) - agingBefore) + " aging cycles)" : "";
        return "| " + name + aging + " | " + count(idleAfterBurst)
                + " | " + count(idleAfterLight) + " | " + mib(afterBurst) + " | " + mib(afterLight) + " |";
    }

    /**
     * {@code n} virtual threads write the page to a stream that blocks until all {@code n} are
     * writing, so that each holds its recycler at that moment, as a response to a slow client does.
     */
    private static void burst(ObjectMapper mapper, JacksonWorkload.Page page, int n) throws Exception {
        CountDownLatch allWriting = new CountDownLatch(n);
        ExecutorService executor = ConnectionPoolShape.VirtualThreadExecutor.create();
        try {
            List<Future<?>> writes = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                writes.add(executor.submit(() -> {
                    // Streamed: the flush writes while the generator holds its recycler (a
                    // generator that is closed gives its recycler back before its last write).
                    try (JsonGenerator out = mapper.createGenerator(new SlowClient(allWriting))) {
                        out.writeStartArray();
                        mapper.writeValue(out, page);
                        out.flush();
                        out.writeEndArray();
                    }
                    return null;
                }));
            }
            for (Future<?> w : writes) {
                w.get(60, TimeUnit.SECONDS);
            }
        } finally {
            executor.shutdown();
        }
    }

    /** A client that reads nothing until every thread of the burst has started writing to it. */
    private static final class SlowClient extends OutputStream {
        private final CountDownLatch allWriting;
        private final AtomicInteger writes = new AtomicInteger();

        SlowClient(CountDownLatch allWriting) {
            this.allWriting = allWriting;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            if (writes.getAndIncrement() == 0) {
                allWriting.countDown();
                try {
                    if (!allWriting.await(60, TimeUnit.SECONDS)) {
                        throw new IOException("the burst did not assemble in 60 s");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
        }
    }

    private static long agingCycles(RecyclerPool<BufferRecycler> pool) {
        return pool instanceof StripedRecyclerPool ? ((StripedRecyclerPool) pool).stats().agingCycles() : 0;
    }

    private static long heapAfterGc() {
        System.gc();
        System.gc();
        return MEMORY.getHeapMemoryUsage().getUsed();
    }

    private static String count(int n) {
        return n < 0 ? "not counted" : String.valueOf(n);
    }

    private static String mib(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1024.0 * 1024.0));
    }
}
