package org.jbeam.etf;

import java.math.BigInteger;
import java.util.ArrayDeque;

import org.jbeam.term.*;

/**
 * {@code erlang:phash/2}: erts' older {@code make_hash} (utils.c): multiplicative hashing with the
 * "funny number" primes over bytes, integers hashed by the bytes of their magnitude independently
 * of representation. Maps delegate to {@link Phash2#makeHash2}, as in erts.
 */
public final class Phash {
    private Phash() {}

    static final int FN1 = 268440163, FN2 = 268439161, FN3 = 268435459, FN4 = 268436141, FN5 = 268438633,
            FN6 = 268437017, FN8 = 268437511, FN9 = 268439627, FN10 = 268440479, FN11 = 268440577,
            FN12 = 268440581, FN13 = 268440593, FN14 = 268440611;

    /** {@code erlang:phash(T, Range)} for 1 ≤ range ≤ 2^32: a value in 1..Range. */
    public static long phash(Term t, long range) {
        long h = makeHash(t) & 0xFFFFFFFFL;
        return range == (1L << 32) ? h + 1 : h % range + 1;
    }

    private static int step32(int hash, int x, int p) {
        hash = hash * p + (x & 0xFF);
        hash = hash * p + ((x >>> 8) & 0xFF);
        hash = hash * p + ((x >>> 16) & 0xFF);
        return hash * p + (x >>> 24);
    }

    private record TupleEnd(int arity) {}
    private record CdrPre(Term tail) {}
    private static final Object CDR_POST = new Object();

    /** erts' make_hash. */
    public static int makeHash(Term root) {
        int hash = 0;
        ArrayDeque<Object> s = new ArrayDeque<>();
        s.push(root);
        while (!s.isEmpty()) {
            Object o = s.pop();
            if (o instanceof TupleEnd te) { hash = hash * FN9 + te.arity; continue; }
            if (o == CDR_POST) { hash *= FN8; continue; }
            Term term;
            if (o instanceof CdrPre cp) {
                term = cp.tail;
                if (!(term instanceof ECons)) s.push(CDR_POST);
            } else term = (Term) o;
            switch (term) {
                case ENil n -> hash = hash * FN3 + 1;
                case EAtom a -> hash = hash * FN1 + Phash2.atomHash(a);
                case ESmall sm -> {
                    long y1 = sm.value;
                    long y2 = y1 < 0 ? -y1 : y1; // as unsigned 64-bit (MIN_VALUE stays 2^63)
                    hash = step32(hash, (int) y2, FN2);
                    if ((y2 >>> 32) != 0) hash = step32(hash, (int) (y2 >>> 32), FN2);
                    hash *= y1 < 0 ? FN4 : FN3;
                }
                case EBig bg -> {
                    BigInteger mag = bg.value.abs();
                    int nBytes = (mag.bitLength() + 31) / 32 * 4;
                    byte[] be = mag.toByteArray();
                    for (int i = 0; i < nBytes; i++) {
                        int idx = be.length - 1 - i;
                        int b = idx >= 0 ? be[idx] & 0xFF : 0;
                        hash = hash * FN2 + b;
                    }
                    hash *= bg.value.signum() < 0 ? FN4 : FN3;
                }
                case EBitString bs -> {
                    int sz = bs.byteSize(), bits = bs.extraBits();
                    byte[] d = bs.array();
                    int off = bs.arrayOffset();
                    for (int i = 0; i < sz; i++) hash = hash * FN1 + (d[off + i] & 0xFF);
                    if (bits > 0) hash = (hash * FN1 + (bs.byteAt(sz) >>> (8 - bits))) * FN12 + bits;
                    hash = hash * FN4 + sz;
                }
                case EExportFun f -> {
                    hash = hash * FN11 + f.arity;
                    hash = hash * FN1 + Phash2.atomHash(f.module);
                    hash = hash * FN1 + Phash2.atomHash(f.function);
                }
                case ELocalFun f -> {
                    hash = hash * FN10 + f.freeVars.length;
                    hash = hash * FN1 + Phash2.atomHash(f.module);
                    hash = hash * FN2 + f.index;
                    hash = hash * FN2 + f.oldUniq;
                    for (int i = f.freeVars.length - 1; i >= 0; i--) s.push(f.freeVars[i]);
                }
                case EPid p -> hash = step32(hash, p.number, FN5) * FN6;
                case EPort p -> {
                    if ((p.id >>> 32) != 0) hash = step32(hash, (int) (p.id >>> 32), FN11);
                    hash = step32(hash, (int) p.id, FN9) * FN10;
                }
                case ERef r -> hash = step32(hash, r.idCount() > 0 ? r.id(0) : 0, FN9) * FN10;
                case EFloat f -> {
                    long bits = Double.doubleToRawLongBits(f.value == 0.0 ? 0.0 : f.value);
                    hash = hash * FN6 + ((int) bits ^ (int) (bits >>> 32));
                }
                case ECons c -> {
                    ECons l = c;
                    while (true) {
                        if (l.head instanceof ESmall x && x.value >= 0 && x.value <= 255) {
                            hash = hash * FN2 + (int) x.value;
                            if (!(l.tail instanceof ECons nx)) { s.push(CDR_POST); s.push(l.tail); break; }
                            l = nx;
                        } else {
                            s.push(new CdrPre(l.tail));
                            s.push(l.head);
                            break;
                        }
                    }
                }
                case EMap m -> hash = hash * FN13 + FN14 + Phash2.makeHash2(m);
                case ETuple tu -> {
                    s.push(new TupleEnd(tu.arity()));
                    for (int i = tu.arity() - 1; i >= 0; i--) s.push(tu.get(i));
                }
                default -> throw new IllegalArgumentException("unhashable " + term.getClass());
            }
        }
        return hash;
    }
}
