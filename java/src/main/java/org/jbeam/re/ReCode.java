package org.jbeam.re;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Cleaner;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.bindings.pcre2.Pcre2;

/**
 * A compiled pattern: the native {@code pcre2_code} plus what the BIFs read from it (capture
 * count, newline, name table). Shared read-only between threads (PCRE2 code is thread-safe for
 * matching); freed by a {@link Cleaner} when no longer reachable.
 *
 * <p>The MP term's last element (OTP: the compiled program) is a self-describing key produced by
 * {@link #key}: magic, compile options, newline, bsr and the pattern source. {@link #forKey}
 * maps it back to the compiled code through a bounded cache, recompiling when needed, so MPs
 * stay valid however often and from however many threads they are used, and compiling the
 * same pattern twice gives equal MPs as in OTP.
 */
public final class ReCode {
    static final byte[] MAGIC = {'J', 'B', 'R', 'E', 1};
    private static final int HEADER = MAGIC.length + 6;
    private static final int CACHE_MAX = 4096;
    private static final Cleaner CLEANER = Cleaner.create();
    private static final ConcurrentHashMap<ByteBuffer, ReCode> CACHE = new ConcurrentHashMap<>();
    /** Compile contexts by [newline][bsr]; created on first use, never freed (read-only once set up). */
    private static final MemorySegment[][] CONTEXTS = new MemorySegment[7][3];

    /** A named group: its number and name bytes (UTF-8 or Latin-1, as in the pattern). */
    public record Name(int number, byte[] name) {}

    public final MemorySegment code;
    public final byte[] key;
    public final int captureCount, newline, bsr, allOptions;
    public final boolean unicode;
    /** The PCRE2 name table in table order (sorted by name; duplicates adjacent). */
    public final List<Name> names;

    private ReCode(MemorySegment code, byte[] key) {
        this.code = code;
        this.key = key;
        this.captureCount = Pcre2.infoInt(code, Pcre2.INFO_CAPTURECOUNT);
        this.newline = Pcre2.infoInt(code, Pcre2.INFO_NEWLINE);
        this.bsr = Pcre2.infoInt(code, Pcre2.INFO_BSR);
        this.allOptions = Pcre2.infoInt(code, Pcre2.INFO_ALLOPTIONS);
        this.unicode = (allOptions & Pcre2.UTF) != 0;
        this.names = readNames(code);
        long addr = code.address();
        CLEANER.register(this, () -> Pcre2.pcre2_code_free(MemorySegment.ofAddress(addr)));
    }

    /** OTP's UseCRLF element: the newline convention treats CRLF as one newline. */
    public boolean useCrlf() {
        return newline == Pcre2.NEWLINE_ANY || newline == Pcre2.NEWLINE_CRLF || newline == Pcre2.NEWLINE_ANYCRLF;
    }

    /** Whether the pattern has DUPNAMES (option or duplicated names in the table). */
    public boolean hasDupnames() {
        if ((allOptions & Pcre2.DUPNAMES) != 0) return true;
        for (int i = 1; i < names.size(); i++)
            if (java.util.Arrays.equals(names.get(i - 1).name(), names.get(i).name())) return true;
        return false;
    }

    private static List<Name> readNames(MemorySegment code) {
        int count = Pcre2.infoInt(code, Pcre2.INFO_NAMECOUNT);
        List<Name> r = new ArrayList<>(count);
        if (count == 0) return List.of();
        int esize = Pcre2.infoInt(code, Pcre2.INFO_NAMEENTRYSIZE);
        MemorySegment table = Pcre2.infoPointer(code, Pcre2.INFO_NAMETABLE).reinterpret((long) count * esize);
        for (int i = 0; i < count; i++) {
            long base = (long) i * esize;
            int num = (table.get(ValueLayout.JAVA_BYTE, base) & 0xFF) << 8 | table.get(ValueLayout.JAVA_BYTE, base + 1) & 0xFF;
            int len = 0;
            while (len < esize - 2 && table.get(ValueLayout.JAVA_BYTE, base + 2 + len) != 0) len++;
            byte[] nm = new byte[len];
            MemorySegment.copy(table, ValueLayout.JAVA_BYTE, base + 2, nm, 0, len);
            r.add(new Name(num, nm));
        }
        return List.copyOf(r);
    }

    /** The MP key for a pattern compiled with these PCRE2 options, newline and bsr (0 = default). */
    public static byte[] key(byte[] pattern, int options, int newline, int bsr) {
        byte[] k = new byte[HEADER + pattern.length];
        System.arraycopy(MAGIC, 0, k, 0, MAGIC.length);
        int p = MAGIC.length;
        k[p++] = (byte) (options >>> 24); k[p++] = (byte) (options >>> 16);
        k[p++] = (byte) (options >>> 8); k[p++] = (byte) options;
        k[p++] = (byte) newline; k[p++] = (byte) bsr;
        System.arraycopy(pattern, 0, k, HEADER, pattern.length);
        return k;
    }

    /** Empties the code cache (tests; MPs stay valid since their key recompiles). */
    static void clearCache() { CACHE.clear(); }

    /** Outcome of a compilation: the code, or a PCRE2 error code and offset. */
    public record Result(ReCode code, int errorCode, long errorOffset) {}

