package io.github.stripedpool.jackson;

// jackson:begin
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.github.stripedpool.jackson.StripedRecyclerPool;

class JacksonExample {
    record Greeting(String to, String text) { }

    static final StripedRecyclerPool RECYCLERS = StripedRecyclerPool.newPool();
    static final ObjectMapper MAPPER = JsonMapper.builder(
            JsonFactory.builder().recyclerPool(RECYCLERS).build()).build();

    public static void main(String[] args) throws Exception {
        byte[] json = MAPPER.writeValueAsBytes(new Greeting("world", "hello"));
        Greeting back = MAPPER.readValue(json, Greeting.class);
        System.out.println(back.text() + ", " + back.to());   // hello, world
        System.out.println(RECYCLERS.stats());                // 1 idle, hit rate 50.00%, created 1
    }
}
// jackson:end
