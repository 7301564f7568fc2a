package org.jbeam.file;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Result arrays for file reads that are filled completely before anyone sees them. A fresh
 * {@code byte[]} is zeroed by the JVM, and for a 64 KiB read into cold young-generation memory
 * the zeroing costs about as much as the copy that overwrites it (ADR 0012). When the JVM runs
 * with {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (bin/jbeam passes it),
 * {@code jdk.internal.misc.Unsafe.allocateUninitializedArray} skips that pass; otherwise this is
 * plain {@code new byte[n]}. Callers must overwrite every byte before publishing the array.
 */
final class HeapBytes {
    private HeapBytes() {}

    /** Below this the zeroing is noise and the plain allocation is at least as fast. */
    private static final int MIN = 4096;
    private static final MethodHandle UNINIT = find();

    private static MethodHandle find() {
        if ("false".equals(System.getProperty("jbeam.io.uninit"))) return null;
        try {
            Class<?> c = Class.forName("jdk.internal.misc.Unsafe");
            Object u = c.getMethod("getUnsafe").invoke(null);
            MethodHandle m = MethodHandles.lookup().unreflect(c.getMethod("allocateUninitializedArray", Class.class, int.class)).bindTo(u);
            return m.asType(MethodType.methodType(byte[].class, Class.class, int.class));
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            return null;   // not exported to us: zeroed arrays
        }
    }

    /** An array of exactly {@code n} bytes whose contents the caller overwrites entirely. */
    static byte[] exact(int n) {
        if (UNINIT == null || n < MIN) return new byte[n];
        try { return (byte[]) UNINIT.invokeExact(byte.class, n); } catch (Throwable t) { return new byte[n]; }
    }

    /** Whether allocations skip zeroing (for tests and the ADR's measurements). */
    static boolean uninitialized() { return UNINIT != null; }
}
