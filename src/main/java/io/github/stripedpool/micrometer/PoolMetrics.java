package io.github.stripedpool.micrometer;

import io.github.stripedpool.Pool;
import io.github.stripedpool.PoolStats;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.function.ToDoubleFunction;

/**
 * Publishes a pool's {@link PoolStats} to a Micrometer {@link MeterRegistry}.
 *
 * <pre>{@code
 * PoolMetrics metrics = new PoolMetrics(pool);
 * metrics.bindTo(registry);        // Spring Boot does this for a MeterBinder bean
 * ...
 * metrics.close();                 // removes the meters, before pool.close()
 * }</pre>
 *
 * <p>Micrometer is an optional dependency of this library: this class needs
 * {@code io.micrometer:micrometer-core} (1.1 or later) at run time, the rest of the library
 * does not. On the module path the module is {@code micrometer.core}.
 *
 * <h2>Meters</h2>
 * Every meter has the tag {@code pool} (the {@linkplain Pool#name() pool's name}) and the
 * extra tags given to the constructor.
 * <table>
 *   <caption>Meters of a pool</caption>
 *   <tr><th>name</th><th>type</th><th>base unit</th><th>value</th></tr>
 *   <tr><td>{@value #IDLE}</td><td>gauge</td><td>objects</td>
 *       <td>idle objects ready for reuse ({@link PoolStats#idle()})</td></tr>
 *   <tr><td>{@value #IN_USE}</td><td>gauge</td><td>objects</td>
 *       <td>objects acquired and not yet released ({@link PoolStats#inUse()})</td></tr>
 *   <tr><td>{@value #IDLE_CAPACITY}</td><td>gauge</td><td>objects</td>
 *       <td>the most idle objects the pool keeps ({@link PoolStats#idleCapacity()})</td></tr>
 *   <tr><td>{@value #MAX_TOTAL}</td><td>gauge</td><td>objects</td>
 *       <td>a bounded pool's cap, 0 for an unbounded pool ({@link PoolStats#maxTotal()})</td></tr>
 *   <tr><td>{@value #HIT_RATE}</td><td>gauge</td><td></td>
 *       <td>acquisitions served by an idle object, as a fraction of all acquisitions since the
 *       pool was built, 0 before the first ({@link PoolStats#hitRate()})</td></tr>
 *   <tr><td>{@value #WAITING}</td><td>gauge</td><td>threads</td>
 *       <td>threads waiting in acquire now, bounded pools ({@link PoolStats#waitingNow()})</td></tr>
 *   <tr><td>{@value #WAIT}</td><td>function timer</td><td></td>
 *       <td>acquisitions that waited and their total wait ({@link PoolStats#waits()},
 *       {@link PoolStats#waitNanosTotal()})</td></tr>
 *   <tr><td>{@value #WAIT_MAX}</td><td>time gauge</td><td></td>
 *       <td>the longest wait since the pool was built ({@link PoolStats#waitNanosMax()})</td></tr>
 *   <tr><td>{@value #TIMEOUTS}</td><td>function counter</td><td></td>
 *       <td>acquisitions that timed out ({@link PoolStats#timeouts()})</td></tr>
 *   <tr><td>{@value #CREATIONS_FAILED}</td><td>function counter</td><td></td>
 *       <td>factory calls of a bounded pool that failed ({@link PoolStats#creationsFailed()})</td></tr>
 *   <tr><td>{@value #MAINTENANCE_RUNS}</td><td>function counter</td><td></td>
 *       <td>a bounded pool's maintenance runs ({@link PoolStats#maintenanceRuns()})</td></tr>
 *   <tr><td>{@value #HELD_TOO_LONG}</td><td>function counter</td><td></td>
 *       <td>borrowings of a bounded pool reported as held too long
 *       ({@link PoolStats#heldTooLong()})</td></tr>
 *   <tr><td>{@value #ACQUISITIONS}</td><td>function counter</td><td></td>
 *       <td>successful acquisitions, with the tag {@code source}: {@code private},
 *       {@code home}, {@code stolen}, {@code victim} (served by an idle object, see
 *       {@link PoolStats}) or {@code factory} (nothing idle: the factory made one); their sum
 *       is {@link PoolStats#acquired()}, and all but {@code factory} over the sum is the hit
 *       rate</td></tr>
 *   <tr><td>{@value #RELEASES}</td><td>function counter</td><td></td>
 *       <td>calls to release ({@link PoolStats#released()})</td></tr>
 *   <tr><td>{@value #CREATED}</td><td>function counter</td><td>objects</td>
 *       <td>objects made by the factory ({@link PoolStats#created()})</td></tr>
 *   <tr><td>{@value #DROPPED}</td><td>function counter</td><td>objects</td>
 *       <td>objects passed to the destroy hook ({@link PoolStats#dropped()})</td></tr>
 *   <tr><td>{@value #HOOK_FAILURES}</td><td>function counter</td><td></td>
 *       <td>reset and destroy hooks that threw ({@link PoolStats#hookFailures()})</td></tr>
 *   <tr><td>{@value #INVALIDATED}</td><td>function counter</td><td>objects</td>
 *       <td>objects given back broken with {@code invalidate} and destroyed
 *       ({@link PoolStats#invalidated()})</td></tr>
 *   <tr><td>{@value #NOT_RETAINED}</td><td>function counter</td><td>objects</td>
 *       <td>released objects the {@code retainIf} predicate refused, destroyed
 *       ({@link PoolStats#notRetained()})</td></tr>
 *   <tr><td>{@value #AGING_CYCLES}</td><td>function counter</td><td></td>
 *       <td>aging cycles run ({@link PoolStats#agingCycles()})</td></tr>
 *   <tr><td>{@value #TRIMS}</td><td>function counter</td><td></td>
 *       <td>collections after which the heap was short and the pool gave idle objects back
 *       at once ({@link PoolStats#trims()})</td></tr>
 *   <tr><td>{@value #LEAKS}</td><td>function counter</td><td></td>
 *       <td>objects reported as leaked ({@link PoolStats#leaks()})</td></tr>
 * </table>
 * With Prometheus, for example, {@code stripedpool.idle} is exported as
 * {@code stripedpool_idle_objects} and {@code stripedpool.acquisitions} as
 * {@code stripedpool_acquisitions_total}.
 *
 * <h2>Cost</h2>
 * The meters read the pool only when the registry polls them, never on the pool's acquire or
 * release path. A poll takes a {@link Pool#stats()} snapshot, which visits every stripe and
 * thread-private slot of the pool (microseconds; it runs no hook and never waits for one). All
 * meters of one pool in one registry share one snapshot for up to one second, so a scrape of
 * every meter costs one snapshot, and the figures of one scrape agree with each other unless one
 * registry is read twice within a second (each registry the binder is bound to has a snapshot of
 * its own); registries poll every few seconds at most (Prometheus scrapes every 15 to 60 seconds,
 * push registries once per step, one minute by default), so the cost is a snapshot per poll.
 *
 * <h2>Life cycle</h2>
 * The meters hold the pool weakly, as Micrometer's own binders do: once the pool became
 * garbage its gauges read {@code NaN}, and its counters and timer keep their last value. They are removed from the registries by {@link #close()}, which a
 * container calls at shutdown when this object is a bean (Spring infers it from
 * {@link AutoCloseable}); call it before closing the pool so that no registry outlives an
 * undeployed application's classes. The pool's name (with the extra tags) must be unique among
 * the pools bound to one registry: {@link #bindTo} claims it, and {@link #close()} gives it back.
 * A registry that would publish two pools' figures under one meter, through a composite
 * registry or a filter that removes the tag {@code pool}, is refused by {@link #bindTo}, which
 * then registers nothing; so {@link #close()} only ever removes meters its binder made (with
 * the exception below).
 *
 * <p>That check sees the composites as they are when {@link #bindTo} runs, so bind after the
 * registries have been added to their composites: a registry added to a composite later gets the
 * composite's meters from Micrometer, and where it holds a meter of the same name and tags
 * already (a second pool of the same name, bound to it directly) Micrometer keeps that one and
 * publishes one pool only, without an error; closing the composite's binder then removes that
 * meter from it too, since Micrometer removes a composite's meter from every registry below it
 * by name and tags. Likewise a claim made through a composite stays with the registry after
 * it leaves the composite, until the binder is closed. Giving each pool a unique name avoids
 * all of this.
 */
