package io.github.stripedpool.jackson;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.lang.reflect.Constructor;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Settings a recycler pool cannot take, and a forged serial form, refused as documented. */
class StripedRecyclerPoolSettingsTest {

    /** The message advises maxTotal(n), the one setting newPool refuses. */
    @Test
    void anOptionOfBoundedPoolsIsRefusedWithAdviceThatNewPoolAccepts() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> StripedRecyclerPool.newPool(b -> b.acquireTimeout(Duration.ofSeconds(1))));
        assertTrue(e.getMessage().startsWith("a Jackson recycler pool stays unbounded")
                && e.getMessage().contains("maxIdle(n)"), e.getMessage());
    }

    /** newPool @throws IllegalArgumentException if settings made the pool bounded. */
    @Test
    void boundedSettingsAreRefusedWithTheDocumentedException() {
        assertThrows(IllegalArgumentException.class,
                () -> StripedRecyclerPool.newPool(b -> b.maxTotal(2).minIdle(3)),
                "bounded settings: the documented IllegalArgumentException, not build()'s IllegalStateException");
    }

    /** A forged serial form is refused as InvalidObjectException, as the outer class's is. */
    @Test
    void aForgedSerialFormIsRefusedAsInvalid() throws Exception {
        Class<?> newPool = Class.forName(StripedRecyclerPool.class.getName() + "$NewPool");
        Constructor<?> make = newPool.getDeclaredConstructor(String.class);
        make.setAccessible(true);
        Object forged = make.newInstance((Object) null);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(forged);
        }
        assertThrows(InvalidObjectException.class, () -> {
            try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
                in.readObject();
            }
        });
    }
}
