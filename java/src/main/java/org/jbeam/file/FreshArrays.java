package org.jbeam.file;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Result arrays for reads that the kernel is about to overwrite, allocated without zeroing
 * (ADR 0044). A fresh 64 KiB array in a 512 MB eden is cold memory: zeroing it cost as much CPU
 * as the page-cache copy that then overwrites it (perf: 14% against 16% of the read loop's
 * samples). {@code jdk.internal.misc.Unsafe.allocateUninitializedArray} (a C2 intrinsic) skips
 * the zeroing; it needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED}
 * (scripts/jvm-options.sh, surefire's argLine). Without that, or with
 * {@code -Djbeam.io.uninit=false}, arrays are ordinary zeroed ones.
 *
 * <p>Callers must overwrite every byte a term can reach before the array escapes: {@link
 * #clearTail} zeroes what a short read left, so an array never shows stale heap contents (a
 * binary view's backing array is reachable in full through sub-binary arithmetic bugs and
 * {@code binary:referenced_byte_size}, so the tail is cleared rather than trusted to stay hidden).
 */
final class FreshArrays {
    private FreshArrays() {}

    private static final MethodHandle UNINIT = find();

    private static MethodHandle find() {
        if ("false".equals(System.getProperty("jbeam.io.uninit"))) return null;
        try {
            Class<?> c = Class.forName("jdk.internal.misc.Unsafe");
            Object u = c.getMethod("getUnsafe").invoke(null);
            return MethodHandles.lookup().findVirtual(c, "allocateUninitializedArray",
                    MethodType.methodType(Object.class, Class.class, int.class)).bindTo(u);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return null;    // jdk.internal.misc not exported to us: zeroed arrays
        }
    }

    /** Whether {@link #bytes} skips zeroing. */
    static boolean uninitialised() { return UNINIT != null; }

    /** A byte array of length {@code n} whose contents are undefined unless {@link #uninitialised()} is false. */
    static byte[] bytes(int n) {
        if (UNINIT == null) return new byte[n];
        try { return (byte[]) (Object) UNINIT.invokeExact(byte.class, n); }
        catch (Throwable e) { throw new IllegalStateException(e); }
    }

    /** Zeroes {@code a[from..]} when it came from {@link #bytes} uninitialised. */
    static void clearTail(byte[] a, int from) {
        if (UNINIT != null && from < a.length) java.util.Arrays.fill(a, from, a.length, (byte) 0);
    }
}