// "exports": Micrometer's types in this API are not re-exported (the module requires
// micrometer.core static, not transitive: see module-info); a user of this class has Micrometer.
@SuppressWarnings("exports")
public final class PoolMetrics implements MeterBinder, AutoCloseable {
    /** Gauge: idle objects. */
    public static final String IDLE = "stripedpool.idle";
    /** Gauge: objects in use. */
    public static final String IN_USE = "stripedpool.in.use";
    /** Gauge: the most idle objects the pool keeps. */
    public static final String IDLE_CAPACITY = "stripedpool.idle.capacity";
    /** Gauge: a bounded pool's cap (0: unbounded). */
    public static final String MAX_TOTAL = "stripedpool.max.total";
    /** Gauge: hits over acquisitions since the pool was built, from 0 to 1. */
    public static final String HIT_RATE = "stripedpool.hit.rate";
    /** Gauge: threads waiting in acquire now (bounded pools). */
    public static final String WAITING = "stripedpool.waiting";
    /** Function timer: acquisitions that waited, and their total wait (bounded pools). */
    public static final String WAIT = "stripedpool.wait";
    /** Time gauge: the longest wait since the pool was built (bounded pools). */
    public static final String WAIT_MAX = "stripedpool.wait.max";
    /** Function counter: acquisitions that timed out (bounded pools). */
    public static final String TIMEOUTS = "stripedpool.timeouts";
    /** Function counter: failed factory calls (bounded pools). */
    public static final String CREATIONS_FAILED = "stripedpool.creations.failed";
    /** Function counter: maintenance runs (bounded pools). */
    public static final String MAINTENANCE_RUNS = "stripedpool.maintenance.runs";
    /** Function counter: borrowings reported as held too long. */
    public static final String HELD_TOO_LONG = "stripedpool.held.too.long";
    /** Function counter: collections after which the pool trimmed, the heap being short. */
    public static final String TRIMS = "stripedpool.trims";
    /** Function counter: acquisitions, by the tag {@code source}. */
    public static final String ACQUISITIONS = "stripedpool.acquisitions";
    /** Function counter: releases. */
    public static final String RELEASES = "stripedpool.releases";
    /** Function counter: objects made by the factory. */
    public static final String CREATED = "stripedpool.created";
    /** Function counter: objects destroyed. */
    public static final String DROPPED = "stripedpool.dropped";
    /** Function counter: hook failures. */
    public static final String HOOK_FAILURES = "stripedpool.hook.failures";
    /** Function counter: objects given back with {@code invalidate}. */
    public static final String INVALIDATED = "stripedpool.invalidated";
    /** Function counter: released objects the {@code retainIf} predicate refused. */
    public static final String NOT_RETAINED = "stripedpool.not.retained";
    /** Function counter: aging cycles. */
    public static final String AGING_CYCLES = "stripedpool.aging.cycles";
    /** Function counter: leaks reported. */
    public static final String LEAKS = "stripedpool.leaks";

