package org.jbeam.bindings.libc;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.VarHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The file-descriptor calls prim_file needs besides {@link Libc}'s data path: {@code lseek},
 * {@code ftruncate}, {@code fstat} (glibc 2.36, Linux x86-64 {@code struct stat}: 144 bytes,
 * {@code st_mode} at 24, {@code st_size} at 48), and {@code preadv2} with one {@code struct iovec}
 * (16 bytes: base, length) for the page-cache fast path ({@code RWF_NOWAIT}: -EAGAIN instead of
 * waiting for the disk). Same convention as Libc: result or {@code -errno}.
 */
public final class LibcFiles {
    private LibcFiles() {}

    public static final int SEEK_SET = 0, SEEK_CUR = 1, SEEK_END = 2;
    public static final int S_IFMT = 0170000, S_IFDIR = 0040000;
    public static final long STAT_SIZE = 144, ST_MODE = 24, ST_SIZE = 48;
    /** preadv2/pwritev2 flag (linux/fs.h): fail with EAGAIN rather than block on I/O. */
    public static final int RWF_NOWAIT = 0x8;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final StructLayout CAPTURE = Linker.Option.captureStateLayout();
    private static final VarHandle ERRNO = CAPTURE.varHandle(MemoryLayout.PathElement.groupElement("errno"));
    private static final ThreadLocal<MemorySegment> STATE = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(CAPTURE));
    private static final ThreadLocal<MemorySegment> IOVEC = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(16, 8));
    private static final ThreadLocal<MemorySegment> STAT = ThreadLocal.withInitial(() -> Arena.ofAuto().allocate(STAT_SIZE, 8));

    private static MethodHandle e(String name, FunctionDescriptor fd) {
        MemorySegment sym = LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("missing libc symbol " + name));
        return LINKER.downcallHandle(sym, fd, Linker.Option.captureCallState("errno"));
    }

    // Each downcall handle sits in a holder class of its own, so it is created on first use and is
    // still a constant to the JIT. Creating one costs milliseconds at boot (the linker spins a stub
    // class and lambda forms), and creating all of them eagerly was a fifth of bin/jbeam's start-up.
    private static final class LSEEK { static final MethodHandle H = e("lseek", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_INT)); }
    private static final class FTRUNCATE { static final MethodHandle H = e("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG)); }
    private static final class PREADV2 { static final MethodHandle H = e("preadv2", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG, JAVA_INT)); }
    /** write/pwrite straight from a Java array: critical downcalls (no safepoint, heap segments allowed). */
    private static final class WRITE_HEAP { static final MethodHandle H = h("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG)); }
    private static final class PWRITE_HEAP { static final MethodHandle H = h("pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG)); }
    private static final class FSTAT { static final MethodHandle H = e("fstat", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS)); }

    private static MethodHandle h(String name, FunctionDescriptor fd) {
        MemorySegment sym = LINKER.defaultLookup().find(name).orElseThrow(() -> new UnsatisfiedLinkError("missing libc symbol " + name));
        return LINKER.downcallHandle(sym, fd, Linker.Option.captureCallState("errno"), Linker.Option.critical(true));
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error err) throw err;
        return new IllegalStateException(t);
    }
    private static long ret(MemorySegment st, long r) { return r >= 0 ? r : -(int) ERRNO.get(st, 0L); }

    public static long lseek(int fd, long offset, int whence) {
        MemorySegment st = STATE.get();
        try { return ret(st, (long) LSEEK.H.invokeExact(st, fd, offset, whence)); } catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * {@code preadv2(fd, {buf, count}, 1, offset, flags)}; {@code offset} -1 reads at (and advances)
     * the file position like {@code read}. {@code buf} must be native memory.
     */
    public static long preadv2(int fd, MemorySegment buf, long count, long offset, int flags) {
        MemorySegment st = STATE.get(), iov = IOVEC.get();
        iov.set(ADDRESS, 0, buf);
        iov.set(JAVA_LONG, 8, count);
        try { return ret(st, (long) PREADV2.H.invokeExact(st, fd, iov, 1, offset, flags)); } catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * {@code write(fd, a[off..off+n))} ({@code offset} -1) or {@code pwrite} at {@code offset}, from
     * the Java array itself: the call is critical (the GC waits for it), so it must not block
     * for long: callers use it only where the kernel does not wait on devices (ADR 0012).
     */
    public static long writeHeap(int fd, byte[] a, int off, int n, long offset) {
        MemorySegment st = STATE.get(), buf = MemorySegment.ofArray(a).asSlice(off, n);
        try {
            long r = offset < 0 ? (long) WRITE_HEAP.H.invokeExact(st, fd, buf, (long) n)
                    : (long) PWRITE_HEAP.H.invokeExact(st, fd, buf, (long) n, offset);
            return ret(st, r);
        } catch (Throwable t) { throw rethrow(t); }
    }

    /**
     * libjbeam_native's {@code jbeam_preadv2} (native/jbeam_native.c) as a critical downcall, so
     * the kernel copies straight into a Java array; null when the library is not there (then
     * {@link #preadv2} into native memory plus a copy). Found like libjbeam_nif: in
     * {@code -Djbeam.nativeDir}, else {@code $JBEAM_HOME/target/native}.
     */
    private static final class PREADV2_HEAP { static final MethodHandle H = heapPreadv2(); }

    private static MethodHandle heapPreadv2() {
        if ("false".equals(System.getProperty("jbeam.io.heapread"))) return null;
        String dir = System.getProperty("jbeam.nativeDir");
        if (dir == null) dir = (System.getenv("JBEAM_HOME") != null ? System.getenv("JBEAM_HOME") : ".") + "/target/native";
        java.nio.file.Path p = java.nio.file.Path.of(dir, "native", "libjbeam_native.so");   // CMake's layout
        if (!java.nio.file.Files.exists(p)) p = java.nio.file.Path.of(dir, "libjbeam_native.so");
        if (!java.nio.file.Files.exists(p)) return null;
        try {
            MemorySegment sym = java.lang.foreign.SymbolLookup.libraryLookup(p, Arena.global()).find("jbeam_preadv2").orElse(null);
            return sym == null ? null : LINKER.downcallHandle(sym,
                    FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT), Linker.Option.critical(true));
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }

    /** Whether {@link #preadv2Heap} is available. */
    public static boolean hasHeapRead() { return PREADV2_HEAP.H != null; }

    /**
     * {@code preadv2} into {@code a[off..off+n)} itself. Only with {@code RWF_NOWAIT}: the call
     * is critical (the GC waits for it), which is harmless only because it cannot block.
     */
    public static long preadv2Heap(int fd, byte[] a, int off, int n, long offset, int flags) {
        try {
            return (long) PREADV2_HEAP.H.invokeExact(fd, MemorySegment.ofArray(a).asSlice(off, n), (long) n, offset, flags);
        } catch (Throwable t) { throw rethrow(t); }
    }

    public static int ftruncate(int fd, long length) {
        MemorySegment st = STATE.get();
        try { return (int) ret(st, (int) FTRUNCATE.H.invokeExact(st, fd, length)); } catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code fstat(fd)}: {st_mode, st_size} in a two-element array, or null with {@code err[0] = errno}. */
    public static long[] fstat(int fd, int[] err) {
        MemorySegment st = STATE.get(), buf = STAT.get();
        int r;
        try { r = (int) FSTAT.H.invokeExact(st, fd, buf); } catch (Throwable t) { throw rethrow(t); }
        if (r < 0) { err[0] = (int) ERRNO.get(st, 0L); return null; }
        return new long[] {buf.get(ValueLayout.JAVA_INT, ST_MODE), buf.get(ValueLayout.JAVA_LONG, ST_SIZE)};
    }
}
