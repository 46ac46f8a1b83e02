package io.github.stripedpool.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.JsonRecyclerPools;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.stripedpool.jackson.StripedRecyclerPool;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The work of {@link JacksonBenchmark} and {@link JacksonBurstMemory}: one request is an
 * ObjectMapper writing a page of a feed (about 3 KB of JSON) to bytes and reading it back, with
 * the buffer recyclers of one of the pools below.
 */
final class JacksonWorkload {
    /**
     * The recycler pools compared: Jackson's own ({@link JsonRecyclerPools}), this library's,
     * and {@code nonRecycling}, a new recycler per parser or generator (plain allocation, the
     * floor of retained memory).
     */
    static final String[] POOLS = {"threadLocal", "lockFree", "concurrentDeque", "bounded", "striped", "nonRecycling"};

    /** Capacity of Jackson's bounded pool: the one its shared bounded pool has. */
    static final int BOUNDED_CAPACITY = 100;

    private JacksonWorkload() {
    }

    /** A user of the feed. */
    public record User(long id, String handle, String displayName, boolean verified) {
    }

    /** An image or video of a post. */
    public record Media(String url, String type, int width, int height, String alt) {
    }

    /** One post of the page. */
    public record Post(long id, User author, String text, String createdAt, int likes, int reposts,
            List<String> hashtags, List<Media> media) {
    }

    /** The document: a page of posts and the cursor of the next one. */
    public record Page(String cursor, List<Post> posts, Map<String, Long> counts) {
    }

    /**
     * A new pool of the kind {@code name}, one of {@link #POOLS}, or {@code floor}
     * ({@link CarrierRecyclerFloor}: a measure, not a pool, so not in {@link #POOLS}, whose
     * retained memory {@link JacksonBurstMemory} reports). Jackson deprecated its lock-free
     * pool (2.18) but still ships it, and applications that chose it for virtual threads use it.
     */
    @SuppressWarnings("deprecation")
    static RecyclerPool<BufferRecycler> pool(String name) {
        switch (name) {
            case "threadLocal": return JsonRecyclerPools.threadLocalPool();
            case "lockFree": return JsonRecyclerPools.newLockFreePool();
            case "concurrentDeque": return JsonRecyclerPools.newConcurrentDequePool();
            case "bounded": return JsonRecyclerPools.newBoundedPool(BOUNDED_CAPACITY);
            case "striped": return StripedRecyclerPool.newPool();
            case "nonRecycling": return JsonRecyclerPools.nonRecyclingPool();
            case "floor": return new CarrierRecyclerFloor();
            default: throw new IllegalArgumentException("unknown pool '" + name + "'; one of "
                    + String.join(", ", POOLS) + ", or floor (JacksonBenchmark only)");
        }
    }

    /** A mapper whose factory takes its recyclers from {@code pool}. */
    static ObjectMapper mapper(RecyclerPool<BufferRecycler> pool) {
        return JsonMapper.builder(JsonFactory.builder().recyclerPool(pool).build()).build();
    }

    /** The page the benchmarks write and read. */
    static Page page() {
        List<Post> posts = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            User author = new User(40_000 + i, "user_" + i, "Display Name " + i, i % 3 == 0);
            List<Media> media = i % 2 == 0
                    ? List.of(new Media("https://cdn.example.net/m/" + (9000 + i) + ".jpg", "image", 1280, 720,
                            "a photo, number " + i))
                    : List.of();
            posts.add(new Post(7_000_000L + i, author,
                    "Post number " + i + ": some text of a typical length, with \"quotes\" and an émoji 🙂",
                    "2026-11-25T09:" + (10 + i) + ":00Z", 17 * i, 3 * i,
                    List.of("jvm", "json", "tag" + i), media));
        }
        return new Page("c2VlIHlvdSBuZXh0IHBhZ2U=", posts, Map.of("posts", 8L, "unread", 42L, "mentions", 3L));
    }

    /** One request: writes {@code page} with {@code mapper} and reads it back; the bytes written. */
    static int request(ObjectMapper mapper, Page page) {
        try {
            byte[] json = mapper.writeValueAsBytes(page);
            Page read = mapper.readValue(json, Page.class);
            return json.length + read.posts().size();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