    private static final String OBJECTS = "objects";

    /** Every meter's name, for {@link #publishedBelow}. */
    private static final List<String> NAMES = List.of(IDLE, IN_USE, IDLE_CAPACITY, MAX_TOTAL, HIT_RATE,
            WAITING, WAIT, WAIT_MAX, TIMEOUTS, CREATIONS_FAILED, MAINTENANCE_RUNS, HELD_TOO_LONG, TRIMS,
            ACQUISITIONS, RELEASES, CREATED, DROPPED, HOOK_FAILURES, INVALIDATED, NOT_RETAINED,
            AGING_CYCLES, LEAKS);

    /**
     * The tags of the pools published to each registry (the extra tags and {@code pool}), with
     * the binder that claimed them: a binder claims its tags in the registry it is bound to and,
     * for a composite, in every registry below it (where the composite publishes its meters),
     * all at once under the map's lock, before it registers a meter; so two pools of one name
     * are never both published to one registry, directly or through a composite, however the
     * two calls interleave (as the composites stand at the binds: see the class comment for a
     * registry added to a composite afterwards). {@link #close()} gives the claims back. A registry that became
     * garbage is forgotten (weak keys; registries compare by identity). The lock is held for
     * the claims only, never while a meter is registered (a registry runs its filters and
     * listeners then).
     */
    private static final Map<MeterRegistry, Map<Tags, Object>> CLAIMS = new WeakHashMap<>();

