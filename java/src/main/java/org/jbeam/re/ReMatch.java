package org.jbeam.re;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.ref.Reference;
import java.util.Arrays;

import org.jbeam.bindings.pcre2.Pcre2;
import org.jbeam.term.*;

/**
 * One subject bound to one compiled pattern for matching: the native subject copy, match data and
 * (when limits are given) match context, reusable for the repeated matches of a global run. Also
 * the capture specification ({@code build_capture}) and result building ({@code build_exec_return})
 * of OTP's erl_bif_re.c.
 */
public final class ReMatch implements AutoCloseable {
    public static final int RET_INDEX = 0, RET_STRING = 1, RET_BIN = 2, RET_NONE = 3;
    static final EAtom MATCH = EAtom.of("match"), NOMATCH = EAtom.of("nomatch"),
            MATCH_LIMIT = EAtom.of("match_limit"), MATCH_LIMIT_RECURSION = EAtom.of("match_limit_recursion");

    /**
     * A capture specification: {@code numSpec} 0 = all, -1 = all but first, &gt;0 = the listed
     * groups in {@code v}; an entry {@code -n} (n &gt; 1) in {@code v} announces n groups sharing a name.
     */
    public record Capture(int type, int numSpec, int[] v) {
        public static final Capture DEFAULT = new Capture(RET_INDEX, 0, new int[0]);
    }

    private final ReCode code;
    private final Arena arena;
    private final MemorySegment subject, matchData, matchCtx;
    private MemorySegment ovector;
    final byte[] bytes;

    public ReMatch(ReCode code, byte[] subjectBytes, ReOptions po) {
        this.code = code;
        this.bytes = subjectBytes;
        this.arena = Arena.ofConfined();
        this.subject = arena.allocate(Math.max(1, subjectBytes.length));
        MemorySegment.copy(subjectBytes, 0, subject, ValueLayout.JAVA_BYTE, 0, subjectBytes.length);
        this.matchData = Pcre2.pcre2_match_data_create_from_pattern(code.code, MemorySegment.NULL);
        if (po != null && po.has(ReOptions.MATCH_LIMIT | ReOptions.MATCH_LIMIT_RECURSION)) {
            matchCtx = Pcre2.pcre2_match_context_create(MemorySegment.NULL);
            if (po.has(ReOptions.MATCH_LIMIT)) Pcre2.pcre2_set_match_limit(matchCtx, po.matchLimit);
            if (po.has(ReOptions.MATCH_LIMIT_RECURSION)) Pcre2.pcre2_set_depth_limit(matchCtx, po.matchLimitRecursion);
        } else matchCtx = MemorySegment.NULL;
    }

    /** Runs pcre2_match; returns its rc (&gt;0 matched, number of pairs set). */
    public int match(int offset, int options) {
        int rc = Pcre2.pcre2_match(code.code, subject, bytes.length, offset, options, matchData, matchCtx);
        Reference.reachabilityFence(code);
        if (ovector == null) {
            int n = Pcre2.pcre2_get_ovector_count(matchData);
            ovector = Pcre2.pcre2_get_ovector_pointer(matchData).reinterpret(16L * n);
        }
        return rc;
    }

    private long ov(int i) { return ovector.getAtIndex(ValueLayout.JAVA_LONG, i); }

    /** Start of group {@code g} or -1 when unset / beyond the groups set (rc). */
    public int start(int g, int rc) {
        if (g < 0 || g >= rc) return -1;
        long s = ov(2 * g);
        return s == Pcre2.UNSET ? -1 : (int) s;
    }

    public int length(int g, int rc) {
        int s = start(g, rc);
        return s < 0 ? 0 : (int) (ov(2 * g + 1) - s);
    }

    @Override public void close() {
        Pcre2.pcre2_match_data_free(matchData);
        if (!matchCtx.equals(MemorySegment.NULL)) Pcre2.pcre2_match_context_free(matchCtx);
        arena.close();
        Reference.reachabilityFence(code);
    }

    /** True for pcre2_match results that OTP turns into badarg (bad UTF-8, bad offsets). */
    public static boolean isBadarg(int rc) {
        return (rc <= Pcre2.ERROR_UTF8_ERR1 && rc >= Pcre2.ERROR_UTF8_ERR21) || rc == Pcre2.ERROR_BADUTFOFFSET
                || rc == Pcre2.ERROR_BADOFFSET || rc == Pcre2.ERROR_BADMAGIC || rc == Pcre2.ERROR_BADMODE
                || (rc < 0 && rc != Pcre2.ERROR_NOMATCH && rc != Pcre2.ERROR_MATCHLIMIT && rc != Pcre2.ERROR_DEPTHLIMIT
                    && rc != Pcre2.ERROR_HEAPLIMIT && rc != Pcre2.ERROR_RECURSELOOP);
    }

    // ---- build_capture ----