    /** Compiles (or finds in the cache) the pattern with PCRE2 options / newline / bsr (0 = default). */
    public static Result compile(byte[] pattern, int options, int newline, int bsr) {
        byte[] k = key(pattern, options, newline, bsr);
        ReCode c = CACHE.get(ByteBuffer.wrap(k));
        if (c != null) return new Result(c, 0, 0);
        return compileKey(k, pattern, options, newline, bsr);
    }

    /** The code for an MP key (the binary in {@code {re_pattern,_,_,_,Bin}}), or null if it is not one of ours or fails to compile. */
    public static ReCode forKey(byte[] k) {
        ReCode c = CACHE.get(ByteBuffer.wrap(k));
        if (c != null) return c;
        if (k.length < HEADER) return null;
        for (int i = 0; i < MAGIC.length; i++) if (k[i] != MAGIC[i]) return null;
        int p = MAGIC.length;
        int options = (k[p] & 0xFF) << 24 | (k[p + 1] & 0xFF) << 16 | (k[p + 2] & 0xFF) << 8 | k[p + 3] & 0xFF;
        int nl = k[p + 4], bsr = k[p + 5];
        if (nl < 0 || nl > 6 || bsr < 0 || bsr > 2) return null;
        byte[] pattern = java.util.Arrays.copyOfRange(k, HEADER, k.length);
        return compileKey(k, pattern, options, nl, bsr).code();
    }

    /** This pattern recompiled with another newline / bsr (OTP 25 allowed them at match time). */
    public ReCode withNewlineBsr(int nl, int b) {
        if ((nl == 0 || nl == newline) && (b == 0 || b == bsr)) return this;
        int p = MAGIC.length;
        int options = (key[p] & 0xFF) << 24 | (key[p + 1] & 0xFF) << 16 | (key[p + 2] & 0xFF) << 8 | key[p + 3] & 0xFF;
        byte[] pattern = java.util.Arrays.copyOfRange(key, HEADER, key.length);
        Result r = compile(pattern, options, nl != 0 ? nl : key[p + 4], b != 0 ? b : key[p + 5]);
        return r.code() != null ? r.code() : this;
    }

    private static Result compileKey(byte[] k, byte[] pattern, int options, int newline, int bsr) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment pat = a.allocate(Math.max(1, pattern.length));
            MemorySegment.copy(pattern, 0, pat, ValueLayout.JAVA_BYTE, 0, pattern.length);
            MemorySegment err = a.allocate(ValueLayout.JAVA_INT);
            MemorySegment off = a.allocate(ValueLayout.JAVA_LONG);
            MemorySegment code = Pcre2.pcre2_compile(pat, pattern.length, options | extraOptions(pattern, options), err, off,
                    context(newline, bsr));
            if (code.equals(MemorySegment.NULL))
                return new Result(null, err.get(ValueLayout.JAVA_INT, 0), off.get(ValueLayout.JAVA_LONG, 0));
            ReCode c = new ReCode(code, k);
            if (CACHE.size() >= CACHE_MAX) CACHE.clear();
            ReCode prev = CACHE.putIfAbsent(ByteBuffer.wrap(k), c);
            return new Result(prev != null ? prev : c, 0, 0);
        }
    }

    /**
     * PCRE2's start-of-match optimisation assumes {@code \w} never matches code points 128–255 in
     * UTF mode, which is false with OTP's Latin-1 tables (PCRE 8.44 matches "é" with \w under
     * unicode); such patterns are compiled without that optimisation to get OTP's result.
     */
    private static int extraOptions(byte[] p, int options) {
        boolean utf = (options & Pcre2.UTF) != 0;
        if ((options & Pcre2.UCP) != 0) return 0;
        boolean w = false;
        for (int i = 0; i + 1 < p.length; i++) {
            if (p[i] == '\\') { if (p[i + 1] == 'w') w = true; i++; }
            else if (p[i] == '(' && p[i + 1] == '*' && i + 4 < p.length && p[i + 2] == 'U' && p[i + 3] == 'T' && p[i + 4] == 'F') utf = true;
        }
        return utf && w ? Pcre2.NO_START_OPTIMIZE : 0;
    }

    private static MemorySegment context(int newline, int bsr) {
        synchronized (CONTEXTS) {
            MemorySegment ctx = CONTEXTS[newline][bsr];
            if (ctx == null) {
                ctx = Pcre2.pcre2_compile_context_create(MemorySegment.NULL);
                // OTP's PCRE build: LF newline, Unicode \R, Latin-1 tables; PCRE1 allowed \K in lookarounds.
                Pcre2.pcre2_set_newline(ctx, newline != 0 ? newline : Pcre2.NEWLINE_LF);
                Pcre2.pcre2_set_bsr(ctx, bsr != 0 ? bsr : Pcre2.BSR_UNICODE);
                Pcre2.pcre2_set_compile_extra_options(ctx, Pcre2.EXTRA_ALLOW_LOOKAROUND_BSK);
                Pcre2.pcre2_set_character_tables(ctx, ReTables.latin1()); // OTP's PCRE: ISO-8859-1 tables
                CONTEXTS[newline][bsr] = ctx;
            }
            return ctx;
        }
    }
}