    /**
     * What this binder's claims in {@link #CLAIMS} name it by: an object of its own, not the
     * binder, which holds the pool strongly (a claim must not keep an abandoned pool alive).
     */
    private final Object claimant = new Object();

    private final Pool<?> pool;
    private final Tags tags;
    private final LongSupplier nanoClock;
    /**
     * Meters registered by {@link #bindTo}, each with its registry, and the registries whose
     * claim this binder holds; guarded by {@code this}.
     */
    private final List<Bound> bound = new ArrayList<>();
    private final List<MeterRegistry> claimed = new ArrayList<>();

    /**
     * A binder for {@code pool}, with the tag {@code pool} only.
     *
     * @param pool the pool to publish
     * @throws NullPointerException if {@code pool} is null
     */
    public PoolMetrics(Pool<?> pool) {
        this(pool, Tags.empty());
    }

    /**
     * A binder for {@code pool}, with extra tags on every meter (an application or region, say).
     *
     * @param pool the pool to publish
     * @param tags added to the tag {@code pool} on every meter; must not contain {@code pool}
     *        nor {@code source} (the binder sets both); read once, so an {@code Iterable} that
     *        can be iterated only once will do
     * @throws NullPointerException if {@code pool} or {@code tags} is null
     * @throws IllegalArgumentException if {@code tags} has a tag named {@code pool} or
     *         {@code source}
     */
    public PoolMetrics(Pool<?> pool, Iterable<Tag> tags) {
        this(pool, tags, System::nanoTime);
    }

    /** For tests: {@code nanoClock} decides when the shared snapshot is taken again. */
    PoolMetrics(Pool<?> pool, Iterable<Tag> tags, LongSupplier nanoClock) {
        this.pool = Objects.requireNonNull(pool, "pool is null: pass the pool whose stats to publish");
        Objects.requireNonNull(tags, "tags is null: pass Tags.empty() for no extra tags");
        Tags extra = Tags.of(tags); // once: the caller's Iterable may not iterate twice
        for (Tag t : extra) {
            if ("pool".equals(t.getKey())) {
                throw new IllegalArgumentException("tags has a tag named 'pool' (value '"
                        + t.getValue() + "'): the binder sets it to the pool's name; name the "
                        + "pool with PoolBuilder.name(...) instead, or use another tag key");
            }
            if ("source".equals(t.getKey())) {
                throw new IllegalArgumentException("tags has a tag named 'source' (value '"
                        + t.getValue() + "'): the binder sets it on " + ACQUISITIONS + " to where "
                        + "each acquired object came from; use another tag key");
            }
        }
        this.tags = extra.and("pool", pool.name());
        this.nanoClock = nanoClock;
    }

