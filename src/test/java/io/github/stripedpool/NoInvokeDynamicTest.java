package io.github.stripedpool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The core package has no invokedynamic and no dynamic constant in its compiled classes (see
 * {@link ClockThread}): a call site that the JVM first links while the heap is exhausted fails
 * to link, and then fails the same way at every later run, so one lambda on a background path
 * could stop a pool's aging, or every leak report, for good.
 *
 * <p>The integration packages ({@code buffer}, {@code jackson}, {@code jmx}, {@code micrometer})
 * are not checked: they make their lambdas on the caller's thread while a pool is built, and a
 * lambda once made calls its body with no further linking.
 */
class NoInvokeDynamicTest {
    private static final int CONSTANT_DYNAMIC = 17;
    private static final int CONSTANT_INVOKE_DYNAMIC = 18;

    @Test
    void noClassOfTheCorePackageLinksACallSiteAtRunTime() throws Exception {
        List<String> offenders = new ArrayList<>();
        int checked = 0;
        Path location = Path.of(Pool.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        try (FileSystem jar = Files.isDirectory(location) ? null : FileSystems.newFileSystem(location)) {
            Path pkg = (jar == null ? location : jar.getPath("/")).resolve("io/github/stripedpool");
            try (Stream<Path> files = Files.list(pkg)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (!f.getFileName().toString().endsWith(".class")) {
                        continue;
                    }
                    checked++;
                    try (InputStream in = Files.newInputStream(f)) {
                        int tag = dynamicConstant(new DataInputStream(in));
                        if (tag != 0) {
                            offenders.add(f.getFileName() + (tag == CONSTANT_INVOKE_DYNAMIC
                                    ? ": invokedynamic (a lambda, a method reference or a string concatenation)"
                                    : ": a dynamic constant"));
                        }
                    }
                }
            }
        }
        assertTrue(checked > 50, "only " + checked + " classes found under " + location);
        assertEquals(List.of(), offenders, "use a named or anonymous class instead of a lambda or "
                + "method reference; string concatenation must be compiled with -XDstringConcat=inline");
    }

    /** The tag of the first invokedynamic or dynamic constant in the class's constant pool, or 0. */
    static int dynamicConstant(DataInputStream in) throws IOException {
        if (in.readInt() != 0xCAFEBABE) {
            throw new IOException("not a class file");
        }
        in.readUnsignedShort(); // minor version
        in.readUnsignedShort(); // major version
        int count = in.readUnsignedShort();
        for (int i = 1; i < count; i++) {
            int tag = in.readUnsignedByte();
            switch (tag) {
                case 1: // Utf8
                    in.skipNBytes(in.readUnsignedShort());
                    break;
                case 7: case 8: case 16: case 19: case 20: // Class, String, MethodType, Module, Package
                    in.skipNBytes(2);
                    break;
                case 15: // MethodHandle
                    in.skipNBytes(3);
                    break;
                case 3: case 4: case 9: case 10: case 11: case 12: // Integer, Float, refs, NameAndType
                    in.skipNBytes(4);
                    break;
                case 5: case 6: // Long, Double: two entries
                    in.skipNBytes(8);
                    i++;
                    break;
                case CONSTANT_DYNAMIC:
                case CONSTANT_INVOKE_DYNAMIC:
                    return tag;
                default:
                    throw new IOException("unknown constant pool tag " + tag);
            }
        }
        return 0;
    }
}