    /** The capture spec for {@code {capture, Values, Type}}, or null when invalid (badarg). */
    public static Capture capture(Term values, Term type, ReCode code) {
        int t;
        if (type == ReOptions.INDEX) t = RET_INDEX;
        else if (type == ReOptions.LIST) t = RET_STRING;
        else if (type == ReOptions.BINARY) t = RET_BIN;
        else return null;
        if (values == ReOptions.ALL) return new Capture(t, 0, new int[0]);
        if (values == ReOptions.NONE || values == ENil.NIL) return new Capture(RET_NONE, 0, new int[0]);
        if (values == ReOptions.ALL_BUT_FIRST) return new Capture(t, -1, new int[0]);
        if (values == ReOptions.FIRST) return new Capture(t, 1, new int[] {0});
        IntList v = new IntList();
        boolean dup = code.hasDupnames();
        if (values == ReOptions.ALL_NAMES) {
            if (code.names.isEmpty()) return new Capture(RET_NONE, 0, new int[0]);
            byte[] last = null;
            for (ReCode.Name n : code.names) {
                if (last == null || !dup || !Arrays.equals(last, n.name())) {
                    if (dup) oneCapture(code, v, n.name());
                    else v.add(n.number());
                }
                last = n.name();
            }
            return new Capture(t, v.size, v.toArray());
        }
        if (!(values instanceof ECons)) return null;
        Term l = values;
        for (; l instanceof ECons c; l = c.tail) {
            Term val = c.head;
            int x = ReOptions.termToInt(val);
            if (x >= 0) { v.add(x); continue; }
            byte[] name;
            if (val instanceof EAtom a) name = a.utf8();
            else if (val instanceof EBitString || val instanceof EList) {
                name = ReIo.iolist(val);
                if (name == null) return null;
            } else return null;
            oneCapture(code, v, name);
        }
        if (l != ENil.NIL) return null;
        return new Capture(t, v.size, v.toArray());
    }

    /** build_one_capture: a name's group number, -1 if unknown, or -n followed by n numbers for duplicates. */
    private static void oneCapture(ReCode code, IntList v, byte[] name) {
        int len = 0;
        while (len < name.length && name[len] != 0) len++; // C string semantics
        byte[] nm = len == name.length ? name : Arrays.copyOf(name, len);
        int first = -1, count = 0;
        for (int i = 0; i < code.names.size(); i++) {
            if (Arrays.equals(code.names.get(i).name(), nm)) { if (first < 0) first = i; count++; }
        }
        if (count == 0) v.add(-1);
        else if (count == 1) v.add(code.names.get(first).number());
        else {
            v.add(-count);
            for (int i = 0; i < count; i++) v.add(code.names.get(first + i).number());
        }
    }

    // ---- build_exec_return ----

    /**
     * The result term for pcre2_match's {@code rc}: nomatch / {error, Limit} (with report_errors) /
     * match / {match, Captured}. {@code orig} is the subject binary to take sub-binaries from, or null.
     */
    public Term result(int rc, Capture ri, boolean reportErrors, EBitString orig) {
        if (rc <= 0) {
            if (reportErrors && rc == Pcre2.ERROR_MATCHLIMIT) return ETuple.of(EAtom.ERROR, MATCH_LIMIT);
            if (reportErrors && rc == Pcre2.ERROR_DEPTHLIMIT) return ETuple.of(EAtom.ERROR, MATCH_LIMIT_RECURSION);
            return NOMATCH;
        }
        if (ri == null) ri = Capture.DEFAULT;
        if (ri.type == RET_NONE) return MATCH;
        Term[] out;
        if (ri.numSpec <= 0) {
            int from = -ri.numSpec;
            out = new Term[Math.max(0, rc - from)];
            for (int i = from; i < rc; i++) out[i - from] = item(ri.type, start(i, rc), length(i, rc), orig);
        } else {
            Term[] tmp = new Term[ri.numSpec];
            int n = 0;
            int[] v = ri.v;
            for (int i = 0; i < ri.numSpec; i++) {
                int x = v[i];
                if (x < -1) {
                    int end = i - x + 1;
                    for (int j = i + 1; j < ri.numSpec && j < end; j++) {
                        if (start(v[j], rc) >= 0) { x = v[j]; break; }
                    }
                    i = end - 1;
                }
                tmp[n++] = x >= 0 && x < rc ? item(ri.type, start(x, rc), length(x, rc), orig)
                        : item(ri.type, -1, 0, orig);
            }
            out = Arrays.copyOf(tmp, n);
        }
        return ETuple.of(MATCH, ECons.of(out));
    }

    private Term item(int type, int s, int len, EBitString orig) {
        switch (type) {
            case RET_INDEX: return ETuple.of(ESmall.of(s), ESmall.of(s < 0 ? 0 : len));
            case RET_BIN:
                if (s < 0 || len == 0) return EBitString.EMPTY;
                return orig != null ? orig.sub(s, len) : EBitString.of(Arrays.copyOfRange(bytes, s, s + len));
            default:
                return s < 0 ? ENil.NIL : ReIo.bytesToList(bytes, s, len);
        }
    }

    /** Minimal growable int array. */
    static final class IntList {
        int[] a = new int[8];
        int size;
        void add(int x) { if (size == a.length) a = Arrays.copyOf(a, size * 2); a[size++] = x; }
        int[] toArray() { return Arrays.copyOf(a, size); }
    }
}
