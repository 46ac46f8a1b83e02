package io.github.stripedpool.jackson;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolBuilder;
import io.github.stripedpool.PoolClosedException;
import io.github.stripedpool.PoolStats;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectStreamException;
import java.io.Serializable;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Jackson's {@link BufferRecycler}s kept in a striped pool, for any {@code JsonFactory} or
 * {@code ObjectMapper} (Jackson 2.17 or later):
 *
 * <pre>{@code
 * JsonFactory factory = JsonFactory.builder().recyclerPool(StripedRecyclerPool.newPool()).build();
 * ObjectMapper mapper = JsonMapper.builder(factory).build();
 * }</pre>
 *
 * <p>Every parser and generator the factory makes takes a recycler from this pool and gives it
 * back when it is closed. A platform thread that parses again takes back the recycler it gave
 * back last, from its private slot, without a shared write; virtual threads share about one
 * stripe per processor instead of keeping a recycler each; recyclers that nobody reuses through
 * two aging cycles (driven by the garbage collector) are dropped, so a burst of concurrent
 * requests does not pin its buffers for good. See {@code docs/jackson.md}.
 *
 * <p>Jackson 2.17 or later is an optional dependency of this library: this class needs
 * {@code com.fasterxml.jackson.core:jackson-core} at run time, the rest of the library does not.
 * On the module path the module is {@code com.fasterxml.jackson.core}.
 *
 * <h2>How Jackson uses it</h2>
 * Jackson calls {@link #acquireAndLinkPooled()}, which takes a recycler with
 * {@link #acquirePooled()} and links it to this pool; closing the parser or generator calls
 * {@link BufferRecycler#releaseToPool()}, which unlinks it and hands it to
 * {@link #releasePooled(BufferRecycler)}. A recycler is linked to one pool at a time, so the
 * pool only ever holds unlinked ones. A parser or generator that is never closed never gives
 * its recycler back: with {@link io.github.stripedpool.LeakDetection} switched on
 * ({@link #newPool(Consumer)}), such a recycler is reported once it is garbage, with the stack
 * of the call that created the parser.
 */
// "exports": Jackson's types in this API are not re-exported (the module requires
// com.fasterxml.jackson.core static, not transitive: see module-info); a user of this class has
// Jackson.
@SuppressWarnings("exports")
public final class StripedRecyclerPool implements RecyclerPool<BufferRecycler> {
    /*
     * Implementation notes.
     *
     * The adapter adds nothing to the pool's hot path but the check that a released recycler is
     * unlinked (a field read): acquirePooled is Pool.acquire, releasePooled is Pool.release. No
     * reset hook: a BufferRecycler keeps buffers whose contents every user overwrites before
     * reading, as with Jackson's own pools, and its buffer slots are atomic, so handing it from
     * one thread to another through the pool's compare-and-set needs nothing more. No destroy
     * hook: a dropped recycler is garbage like any other object, and without a destroy hook the
     * pool's private tier costs no atomic instruction.
     *
     * The factory counts its calls so that clear() can tell, without a stats() snapshot per
     * object, when an acquisition no longer finds an idle recycler.
     */
    private static final long serialVersionUID = 1L;

    /**
     * Default {@link PoolBuilder#maxIdle(int)}: 16 per processor, and at least 64. A recycler
     * that served a parser and a generator holds about 30 KiB of buffers, so the default cap
     * keeps at most half a megabyte per processor. Each recycler in use is a parse or write in
     * progress: a few per processor on platform threads, more on virtual threads that block
     * while writing to a slow stream; the cap matters only after such a burst, and aging drops
     * what the burst left anyway. Jackson's own bounded pool keeps 100.
     */
    static final int DEFAULT_MAX_IDLE = Math.max(64, 16 * Runtime.getRuntime().availableProcessors());

    /** Default pool name, in leak reports, {@link PoolStats} and monitoring. */
    static final String DEFAULT_NAME = "jackson-recyclers";

    private final transient Pool<BufferRecycler> pool;
    private final transient AtomicLong created = new AtomicLong();

    StripedRecyclerPool(Supplier<? extends BufferRecycler> factory,
            Consumer<? super PoolBuilder<BufferRecycler>> settings) {
        Objects.requireNonNull(settings, "settings is null: pass a Consumer of PoolBuilder, "
                + "e.g. b -> b.name(\"json\"), or call newPool() without arguments");
        PoolBuilder<BufferRecycler> builder = Pool.<BufferRecycler>builder(() -> {
            BufferRecycler r = factory.get();
            created.incrementAndGet();
            return r;
        }).maxIdle(DEFAULT_MAX_IDLE).name(DEFAULT_NAME);
        settings.accept(builder);
        Pool<BufferRecycler> built;
        try {
            built = builder.build();
        } catch (IllegalStateException e) {
            // Every contradiction build() refuses is an option of bounded pools: its advice
            // ("call maxTotal(n)") is the one thing this pool cannot take.
            throw new IllegalArgumentException("a Jackson recycler pool stays unbounded (a parser "
                    + "never waits for a recycler), so the options of bounded pools do not apply: "
                    + "remove maxTotal(), minIdle(), acquireTimeout(), validate(), maxIdleTime(), "
                    + "maxLifetime() and reportHeldLongerThan() from the settings, and cap the idle "
                    + "recyclers with maxIdle(n). The builder said: " + e.getMessage(), e);
        }
        if (built.stats().maxTotal() > 0) {
            built.close();
            throw new IllegalArgumentException("a Jackson recycler pool must not be bounded: with "
                    + "maxTotal the pool would make a parser wait for a recycler, or fail, when all "
                    + "are in use; remove maxTotal() and cap the idle recyclers with maxIdle(n)");
        }
        this.pool = built;
    }

    /**
     * A new pool with the default settings: unbounded, named {@code jackson-recyclers}, at most
     * 16 idle recyclers per processor (64 at least), aging once a second at most.
     *
     * @return a new pool, for {@code JsonFactory.builder().recyclerPool(...)}
     */
    public static StripedRecyclerPool newPool() {
        return newPool(builder -> { });
    }

    /**
     * A new pool whose settings {@code settings} adjusts, starting from the defaults of
     * {@link #newPool()}: a name, {@link PoolBuilder#maxIdle(int) maxIdle},
     * {@link PoolBuilder#agingInterval(java.time.Duration) agingInterval},
     * {@link PoolBuilder#leakDetection(io.github.stripedpool.LeakDetection) leak detection} and
     * {@link PoolBuilder#onLeak(Consumer) its listener}:
     *
     * <pre>{@code
     * StripedRecyclerPool.newPool(b -> b.name("api-json").leakDetection(LeakDetection.SAMPLED))
     * }</pre>
     *
     * A reset or destroy hook receives each recycler, unlinked from any pool. The pool stays
     * unbounded: a parser never waits for a recycler.
     *
     * @param settings called once, with the builder, before the pool is built
     * @return a new pool
     * @throws NullPointerException if {@code settings} is null
     * @throws IllegalArgumentException if {@code settings} made the pool bounded
     *         ({@link PoolBuilder#maxTotal(int)}) or set an option of bounded pools only
     *         ({@link PoolBuilder#minIdle(int) minIdle}, {@code acquireTimeout}, {@code validate},
     *         {@code maxIdleTime}, {@code maxLifetime}, {@code reportHeldLongerThan})
     */
    public static StripedRecyclerPool newPool(Consumer<? super PoolBuilder<BufferRecycler>> settings) {
        return new StripedRecyclerPool(BufferRecycler::new, settings);
    }

    /**
     * Takes an idle recycler, or makes one when none is idle; never blocks. Jackson links it to
     * this pool ({@link #acquireAndLinkPooled()}).
     *
     * @return an unlinked recycler
     * @throws io.github.stripedpool.PoolClosedException if {@link #pool()} was closed
     */
    @Override
    public BufferRecycler acquirePooled() {
        return pool.acquire();
    }

    /**
     * Keeps a recycler for reuse. Jackson calls it from {@link BufferRecycler#releaseToPool()},
     * once the recycler is unlinked. A recycler this pool did not hand out is treated as
     * {@link Pool#release(Object)} says: pooled, or, under
     * {@link io.github.stripedpool.LeakDetection#PARANOID}, refused with an exception.
     *
     * @param recycler a recycler from {@link #acquirePooled()}, unlinked
     * @throws NullPointerException if {@code recycler} is null
     * @throws IllegalStateException if {@code recycler} is still linked to a pool: it would fail
     *         when Jackson links it again, so it is not pooled
     * @throws IllegalArgumentException as {@link Pool#release(Object)}
     */
    @Override
    public void releasePooled(BufferRecycler recycler) {
        Objects.requireNonNull(recycler, "recycler is null: pass the recycler acquirePooled() returned");
        if (recycler.isLinkedWithPool()) {
            throw new IllegalStateException("the recycler is still linked to a pool, and would fail "
                    + "when Jackson links it again: give it back with recycler.releaseToPool(), "
                    + "which unlinks it and then calls releasePooled");
        }
        pool.release(recycler);
    }

    /**
     * The recyclers idle in the pool now, ready for reuse: in the shared stripes, in the private
     * slots of platform threads and among the victims of the last aging cycle. Takes a
     * {@link Pool#stats()} snapshot: for monitoring, not for every parse.
     *
     * @return the number of idle recyclers
     */
    @Override
    public int pooledCount() {
        return pool.stats().idle();
    }

    /**
     * Drops the idle recyclers this thread can reach: those of the shared stripes and the
     * victims, and those in the calling thread's private slot. A recycler idle in another
     * platform thread's private slot stays until that thread takes it back or aging drops it.
     * Recyclers in use are not affected: they come back as usual. Each dropped recycler counts as
     * acquired and {@linkplain PoolStats#invalidated() invalidated}. A pool closed before or
     * during the call holds no idle recycler: there is nothing to clear.
     *
     * <p>The pool has no way to take an idle recycler but to acquire one, so clear() acquires as
     * many as {@link #pooledCount()} counted when it began. Where some of them sit in other
     * threads' private slots, the first acquisition that finds none within reach makes a new
     * recycler (counted as created, and as a miss); clear() drops it too, stops there, and
     * returns false, as Jackson's {@code RecyclerPool.clear()} asks when not every pooled
     * recycler was dropped.
     *
     * <p>Concurrent use makes the count approximate, never unsafe: a recycler released by
     * another thread meanwhile may be dropped in place of one that was idle at the start (which
     * then stays for the next clear() or aging), and a recycler another thread's acquisition
     * made meanwhile looks like one made here, so clear() stops early and returns false.
     *
     * @return true if as many recyclers as were idle when the call began were dropped without
     *         one being made for it (or the pool is closed); false if some were out of reach, were
     *         taken by other threads meanwhile, or another thread made one meanwhile
     */
    @Override
    public boolean clear() {
        if (pool.isClosed()) {
            return true; // a closed pool holds no idle objects
        }
        // An upper bound: recyclers released meanwhile are for the next clear() or aging.
        int idle = pool.stats().idle();
        try {
            for (int i = 0; i < idle; i++) {
                long before = created.get();
                BufferRecycler r = pool.acquire();
                pool.invalidate(r);
                if (created.get() != before) {
                    return false; // the factory ran: what is left idle is out of reach
                }
            }
        } catch (PoolClosedException e) {
            // Closed meanwhile (a shutdown on another thread, or a destroy hook): close dropped
            // every idle recycler, so nothing is left to clear.
        }
        return true;
    }

    /**
     * A snapshot of the pool's counters: recyclers created, acquisitions and releases, hits,
     * idle ones, aging cycles, leaks. Same as {@code pool().stats()}.
     *
     * @return the counters as they were during this call
     */
    public PoolStats stats() {
        return pool.stats();
    }

    /**
     * The pool underneath, for monitoring: {@code new PoolMetrics(pool())} or
     * {@code PoolJmx.register(pool())}. Recyclers go in and out through Jackson; do not close the
     * pool while a factory still uses it, or its next parser fails with
     * {@link io.github.stripedpool.PoolClosedException}.
     *
     * @return the pool that holds the recyclers
     */
    public Pool<BufferRecycler> pool() {
        return pool;
    }

    @Override
    public String toString() {
        return "StripedRecyclerPool[" + pool.name() + "]";
    }

    /**
     * Serialized as a {@link NewPool}: a factory or mapper that is serialized and read back gets
     * a new, empty pool with the same name and otherwise default settings (the settings callback
     * is code, not data).
     *
     * @return the serial form: the pool's name
     */
    private Object writeReplace() {
        return new NewPool(pool.name());
    }

    /**
     * Refuses a stream that holds this class itself rather than its {@link NewPool}: only a
     * forged stream can.
     *
     * @param in the stream
     * @throws InvalidObjectException always
     */
    private void readObject(ObjectInputStream in) throws InvalidObjectException {
        throw new InvalidObjectException("a StripedRecyclerPool is serialized as its replacement only");
    }

    /** The serial form of a {@link StripedRecyclerPool}: its name. */
    private static final class NewPool implements Serializable {
        private static final long serialVersionUID = 1L;
        private final String name;

        NewPool(String name) {
            this.name = name;
        }

        private Object readResolve() throws ObjectStreamException {
            try {
                return newPool(b -> b.name(name));
            } catch (RuntimeException e) { // a forged stream: no valid name
                InvalidObjectException invalid = new InvalidObjectException("a StripedRecyclerPool's "
                        + "serial form holds an invalid pool name: " + e.getMessage());
                invalid.initCause(e);
                throw invalid;
            }
        }
    }
}
