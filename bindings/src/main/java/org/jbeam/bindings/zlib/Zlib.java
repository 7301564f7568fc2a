package org.jbeam.bindings.zlib;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;

/**
 * jextract-style FFM bindings to the system zlib ({@code libz.so.1}, zlib.h of zlib 1.2.13 on
 * Linux x86-64), the library erts links for OTP's zlib module. Only what the zlib NIFs need:
 * the streaming deflate/inflate calls on a caller-allocated {@code z_stream}.
 */
public final class Zlib {
    private Zlib() {}

    /** {@code sizeof(z_stream)} and the offsets of the fields the NIFs touch. */
    public static final long Z_STREAM_SIZE = 112, NEXT_IN = 0, AVAIL_IN = 8, NEXT_OUT = 24, AVAIL_OUT = 32,
            DATA_TYPE = 88, ADLER = 96;

    public static final int Z_OK = 0, Z_STREAM_END = 1, Z_NEED_DICT = 2, Z_ERRNO = -1, Z_STREAM_ERROR = -2,
            Z_DATA_ERROR = -3, Z_MEM_ERROR = -4, Z_BUF_ERROR = -5, Z_VERSION_ERROR = -6;
    public static final int Z_NO_FLUSH = 0, Z_BINARY = 0;

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBZ = SymbolLookup.libraryLookup("libz.so.1", Arena.global());

    private static MethodHandle h(String name, FunctionDescriptor fd) {
        return LINKER.downcallHandle(LIBZ.find(name).orElseThrow(() -> new UnsatisfiedLinkError("missing libz symbol " + name)), fd);
    }

    // Each handle in a holder class of its own: created on first use (see Libc), still a JIT constant.
    private static final class VERSION { static final MemorySegment S = ((MemorySegment) call(h("zlibVersion", FunctionDescriptor.of(ADDRESS)))).reinterpret(64); }
    private static final class DEFLATE_INIT2 { static final MethodHandle H = h("deflateInit2_",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class INFLATE_INIT2 { static final MethodHandle H = h("inflateInit2_",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class DEFLATE { static final MethodHandle H = h("deflate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class INFLATE { static final MethodHandle H = h("inflate", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT)); }
    private static final class DEFLATE_END { static final MethodHandle H = h("deflateEnd", FunctionDescriptor.of(JAVA_INT, ADDRESS)); }
    private static final class INFLATE_END { static final MethodHandle H = h("inflateEnd", FunctionDescriptor.of(JAVA_INT, ADDRESS)); }
    private static final class DEFLATE_RESET { static final MethodHandle H = h("deflateReset", FunctionDescriptor.of(JAVA_INT, ADDRESS)); }
    private static final class INFLATE_RESET { static final MethodHandle H = h("inflateReset", FunctionDescriptor.of(JAVA_INT, ADDRESS)); }
    private static final class DEFLATE_PARAMS { static final MethodHandle H = h("deflateParams", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT)); }
    private static final class DEFLATE_SET_DICT { static final MethodHandle H = h("deflateSetDictionary", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)); }
    private static final class INFLATE_SET_DICT { static final MethodHandle H = h("inflateSetDictionary", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT)); }
    private static final class INFLATE_GET_DICT { static final MethodHandle H = h("inflateGetDictionary", FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS)); }
    private static final class ADLER32 { static final MethodHandle H = h("adler32", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, ADDRESS, JAVA_INT)); }

    private static Object call(MethodHandle mh) {
        try { return mh.invoke(); } catch (Throwable t) { throw rethrow(t); }
    }
    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    /** {@code deflateInit2(strm, level, method, windowBits, memLevel, strategy)} (the macro's call). */
    public static int deflateInit2(MemorySegment strm, int level, int method, int windowBits, int memLevel, int strategy) {
        try { return (int) DEFLATE_INIT2.H.invokeExact(strm, level, method, windowBits, memLevel, strategy, VERSION.S, (int) Z_STREAM_SIZE); }
        catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code inflateInit2(strm, windowBits)}. */
    public static int inflateInit2(MemorySegment strm, int windowBits) {
        try { return (int) INFLATE_INIT2.H.invokeExact(strm, windowBits, VERSION.S, (int) Z_STREAM_SIZE); }
        catch (Throwable t) { throw rethrow(t); }
    }
    public static int deflate(MemorySegment strm, int flush) {
        try { return (int) DEFLATE.H.invokeExact(strm, flush); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int inflate(MemorySegment strm, int flush) {
        try { return (int) INFLATE.H.invokeExact(strm, flush); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int deflateEnd(MemorySegment strm) {
        try { return (int) DEFLATE_END.H.invokeExact(strm); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int inflateEnd(MemorySegment strm) {
        try { return (int) INFLATE_END.H.invokeExact(strm); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int deflateReset(MemorySegment strm) {
        try { return (int) DEFLATE_RESET.H.invokeExact(strm); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int inflateReset(MemorySegment strm) {
        try { return (int) INFLATE_RESET.H.invokeExact(strm); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int deflateParams(MemorySegment strm, int level, int strategy) {
        try { return (int) DEFLATE_PARAMS.H.invokeExact(strm, level, strategy); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int deflateSetDictionary(MemorySegment strm, MemorySegment dict, int len) {
        try { return (int) DEFLATE_SET_DICT.H.invokeExact(strm, dict, len); } catch (Throwable t) { throw rethrow(t); }
    }
    public static int inflateSetDictionary(MemorySegment strm, MemorySegment dict, int len) {
        try { return (int) INFLATE_SET_DICT.H.invokeExact(strm, dict, len); } catch (Throwable t) { throw rethrow(t); }
    }
    /** {@code inflateGetDictionary(strm, dict, &len)}; {@code lenOut} is a 4-byte segment. */
    public static int inflateGetDictionary(MemorySegment strm, MemorySegment dict, MemorySegment lenOut) {
        try { return (int) INFLATE_GET_DICT.H.invokeExact(strm, dict, lenOut); } catch (Throwable t) { throw rethrow(t); }
    }
    public static long adler32(long adler, MemorySegment buf, int len) {
        try { return (long) ADLER32.H.invokeExact(adler, buf, len); } catch (Throwable t) { throw rethrow(t); }
    }
}
