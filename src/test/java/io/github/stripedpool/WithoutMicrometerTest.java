package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Micrometer is an optional dependency: only {@code io.github.stripedpool.micrometer} may use it,
 * and the library must load and work without it.
 */
class WithoutMicrometerTest {

    @Test
    void noClassOutsideTheMicrometerPackageReferencesMicrometer() throws Exception {
        Path classes = ChildJvm.locationOf(Pool.class);
        Path binder = classes.resolve("io/github/stripedpool/micrometer");
        List<Path> offenders;
        int checked;
        try (Stream<Path> files = Files.walk(classes)) {
            List<Path> all = files.filter(f -> f.toString().endsWith(".class"))
                    .filter(f -> !f.startsWith(binder)).collect(Collectors.toList());
            checked = all.size();
            offenders = all.stream().filter(WithoutMicrometerTest::mentionsMicrometer)
                    .collect(Collectors.toList());
        }
        assertTrue(checked > 20, "found only " + checked + " classes under " + classes);
        assertEquals(List.of(), offenders, "these classes refer to Micrometer, which is optional: "
                + "they would fail to load in an application without it");
        assertTrue(mentionsMicrometer(binder.resolve("PoolMetrics.class")), "the check can see a reference");
    }

    /** Whether a class file's constant pool names a Micrometer class (internal form io/micrometer/...). */
    private static boolean mentionsMicrometer(Path classFile) {
        try {
            return new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1)
                    .contains("io/micrometer/");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void everyKindOfPoolAndItsMBeanWorkInAJvmWithoutMicrometer() throws Exception {
        String out = ChildJvm.run(WithoutMicrometerApp.class, 60);
        assertTrue(out.contains("WITHOUT-MICROMETER-OK"), out);
    }
}
