package io.github.stripedpool.jackson;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The document of the Jackson tests: an order of a dozen lines, about 2.5 KB of JSON. */
final class Documents {
    private Documents() {
    }

    /** A postal address. */
    public record Address(String street, String city, String postcode, String country) {
    }

    /** Who placed the order. */
    public record Customer(long id, String name, String email, Address shipTo, Address billTo) {
    }

    /** One line of an order. */
    public record Line(String sku, String title, int quantity, long unitPriceCents,
            Map<String, String> attributes) {
    }

    /** The whole document. */
    public record Order(long id, String placedAt, Customer customer, List<Line> lines,
            List<String> tags, String note) {
    }

    /** Order number {@code n}: its fields depend on {@code n}, so that documents differ. */
    static Order order(long n) {
        Address home = new Address(n + " Rue des Écoles", "Lyon", "6900" + (n % 10), "FR");
        Address office = new Address("Via Roma " + (n % 97), "Torino", "10121", "IT");
        Customer c = new Customer(1000 + n, "Customer \"" + n + "\"", "c" + n + "@example.org", home, office);
        List<Line> lines = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            lines.add(new Line("SKU-" + n + "-" + i, "Item " + i + " of order " + n + ", with a longer title",
                    1 + i % 4, 199 + 37L * i, Map.of("colour", i % 2 == 0 ? "blue" : "green",
                            "size", String.valueOf(36 + i), "gift", String.valueOf(i % 3 == 0))));
        }
        return new Order(n, "2026-11-25T10:15:" + (n % 60) + "Z", c, lines,
                List.of("priority", "web", "batch-" + (n % 7)), "Leave at the door\nthank you ✓");
    }

    /** A mapper whose factory takes its buffer recyclers from {@code pool}. */
    static ObjectMapper mapper(RecyclerPool<BufferRecycler> pool) {
        return JsonMapper.builder(JsonFactory.builder().recyclerPool(pool).build()).build();
    }

    /**
     * Writes order {@code n} to bytes and reads it back: two recycler acquisitions. Throws
     * {@link AssertionError} if the order read differs from the order written (not through
     * JUnit: child JVMs run this without it). Returns the size of the JSON.
     */
    static int roundTrip(ObjectMapper mapper, long n) {
        Order sent = order(n);
        try {
            byte[] json = mapper.writeValueAsBytes(sent);
            Order received = mapper.readValue(json, Order.class);
            if (!sent.equals(received)) {
                throw new AssertionError("round trip of order " + n + ": sent " + sent + ", received " + received);
            }
            return json.length;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
