package org.jbeam.bif;

import java.math.BigInteger;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The NIF functions of stdlib's {@code binary} module in OTP 25 (erl_bif_binary.c). Searching
 * ({@code compile_pattern}, {@code match}, {@code matches}, {@code split}) is in
 * {@link BinaryMatch}. {@code bin_to_list/1,2,3} and {@code replace/3,4} are Erlang code in
 * binary.erl and are not registered.
 */
public final class BinaryBifs implements BifModule {
    private static final String M = "binary";
    private static final EAtom BIG = EAtom.of("big"), LITTLE = EAtom.of("little");

    @Override public void register(BifTable t) {
        t.bif2(M, "at", BinaryBifs::at);
        t.bif1(M, "compile_pattern", (p, pat) -> BinaryMatch.compilePattern(pat));
        t.bif1(M, "copy", (p, b) -> copy(b, ESmall.ONE));
        t.bif2(M, "copy", (p, b, n) -> copy(b, n));
        t.bif1(M, "decode_unsigned", (p, b) -> decodeUnsigned(b, BIG));
        t.bif2(M, "decode_unsigned", (p, b, e) -> decodeUnsigned(b, e));
        t.bif1(M, "encode_unsigned", (p, n) -> encodeUnsigned(n, BIG));
        t.bif2(M, "encode_unsigned", (p, n, e) -> encodeUnsigned(n, e));
        t.bif1(M, "first", (p, b) -> { EBitString x = bin(b); if (x.byteSize() == 0) throw ErlangException.badarg(); return ESmall.of(x.byteAt(0)); });
        t.bif1(M, "last", (p, b) -> { EBitString x = bin(b); if (x.byteSize() == 0) throw ErlangException.badarg(); return ESmall.of(x.byteAt(x.byteSize() - 1)); });
        t.bif1(M, "list_to_bin", (p, l) -> {
            if (!(l instanceof EList)) throw ErlangException.badarg();
            return EBitString.of(IoLists.toBytes(l, false));
        });
        t.bif1(M, "longest_common_prefix", (p, l) -> longestCommon(l, false));
        t.bif1(M, "longest_common_suffix", (p, l) -> longestCommon(l, true));
        t.bif2(M, "match", (p, s, pat) -> BinaryMatch.match(s, pat, ENil.NIL));
        t.bif3(M, "match", (p, s, pat, o) -> BinaryMatch.match(s, pat, o));
        t.bif2(M, "matches", (p, s, pat) -> BinaryMatch.matches(s, pat, ENil.NIL));
        t.bif3(M, "matches", (p, s, pat, o) -> BinaryMatch.matches(s, pat, o));
        t.bif2(M, "part", BinaryBifs::part2);
        t.bif3(M, "part", BinaryBifs::part3);
        t.bif1(M, "referenced_byte_size", BinaryBifs::referencedByteSize);
        t.bif2(M, "split", (p, s, pat) -> BinaryMatch.split(s, pat, ENil.NIL));
        t.bif3(M, "split", (p, s, pat, o) -> BinaryMatch.split(s, pat, o));
    }

    /** The argument as a binary (bit size a multiple of 8), else badarg. */
    static EBitString bin(Term b) {
        if (b instanceof EBitString x && x.isBinary()) return x;
        throw ErlangException.badarg();
    }

    public static Term at(ErlProcess p, Term b, Term pos) {
        EBitString x = bin(b);
        if (!(pos instanceof ESmall s) || s.value < 0 || s.value >= x.byteSize()) throw ErlangException.badarg();
        return ESmall.of(x.byteAt((int) s.value));
    }

    public static Term copy(Term b, Term n) {
        EBitString x = bin(b);
        if (!(n instanceof ESmall s) || s.value < 0) throw ErlangException.badarg();
        long total = s.value * x.byteSize();
        if (s.value != 0 && total / s.value != x.byteSize() || total > Integer.MAX_VALUE - 16) throw ErlangException.badarg();
        int len = x.byteSize();
        byte[] out = new byte[(int) total];
        for (int i = 0; i < s.value; i++) System.arraycopy(x.array(), x.arrayOffset(), out, i * len, len);
        return EBitString.of(out);
    }

    static boolean little(Term e) {
        if (e == BIG) return false;
        if (e == LITTLE) return true;
        throw ErlangException.badarg();
    }

    public static Term decodeUnsigned(Term b, Term endian) {
        EBitString x = bin(b);
        boolean le = little(endian);
        byte[] a = x.toByteArray();
        if (le) for (int i = 0, j = a.length - 1; i < j; i++, j--) { byte t = a[i]; a[i] = a[j]; a[j] = t; }
        return EInteger.of(new BigInteger(1, a));
    }

    public static Term encodeUnsigned(Term n, Term endian) {
        if (!(n instanceof EInteger i) || i.signum() < 0) throw ErlangException.badarg();
        boolean le = little(endian);
        byte[] a = i.bigValue().toByteArray();
        int skip = 0;
        while (skip < a.length - 1 && a[skip] == 0) skip++;
        byte[] r = java.util.Arrays.copyOfRange(a, skip, a.length);
        if (le) for (int k = 0, j = r.length - 1; k < j; k++, j--) { byte t = r[k]; r[k] = r[j]; r[j] = t; }
        return EBitString.of(r);
    }

    /** longest_common_prefix/suffix of a non-empty list of binaries. */
    public static Term longestCommon(Term l, boolean suffix) {
        Term[] items = ECons.toArray(l);
        if (items == null || items.length == 0) throw ErlangException.badarg();
        EBitString[] bs = new EBitString[items.length];
        int best = Integer.MAX_VALUE;
        for (int i = 0; i < items.length; i++) { bs[i] = bin(items[i]); best = Math.min(best, bs[i].byteSize()); }
        EBitString f = bs[0];
        for (int i = 1; i < bs.length && best > 0; i++) {
            EBitString o = bs[i];
            int k = 0;
            while (k < best) {
                int x = suffix ? f.byteAt(f.byteSize() - 1 - k) : f.byteAt(k);
                int y = suffix ? o.byteAt(o.byteSize() - 1 - k) : o.byteAt(k);
                if (x != y) break;
                k++;
            }
            best = k;
        }
        return ESmall.of(best);
    }

    public static Term part2(ErlProcess p, Term b, Term posLen) {
        if (!(posLen instanceof ETuple t) || t.arity() != 2) throw ErlangException.badarg();
        return part3(p, b, t.get(0), t.get(1));
    }

    /** part/3: like binary_part/3; bitstrings are accepted, counting whole bytes only. */
    public static Term part3(ErlProcess p, Term b, Term pos, Term len) {
        if (!(b instanceof EBitString x)) throw ErlangException.badarg();
        int[] r = range(x.byteSize(), pos, len);
        return x.sub(r[0], r[1]);
    }

    /** A {Pos, Len} range (Len may be negative) within {@code size} bytes as {start, length}; badarg if outside. */
    static int[] range(int size, Term pos, Term len) {
        if (!(pos instanceof ESmall ps) || !(len instanceof ESmall ls)) throw ErlangException.badarg();
        long start = ps.value, l = ls.value;
        if (l < 0) { start += l; l = -l; }
        if (start < 0 || start > size || l > size - start) throw ErlangException.badarg();
        return new int[] {(int) start, (int) l};
    }

    public static Term referencedByteSize(ErlProcess p, Term b) {
        if (!(b instanceof EBitString x)) throw ErlangException.badarg();
        return ESmall.of(x.array().length);
    }
}
