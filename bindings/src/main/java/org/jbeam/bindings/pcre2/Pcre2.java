package org.jbeam.bindings.pcre2;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * jextract-style Foreign Function &amp; Memory bindings to the system's 8-bit PCRE2 library
 * ({@code libpcre2-8.so.0}), mirroring {@code pcre2.h} of PCRE2 10.42 (2022-12-11) with
 * {@code PCRE2_CODE_UNIT_WIDTH=8}. Only the functions and constants the {@code re} BIFs need.
 * Pointers are {@link MemorySegment}s ({@link MemorySegment#NULL} for C {@code NULL});
 * {@code PCRE2_SIZE} is {@code size_t} (64-bit on the supported platforms).
 */
public final class Pcre2 {
    private Pcre2() {}

    // ---- pcre2.h constants (10.42) ----
    public static final int MAJOR = 10, MINOR = 42;

    /* Compile options (also ANCHORED / NO_UTF_CHECK at match time). */
    public static final int ANCHORED = 0x80000000, NO_UTF_CHECK = 0x40000000, ENDANCHORED = 0x20000000;
    public static final int ALLOW_EMPTY_CLASS = 0x1, ALT_BSUX = 0x2, AUTO_CALLOUT = 0x4, CASELESS = 0x8,
            DOLLAR_ENDONLY = 0x10, DOTALL = 0x20, DUPNAMES = 0x40, EXTENDED = 0x80, FIRSTLINE = 0x100,
            MATCH_UNSET_BACKREF = 0x200, MULTILINE = 0x400, NEVER_UCP = 0x800, NEVER_UTF = 0x1000,
            NO_AUTO_CAPTURE = 0x2000, NO_AUTO_POSSESS = 0x4000, NO_DOTSTAR_ANCHOR = 0x8000,
            NO_START_OPTIMIZE = 0x10000, UCP = 0x20000, UNGREEDY = 0x40000, UTF = 0x80000;
    /* Extra compile options (pcre2_set_compile_extra_options). */
    public static final int EXTRA_ALLOW_SURROGATE_ESCAPES = 0x1, EXTRA_BAD_ESCAPE_IS_LITERAL = 0x2,
            EXTRA_ALLOW_LOOKAROUND_BSK = 0x40;
    /* Match options. */
    public static final int NOTBOL = 0x1, NOTEOL = 0x2, NOTEMPTY = 0x4, NOTEMPTY_ATSTART = 0x8;
    /* Newline and \R conventions. */
    public static final int NEWLINE_CR = 1, NEWLINE_LF = 2, NEWLINE_CRLF = 3, NEWLINE_ANY = 4,
            NEWLINE_ANYCRLF = 5, NEWLINE_NUL = 6;
    public static final int BSR_UNICODE = 1, BSR_ANYCRLF = 2;
    /* Match-time error codes. */
    public static final int ERROR_NOMATCH = -1, ERROR_PARTIAL = -2;
    public static final int ERROR_UTF8_ERR1 = -3, ERROR_UTF8_ERR21 = -23;
    public static final int ERROR_BADMAGIC = -31, ERROR_BADMODE = -32, ERROR_BADOFFSET = -33,
            ERROR_BADOPTION = -34, ERROR_BADUTFOFFSET = -36, ERROR_MATCHLIMIT = -47, ERROR_NOMEMORY = -48,
            ERROR_NOSUBSTRING = -49, ERROR_RECURSELOOP = -52, ERROR_DEPTHLIMIT = -53, ERROR_HEAPLIMIT = -63;
    /* pcre2_pattern_info requests. */
    public static final int INFO_ALLOPTIONS = 0, INFO_ARGOPTIONS = 1, INFO_BSR = 3, INFO_CAPTURECOUNT = 4,
            INFO_NAMECOUNT = 17, INFO_NAMEENTRYSIZE = 18, INFO_NAMETABLE = 19, INFO_NEWLINE = 20, INFO_SIZE = 22;
    /* pcre2_config requests. */
    public static final int CONFIG_BSR = 0, CONFIG_NEWLINE = 9, CONFIG_UNICODE = 10, CONFIG_VERSION = 11;
    /* Character tables layout (pcre2_internal.h): lcc, fcc, class bitmaps, ctypes. */
    public static final int TABLES_LENGTH = 1088, LCC_OFFSET = 0, FCC_OFFSET = 256, CBITS_OFFSET = 512, CTYPES_OFFSET = 832;
    public static final int CBIT_SPACE = 0, CBIT_XDIGIT = 32, CBIT_DIGIT = 64, CBIT_UPPER = 96, CBIT_LOWER = 128,
            CBIT_WORD = 160, CBIT_GRAPH = 192, CBIT_PRINT = 224, CBIT_PUNCT = 256, CBIT_CNTRL = 288, CBIT_LENGTH = 320;
    public static final int CTYPE_SPACE = 0x01, CTYPE_LETTER = 0x02, CTYPE_LCLETTER = 0x04, CTYPE_DIGIT = 0x08,
            CTYPE_WORD = 0x10;
    /** {@code PCRE2_UNSET} / {@code PCRE2_ZERO_TERMINATED}: {@code ~(PCRE2_SIZE)0}. */
    public static final long UNSET = -1L, ZERO_TERMINATED = -1L;

    // ---- library and downcall handles ----
    public static final String LIBRARY = "libpcre2-8.so.0";
    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LOOKUP = openLibrary();

    private static SymbolLookup openLibrary() {
        String override = System.getProperty("jbeam.pcre2.lib");
        String[] candidates = override != null ? new String[] {override}
                : new String[] {LIBRARY, "/usr/lib/x86_64-linux-gnu/" + LIBRARY, "/usr/lib/aarch64-linux-gnu/" + LIBRARY,
                        "/usr/lib64/" + LIBRARY, "/usr/local/lib/" + LIBRARY, "libpcre2-8.so"};
        IllegalArgumentException last = null;
        for (String c : candidates) {
            try { return SymbolLookup.libraryLookup(c, Arena.global()); }
            catch (IllegalArgumentException e) { last = e; }
        }
        throw new UnsatisfiedLinkError("cannot load " + LIBRARY + ": " + (last == null ? "" : last.getMessage()));
    }

    private static MethodHandle h(String name, FunctionDescriptor fd) {
        MemorySegment sym = LOOKUP.find(name).orElseThrow(() -> new UnsatisfiedLinkError("missing symbol " + name));
        return LINKER.downcallHandle(sym, fd);
    }

    private static final MethodHandle COMPILE = h("pcre2_compile_8",
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle CODE_FREE = h("pcre2_code_free_8", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle MATCH = h("pcre2_match_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle MATCH_DATA_CREATE = h("pcre2_match_data_create_8",
            FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle MATCH_DATA_CREATE_FROM_PATTERN = h("pcre2_match_data_create_from_pattern_8",
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    private static final MethodHandle MATCH_DATA_FREE = h("pcre2_match_data_free_8", FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle GET_OVECTOR_POINTER = h("pcre2_get_ovector_pointer_8",
            FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle GET_OVECTOR_COUNT = h("pcre2_get_ovector_count_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle PATTERN_INFO = h("pcre2_pattern_info_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle GET_ERROR_MESSAGE = h("pcre2_get_error_message_8",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CONFIG = h("pcre2_config_8", FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle COMPILE_CONTEXT_CREATE = h("pcre2_compile_context_create_8",
            FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle COMPILE_CONTEXT_FREE = h("pcre2_compile_context_free_8",
            FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle SET_NEWLINE = h("pcre2_set_newline_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SET_BSR = h("pcre2_set_bsr_8", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SET_COMPILE_EXTRA_OPTIONS = h("pcre2_set_compile_extra_options_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SET_CHARACTER_TABLES = h("pcre2_set_character_tables_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle MAKETABLES = h("pcre2_maketables_8", FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle MATCH_CONTEXT_CREATE = h("pcre2_match_context_create_8",
            FunctionDescriptor.of(ADDRESS, ADDRESS));
    private static final MethodHandle MATCH_CONTEXT_FREE = h("pcre2_match_context_free_8",
            FunctionDescriptor.ofVoid(ADDRESS));
    private static final MethodHandle SET_MATCH_LIMIT = h("pcre2_set_match_limit_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SET_DEPTH_LIMIT = h("pcre2_set_depth_limit_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SUBSTRING_NUMBER_FROM_NAME = h("pcre2_substring_number_from_name_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle SUBSTRING_NAMETABLE_SCAN = h("pcre2_substring_nametable_scan_8",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS));

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) return r;
        if (t instanceof Error e) throw e;
        return new IllegalStateException(t);
    }

    // ---- wrappers: one per C function, same argument order ----

    /** {@code pcre2_code *pcre2_compile(PCRE2_SPTR, PCRE2_SIZE, uint32_t, int *, PCRE2_SIZE *, pcre2_compile_context *)} */
    public static MemorySegment pcre2_compile(MemorySegment pattern, long length, int options, MemorySegment errorcode,
                                              MemorySegment erroroffset, MemorySegment ccontext) {
        try { return (MemorySegment) COMPILE.invokeExact(pattern, length, options, errorcode, erroroffset, ccontext); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static void pcre2_code_free(MemorySegment code) {
        try { CODE_FREE.invokeExact(code); } catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code int pcre2_match(const pcre2_code *, PCRE2_SPTR, PCRE2_SIZE, PCRE2_SIZE, uint32_t, pcre2_match_data *, pcre2_match_context *)} */
    public static int pcre2_match(MemorySegment code, MemorySegment subject, long length, long startoffset, int options,
                                  MemorySegment matchData, MemorySegment mcontext) {
        try { return (int) MATCH.invokeExact(code, subject, length, startoffset, options, matchData, mcontext); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static MemorySegment pcre2_match_data_create(int ovecsize, MemorySegment gcontext) {
        try { return (MemorySegment) MATCH_DATA_CREATE.invokeExact(ovecsize, gcontext); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static MemorySegment pcre2_match_data_create_from_pattern(MemorySegment code, MemorySegment gcontext) {
        try { return (MemorySegment) MATCH_DATA_CREATE_FROM_PATTERN.invokeExact(code, gcontext); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static void pcre2_match_data_free(MemorySegment matchData) {
        try { MATCH_DATA_FREE.invokeExact(matchData); } catch (Throwable t) { throw rethrow(t); }
    }

    /** The ovector (2 × count {@code PCRE2_SIZE} values), as a zero-length segment: reinterpret before reading. */
    public static MemorySegment pcre2_get_ovector_pointer(MemorySegment matchData) {
        try { return (MemorySegment) GET_OVECTOR_POINTER.invokeExact(matchData); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_get_ovector_count(MemorySegment matchData) {
        try { return (int) GET_OVECTOR_COUNT.invokeExact(matchData); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_pattern_info(MemorySegment code, int what, MemorySegment where) {
        try { return (int) PATTERN_INFO.invokeExact(code, what, where); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_get_error_message(int errorcode, MemorySegment buffer, long bufflen) {
        try { return (int) GET_ERROR_MESSAGE.invokeExact(errorcode, buffer, bufflen); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_config(int what, MemorySegment where) {
        try { return (int) CONFIG.invokeExact(what, where); } catch (Throwable t) { throw rethrow(t); }
    }

    public static MemorySegment pcre2_compile_context_create(MemorySegment gcontext) {
        try { return (MemorySegment) COMPILE_CONTEXT_CREATE.invokeExact(gcontext); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static void pcre2_compile_context_free(MemorySegment ccontext) {
        try { COMPILE_CONTEXT_FREE.invokeExact(ccontext); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_set_newline(MemorySegment ccontext, int newline) {
        try { return (int) SET_NEWLINE.invokeExact(ccontext, newline); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_set_bsr(MemorySegment ccontext, int bsr) {
        try { return (int) SET_BSR.invokeExact(ccontext, bsr); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_set_compile_extra_options(MemorySegment ccontext, int extra) {
        try { return (int) SET_COMPILE_EXTRA_OPTIONS.invokeExact(ccontext, extra); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code int pcre2_set_character_tables(pcre2_compile_context *, const uint8_t *tables)}: tables must outlive the context. */
    public static int pcre2_set_character_tables(MemorySegment ccontext, MemorySegment tables) {
        try { return (int) SET_CHARACTER_TABLES.invokeExact(ccontext, tables); } catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code const uint8_t *pcre2_maketables(pcre2_general_context *)}: tables for the current C locale ({@link #TABLES_LENGTH} bytes). */
    public static MemorySegment pcre2_maketables(MemorySegment gcontext) {
        try { return (MemorySegment) MAKETABLES.invokeExact(gcontext); } catch (Throwable t) { throw rethrow(t); }
    }

    public static MemorySegment pcre2_match_context_create(MemorySegment gcontext) {
        try { return (MemorySegment) MATCH_CONTEXT_CREATE.invokeExact(gcontext); }
        catch (Throwable t) { throw rethrow(t); }
    }

    public static void pcre2_match_context_free(MemorySegment mcontext) {
        try { MATCH_CONTEXT_FREE.invokeExact(mcontext); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_set_match_limit(MemorySegment mcontext, int limit) {
        try { return (int) SET_MATCH_LIMIT.invokeExact(mcontext, limit); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_set_depth_limit(MemorySegment mcontext, int limit) {
        try { return (int) SET_DEPTH_LIMIT.invokeExact(mcontext, limit); } catch (Throwable t) { throw rethrow(t); }
    }

    public static int pcre2_substring_number_from_name(MemorySegment code, MemorySegment name) {
        try { return (int) SUBSTRING_NUMBER_FROM_NAME.invokeExact(code, name); }
        catch (Throwable t) { throw rethrow(t); }
    }

    /** {@code int pcre2_substring_nametable_scan(const pcre2_code *, PCRE2_SPTR, PCRE2_SPTR *first, PCRE2_SPTR *last)} */
    public static int pcre2_substring_nametable_scan(MemorySegment code, MemorySegment name, MemorySegment first,
                                                     MemorySegment last) {
        try { return (int) SUBSTRING_NAMETABLE_SCAN.invokeExact(code, name, first, last); }
        catch (Throwable t) { throw rethrow(t); }
    }

    // ---- small conveniences over the raw calls ----

    /** The library's version string, e.g. {@code "10.42 2022-12-11"}. */
    public static String version() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(64);
            int n = pcre2_config(CONFIG_VERSION, buf);
            return n <= 0 ? "" : buf.getString(0);
        }
    }

    /** The text PCRE2 gives for an error code (compile errors are ≥ 100, match errors negative). */
    public static String errorMessage(int code) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment buf = a.allocate(256);
            int n = pcre2_get_error_message(code, buf, 256);
            return n < 0 ? null : buf.getString(0);
        }
    }

    /** {@code pcre2_pattern_info} for a {@code uint32_t} item. */
    public static int infoInt(MemorySegment code, int what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_INT);
            int rc = pcre2_pattern_info(code, what, w);
            if (rc != 0) throw new IllegalStateException("pcre2_pattern_info(" + what + ") = " + rc);
            return w.get(ValueLayout.JAVA_INT, 0);
        }
    }

    /** {@code pcre2_pattern_info} for a {@code size_t} item. */
    public static long infoSize(MemorySegment code, int what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(ValueLayout.JAVA_LONG);
            int rc = pcre2_pattern_info(code, what, w);
            if (rc != 0) throw new IllegalStateException("pcre2_pattern_info(" + what + ") = " + rc);
            return w.get(ValueLayout.JAVA_LONG, 0);
        }
    }

    /** {@code pcre2_pattern_info} for a pointer item (e.g. the name table), as a zero-length segment. */
    public static MemorySegment infoPointer(MemorySegment code, int what) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment w = a.allocate(ADDRESS);
            int rc = pcre2_pattern_info(code, what, w);
            if (rc != 0) throw new IllegalStateException("pcre2_pattern_info(" + what + ") = " + rc);
            return w.get(ADDRESS, 0);
        }
    }
}