    /**
     * Registers the pool's meters with {@code registry}.
     *
     * @param registry the registry to publish to
     * @throws NullPointerException if {@code registry} is null
     * @throws IllegalStateException if a pool of the same name and extra tags is bound to
     *         {@code registry} already (by this binder or another, directly or through a
     *         composite registry), or if the registry has a meter already that one of this
     *         pool's would share (a filter that removes the tag {@code pool} merges pools);
     *         nothing was registered then.
     *         If the registry throws while the meters are registered, the meters registered so
     *         far are removed, the claim is given back, and the registry's exception is rethrown
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry is null: pass the MeterRegistry to publish to");
        List<MeterRegistry> taken = claim(registry);
        Meter.Id below = publishedBelow(registry);
        if (below != null) {
            // Found before registering: a composite's meters, removed, take their children's
            // with them, and these children's are another binder's (or no binder's).
            release(taken);
            throw collision(below);
        }
        List<Meter> meters = new ArrayList<>();
        Set<Meter> before = identities(registry.getMeters());
        try {
            register(registry, new StatsCache(nanoClock), meters);
        } catch (RuntimeException | Error e) {
            removeNew(registry, meters, before);
            release(taken);
            throw e;
        }
        Meter shared = firstTaken(meters, before);
        if (shared != null) {
            removeNew(registry, meters, before);
            release(taken);
            throw collision(shared.getId());
        }
        synchronized (this) {
            for (Meter m : meters) {
                bound.add(new Bound(registry, m));
            }
            claimed.addAll(taken);
        }
    }

    /**
     * Claims this binder's tags in {@code registry} and, for a composite, in every registry
     * below it, all or none; returns the registries claimed now (a registry below that this
     * binder claimed already, through another composite, stays claimed once).
     *
     * @throws IllegalStateException if another binder claimed them in one of these registries,
     *         or this one in {@code registry} itself
     */
    private List<MeterRegistry> claim(MeterRegistry registry) {
        List<MeterRegistry> all = withRegistriesBelow(registry);
        List<MeterRegistry> taken = new ArrayList<>();
        synchronized (CLAIMS) {
            for (MeterRegistry r : all) {
                Object owner = CLAIMS.getOrDefault(r, Map.of()).get(tags);
                if (owner != null && (owner != claimant || r == registry)) {
                    throw new IllegalStateException("a pool named '" + pool.name() + "' with tags " + tags
                            + " is bound to " + (r == registry ? "this registry" : "a registry of this "
                            + "composite registry") + " already: give each pool a unique name with "
                            + "PoolBuilder.name(...), or close the PoolMetrics of the other pool first (or "
                            + "do not bind this PoolMetrics to the same registry twice)");
                }
            }
            for (MeterRegistry r : all) {
                Map<Tags, Object> claims = CLAIMS.computeIfAbsent(r, k -> new HashMap<>());
                if (claims.putIfAbsent(tags, claimant) == null) {
                    taken.add(r);
                }
            }
        }
        return taken;
    }

    /** Gives back this binder's claims in {@code registries}. */
    private void release(List<MeterRegistry> registries) {
        synchronized (CLAIMS) {
            for (MeterRegistry r : registries) {
                Map<Tags, Object> claims = CLAIMS.get(r);
                if (claims != null) {
                    claims.remove(tags, claimant);
                }
            }
        }
    }

    /** {@code registry}, then, for a composite, every registry below it, each once. */
    private static List<MeterRegistry> withRegistriesBelow(MeterRegistry registry) {
        Set<MeterRegistry> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<MeterRegistry> all = new ArrayList<>();
        List<MeterRegistry> todo = new ArrayList<>(List.of(registry));
        while (!todo.isEmpty()) {
            MeterRegistry r = todo.remove(todo.size() - 1);
            if (seen.add(r)) {
                all.add(r);
                if (r instanceof CompositeMeterRegistry) {
                    todo.addAll(((CompositeMeterRegistry) r).getRegistries());
                }
            }
        }
        return all;
    }

    /**
     * A meter of {@code meters} that the registry had before this binder registered (Micrometer
     * returns the meter it has for an id instead of a new one, whatever the registry's filters
     * made of the id), or null if every one is this binder's own.
     */
    private static Meter firstTaken(List<Meter> meters, Set<Meter> before) {
        for (Meter m : meters) {
            if (before.contains(m)) {
                return m;
            }
        }
        return null;
    }

