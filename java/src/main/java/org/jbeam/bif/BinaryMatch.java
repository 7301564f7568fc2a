package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Searching in binaries for stdlib's {@code binary} module: {@code compile_pattern/1},
 * {@code match/2,3}, {@code matches/2,3}, {@code split/2,3}. Semantics as OTP: the leftmost match
 * wins, and among matches starting at the same position the longest; {@code matches} and global
 * {@code split} continue after each match (no overlaps). A compiled pattern is the opaque term
 * {@code {bm, Bin}} (one needle) or {@code {ac, [Bin]}} (several), mirroring OTP's tags.
 */
public final class BinaryMatch {
    private BinaryMatch() {}

    static final EAtom BM = EAtom.of("bm"), AC = EAtom.of("ac"), NOMATCH = EAtom.of("nomatch"), SCOPE = EAtom.of("scope"),
            GLOBAL = EAtom.of("global"), TRIM = EAtom.of("trim"), TRIM_ALL = EAtom.of("trim_all");

    /** Needles of a pattern argument (binary, non-empty list of binaries, or compiled), else badarg. */
    static byte[][] needles(Term pat) {
        if (pat instanceof EBitString b) return new byte[][] {needle(b)};
        if (pat instanceof ECons) {
            Term[] items = ECons.toArray(pat);
            if (items == null) throw ErlangException.badarg();
            byte[][] r = new byte[items.length][];
            for (int i = 0; i < items.length; i++) {
                if (!(items[i] instanceof EBitString b)) throw ErlangException.badarg();
                r[i] = needle(b);
            }
            return r;
        }
        if (pat instanceof ETuple t && t.arity() == 2) {
            if (t.get(0) == BM && t.get(1) instanceof EBitString b) return new byte[][] {needle(b)};
            if (t.get(0) == AC && t.get(1) instanceof ECons) return needles(t.get(1));
        }
        throw ErlangException.badarg();
    }

    private static byte[] needle(EBitString b) {
        if (!b.isBinary() || b.byteSize() == 0) throw ErlangException.badarg();
        return b.toByteArray();
    }

    public static Term compilePattern(Term pat) {
        byte[][] ns = needles(pat);
        if (ns.length == 1) return ETuple.of(BM, EBitString.of(ns[0]));
        Term[] bs = new Term[ns.length];
        for (int i = 0; i < ns.length; i++) bs[i] = EBitString.of(ns[i]);
        return ETuple.of(AC, ECons.of(bs));
    }

    /** Leftmost-longest match at or after {@code from}, ending at or before {@code end}: {pos, len} or null. */
    static int[] find(byte[] s, int base, int from, int end, byte[][] ns) {
        for (int i = from; i < end; i++) {
            int best = -1;
            for (byte[] n : ns) {
                if (n.length > end - i || n.length <= best || s[base + i] != n[0]) continue;
                boolean ok = true;
                for (int k = 1; k < n.length; k++) if (s[base + i + k] != n[k]) { ok = false; break; }
                if (ok) best = n.length;
            }
            if (best > 0) return new int[] {i, best};
        }
        return null;
    }

    /** Parsed options: scope start/end, global, trim, trim_all. */
    private record Opts(int start, int end, boolean global, boolean trim, boolean trimAll) {}

    private static Opts opts(Term o, int size, boolean splitOpts) {
        int start = 0, end = size;
        boolean global = false, trim = false, trimAll = false;
        Term l = o;
        while (l instanceof ECons c) {
            Term x = c.head;
            if (x instanceof ETuple t && t.arity() == 2 && t.get(0) == SCOPE && t.get(1) instanceof ETuple r && r.arity() == 2) {
                int[] rg = BinaryBifs.range(size, r.get(0), r.get(1));
                start = rg[0];
                end = rg[0] + rg[1];
            } else if (splitOpts && x == GLOBAL) global = true;
            else if (splitOpts && x == TRIM) trim = true;
            else if (splitOpts && x == TRIM_ALL) trimAll = true;
            else throw ErlangException.badarg();
            l = c.tail;
        }
        if (l != ENil.NIL && o == l) throw ErlangException.badarg(); // OTP ignores an improper tail after options
        return new Opts(start, end, global, trim, trimAll);
    }

    public static Term match(Term subj, Term pat, Term options) {
        EBitString s = BinaryBifs.bin(subj);
        byte[][] ns = needles(pat);
        Opts o = opts(options, s.byteSize(), false);
        int[] m = find(s.array(), s.arrayOffset(), o.start, o.end, ns);
        return m == null ? NOMATCH : ETuple.of(ESmall.of(m[0]), ESmall.of(m[1]));
    }

    public static Term matches(Term subj, Term pat, Term options) {
        EBitString s = BinaryBifs.bin(subj);
        byte[][] ns = needles(pat);
        Opts o = opts(options, s.byteSize(), false);
        List<Term> r = new ArrayList<>();
        for (int[] m : all(s, ns, o.start, o.end, true)) r.add(ETuple.of(ESmall.of(m[0]), ESmall.of(m[1])));
        return ECons.of(r);
    }

    private static List<int[]> all(EBitString s, byte[][] ns, int from, int end, boolean global) {
        List<int[]> r = new ArrayList<>();
        int i = from;
        while (i < end) {
            int[] m = find(s.array(), s.arrayOffset(), i, end, ns);
            if (m == null) break;
            r.add(m);
            if (!global) break;
            i = m[0] + m[1];
        }
        return r;
    }

    public static Term split(Term subj, Term pat, Term options) {
        EBitString s = BinaryBifs.bin(subj);
        byte[][] ns = needles(pat);
        Opts o = opts(options, s.byteSize(), true);
        List<int[]> ms = all(s, ns, o.start, o.end, o.global);
        List<Term> parts = new ArrayList<>();
        int prev = 0;
        for (int[] m : ms) {
            parts.add(s.sub(prev, m[0] - prev));
            prev = m[0] + m[1];
        }
        parts.add(s.sub(prev, s.byteSize() - prev));
        if (o.trimAll) parts.removeIf(t -> ((EBitString) t).byteSize() == 0);
        else if (o.trim) while (!parts.isEmpty() && ((EBitString) parts.get(parts.size() - 1)).byteSize() == 0) parts.remove(parts.size() - 1);
        return ECons.of(parts);
    }
}