    private IllegalStateException collision(Meter.Id id) {
        return new IllegalStateException("the registry publishes a meter " + id + " already, "
                + "which pool '" + pool.name() + "' would share: a pool of the same name and tags "
                + "is bound to it another way (through a composite registry it belongs to, or to "
                + "a registry of a composite it is bound to), or a meter filter merges the meters "
                + "of pools (one that removes the tag 'pool'). Give each pool a unique name with "
                + "PoolBuilder.name(...), and keep the tag 'pool'; nothing was registered");
    }

    /**
     * The id of a meter of this pool's names and tags that a registry of the composite
     * {@code registry} publishes already, at any depth; null if none does, or if
     * {@code registry} is no composite. Found by name and tags as the binder gives them: a
     * child's own filters are not applied.
     */
    private Meter.Id publishedBelow(MeterRegistry registry) {
        if (!(registry instanceof CompositeMeterRegistry)) {
            return null;
        }
        Set<MeterRegistry> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        List<MeterRegistry> todo = new ArrayList<>(((CompositeMeterRegistry) registry).getRegistries());
        while (!todo.isEmpty()) {
            MeterRegistry r = todo.remove(todo.size() - 1);
            if (!seen.add(r)) {
                continue;
            }
            for (String name : NAMES) {
                for (Meter m : r.find(name).tags(tags).meters()) {
                    // Exactly this binder's tags (and the source of an acquisitions counter):
                    // find() also matches meters with more tags, which do not collide.
                    List<Tag> theirs = new ArrayList<>();
                    for (Tag t : m.getId().getTags()) {
                        if (!(name.equals(ACQUISITIONS) && t.getKey().equals("source"))) {
                            theirs.add(t);
                        }
                    }
                    if (Tags.of(theirs).equals(tags)) {
                        return m.getId();
                    }
                }
            }
            if (r instanceof CompositeMeterRegistry) {
                todo.addAll(((CompositeMeterRegistry) r).getRegistries());
            }
        }
        return null;
    }

    /** Removes the meters of {@code meters} the registry did not have before: this binder's. */
    private static void removeNew(MeterRegistry registry, List<Meter> meters, Set<Meter> before) {
        for (Meter m : meters) {
            if (!before.contains(m)) {
                registry.remove(m);
            }
        }
    }

    private static Set<Meter> identities(List<Meter> meters) {
        Set<Meter> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(meters);
        return set;
    }

    /** Registers every meter, each into {@code meters} as soon as it is, reading {@code c}. */
    private void register(MeterRegistry registry, StatsCache c, List<Meter> meters) {
        // Every read of PoolStats is in this block: one line per meter.
        meters.add(gauge(registry, c, IDLE, "Idle objects ready for reuse", PoolStats::idle));
        meters.add(gauge(registry, c, IN_USE, "Objects acquired and not yet released", PoolStats::inUse));
        meters.add(gauge(registry, c, IDLE_CAPACITY, "The most idle objects the pool keeps",
                PoolStats::idleCapacity));
        meters.add(gauge(registry, c, MAX_TOTAL, "The cap of a bounded pool, 0 if unbounded",
                PoolStats::maxTotal));
        meters.add(Gauge.builder(HIT_RATE, pool, p -> c.of(p).hitRate())
                .description("Acquisitions served by an idle object, as a fraction of all")
                .tags(tags).register(registry));
        meters.add(Gauge.builder(WAITING, pool, p -> c.of(p).waitingNow())
                .description("Threads waiting in acquire").baseUnit("threads").tags(tags)
                .register(registry));
        meters.add(FunctionTimer.builder(WAIT, pool, p -> c.of(p).waits(),
                        p -> c.of(p).waitNanosTotal(), TimeUnit.NANOSECONDS)
                .description("Acquisitions that waited for an object, and their wait")
                .tags(tags).register(registry));
        meters.add(TimeGauge.builder(WAIT_MAX, pool, TimeUnit.NANOSECONDS,
                        p -> c.of(p).waitNanosMax())
                .description("The longest wait for an object").tags(tags).register(registry));
        meters.add(counter(registry, c, TIMEOUTS, null, "Acquisitions that timed out",
                PoolStats::timeouts));
        meters.add(counter(registry, c, CREATIONS_FAILED, null, "Factory calls that failed",
                PoolStats::creationsFailed));
        meters.add(counter(registry, c, MAINTENANCE_RUNS, null, "Maintenance runs",
                PoolStats::maintenanceRuns));
        meters.add(counter(registry, c, HELD_TOO_LONG, null, "Borrowings reported as held too long",
                PoolStats::heldTooLong));
        meters.add(acquisitions(registry, c, "private", PoolStats::privateHits));
        meters.add(acquisitions(registry, c, "home", PoolStats::homeHits));
        meters.add(acquisitions(registry, c, "stolen", PoolStats::stolenHits));
        meters.add(acquisitions(registry, c, "victim", PoolStats::victimHits));
        meters.add(acquisitions(registry, c, "factory", PoolStats::misses));
        meters.add(counter(registry, c, RELEASES, null, "Calls to release", PoolStats::released));
        meters.add(counter(registry, c, CREATED, OBJECTS, "Objects made by the factory",
                PoolStats::created));
        meters.add(counter(registry, c, DROPPED, OBJECTS, "Objects passed to the destroy hook",
                PoolStats::dropped));
        meters.add(counter(registry, c, HOOK_FAILURES, null, "Reset and destroy hooks that threw",
                PoolStats::hookFailures));
        meters.add(counter(registry, c, INVALIDATED, OBJECTS, "Objects given back with invalidate",
                PoolStats::invalidated));
        meters.add(counter(registry, c, NOT_RETAINED, OBJECTS, "Released objects the retainIf "
                + "predicate refused", PoolStats::notRetained));
        meters.add(counter(registry, c, AGING_CYCLES, null, "Aging cycles run",
                PoolStats::agingCycles));
        meters.add(counter(registry, c, TRIMS, null, "Collections after which the heap was short and "
                + "the pool gave idle objects back at once", PoolStats::trims));
        meters.add(counter(registry, c, LEAKS, null, "Objects reported as leaked", PoolStats::leaks));
    }

    /**
     * Removes every meter this binder registered from its registry. Idempotent; the binder can
     * be bound again afterwards.
     */
    @Override
    public void close() {
        List<Bound> toRemove;
        List<MeterRegistry> toRelease;
        synchronized (this) {
            toRemove = new ArrayList<>(bound);
            bound.clear();
            toRelease = new ArrayList<>(claimed);
            claimed.clear();
        }
        // Outside the lock: a registry runs its own listeners on removal.
        for (Bound b : toRemove) {
            b.registry().remove(b.meter());
        }
        release(toRelease); // after the meters: a new binder of the name may then register
    }

    // The meters capture the cache, never this binder: it holds the pool strongly.
    private Gauge gauge(MeterRegistry registry, StatsCache c, String name, String description,
            ToDoubleFunction<PoolStats> value) {
        return Gauge.builder(name, pool, p -> value.applyAsDouble(c.of(p)))
                .description(description).baseUnit(OBJECTS).tags(tags).register(registry);
    }

    private FunctionCounter acquisitions(MeterRegistry registry, StatsCache c, String source,
            ToDoubleFunction<PoolStats> value) {
        return FunctionCounter.builder(ACQUISITIONS, pool, p -> value.applyAsDouble(c.of(p)))
                .description("Successful acquisitions, by where the object came from")
                .tags(tags).tag("source", source).register(registry);
    }

    private FunctionCounter counter(MeterRegistry registry, StatsCache c, String name, String baseUnit,
            String description, ToDoubleFunction<PoolStats> value) {
        return FunctionCounter.builder(name, pool, p -> value.applyAsDouble(c.of(p)))
                .description(description).baseUnit(baseUnit).tags(tags).register(registry);
    }

    @Override
    public String toString() {
        return "PoolMetrics[" + pool.name() + "]";
    }

    private record Bound(MeterRegistry registry, Meter meter) {
    }
}
