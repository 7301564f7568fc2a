package org.jbeam.etf;

import org.jbeam.term.JenkinsHash;

import java.math.BigInteger;
import java.util.ArrayDeque;

import org.jbeam.term.*;

/**
 * {@code erlang:phash2/1,2}: erts' {@code make_hash2} (utils.c), a portable 32-bit hash built on
 * Bob Jenkins' mix. Iterative with an explicit stack in the same order as erts, so every term type
 * hashes exactly as in OTP 25 (maps are order independent: per-pair hashes are xor-ed).
 */
public final class Phash2 {
    private Phash2() {}

    static final int HCONST = 0x9e3779b9, HCONST_2 = 0x3c6ef372, HCONST_3 = 0xdaa66d2b, HCONST_4 = 0x78dde6e4,
            HCONST_5 = 0x1715609d, HCONST_6 = 0xb54cda56, HCONST_7 = 0x5384540f, HCONST_9 = 0x8ff34781,
            HCONST_10 = 0x2e2ac13a, HCONST_11 = 0xcc623af3, HCONST_12 = 0x6a99b4ac, HCONST_13 = 0x08d12e65,
            HCONST_14 = 0xa708a81e, HCONST_15 = 0x454021d7, HCONST_16 = 0xe3779b90, HCONST_19 = 0xbe1e08bb;
    /** erts' NIL_DEF tag value, mixed in for [] when it is not the first thing hashed. */
    static final int NIL_DEF = 2;
    /** make_hash2([]) when [] is hashed first. */
    static final int NIL_FIRST = (int) 3468870702L;

    /** {@code erlang:phash2(T)}: the low 27 bits. */
    public static long phash2(Term t) { return makeHash2(t) & ((1 << 27) - 1); }

    /** {@code erlang:phash2(T, Range)} for 1 ≤ range ≤ 2^32. */
    public static long phash2(Term t, long range) {
        long h = makeHash2(t) & 0xFFFFFFFFL;
        return range == (1L << 32) ? h : h % range;
    }


    static int hash2(int hash, int x, int y, int aconst) { return JenkinsHash.mix(aconst + x, aconst + y, hash); }


    /** The atom table's hash of a name (hashpjw over the UTF-8 bytes, latin1 code points as one byte). */
    public static int atomHash(EAtom a) {
        byte[] p = a.utf8();
        int h = 0;
        for (int i = 0; i < p.length; i++) {
            int v = p[i] & 0xFF;
            if (i + 1 < p.length && (v & 0xFE) == 0xC2 && (p[i + 1] & 0xC0) == 0x80) {
                v = ((v << 6) | (p[i + 1] & 0x3F)) & 0xFF;
                i++;
            }
            h = (h << 4) + v;
            int g = h & 0xf0000000;
            if (g != 0) { h ^= (g >>> 24); h ^= g; }
        }
        return h;
    }

    private static final Object MAP_PAIR = new Object();
    private record MapTail(int savedXor, int savedHash) {}

    /** erts' make_hash2. */
    public static int makeHash2(Term term) {
        if (term instanceof EAtom a) return atomHash(a);
        int hash = 0, xorPairs = 0;
        ArrayDeque<Object> s = new ArrayDeque<>();
        while (true) {
            boolean common = true;
            switch (term) {
                case ECons c0 -> {
                    int cnt = 0, sh = 0;
                    ECons ptr = c0;
                    Term t = c0;
                    while (ptr.head instanceof ESmall x && x.value >= 0 && x.value <= 255) {
                        sh = (sh << 8) + (int) x.value;
                        if (cnt == 3) { hash = hash2(hash, sh, 0, HCONST_4); cnt = 0; sh = 0; } else cnt++;
                        t = ptr.tail;
                        if (!(t instanceof ECons n)) break;
                        ptr = n;
                    }
                    if (cnt > 0) hash = hash2(hash, sh, 0, HCONST_4);
                    if (t instanceof ECons) { s.push(ptr.tail); term = ptr.head; } else term = t;
                    common = false;
                }
                case ETuple tu -> {
                    int n = tu.arity();
                    hash = hash2(hash, n, 0, HCONST_9);
                    if (n > 0) {
                        for (int i = n - 1; i >= 1; i--) s.push(tu.get(i));
                        term = tu.get(0);
                        common = false;
                    }
                }
                case EMap m -> {
                    int n = m.size();
                    hash = hash2(hash, n, 0, HCONST_16);
                    if (n > 0) {
                        s.push(new MapTail(xorPairs, hash));
                        hash = 0; xorPairs = 0;
                        for (int i = n - 1; i >= 0; i--) { s.push(MAP_PAIR); s.push(m.valueAt(i)); s.push(m.keyAt(i)); }
                    }
                }
                case EExportFun f -> {
                    hash = hash2(hash, f.arity, atomHash(f.module), HCONST);
                    hash = hash2(hash, atomHash(f.function), 0, HCONST_14);
                }
                case ELocalFun f -> {
                    int nf = f.freeVars.length;
                    hash = hash2(hash, nf, atomHash(f.module), HCONST);
                    hash = hash2(hash, f.index, f.oldUniq, HCONST);
                    if (nf > 0) {
                        for (int i = nf - 1; i >= 1; i--) s.push(f.freeVars[i]);
                        term = f.freeVars[0];
                        common = false;
                    }
                }
                case EBitString bs -> {
                    int sz = bs.byteSize(), bits = bs.extraBits();
                    int con = HCONST_13 + hash;
                    if (sz == 0 && bits == 0) hash = con;
                    else {
                        hash = JenkinsHash.blockHash(bs.array(), bs.arrayOffset(), sz, con);
                        if (bits > 0) hash = hash2(hash, bits, bs.byteAt(sz) >>> (8 - bits), HCONST_15);
                    }
                }
                case EBig bg -> hash = bigHash(hash, bg.value.signum() < 0, bg.value.abs());
                case ESmall sm -> {
                    long x = sm.value;
                    if (x < -(1L << 27) || x >= (1L << 27)) {
                        hash = bigHash(hash, x < 0, x < 0 ? BigInteger.valueOf(x).negate() : BigInteger.valueOf(x));
                    } else {
                        int y = (int) x;
                        if (y < 0) hash = hash2(hash, -y, 0, HCONST);
                        hash = hash2(hash, y, 0, HCONST);
                    }
                }
                case EFloat f -> {
                    double d = f.value == 0.0 ? 0.0 : f.value;
                    long bits = Double.doubleToRawLongBits(d);
                    hash = hash2(hash, (int) (bits >>> 32), (int) bits, HCONST_12);
                }
                case ERef r -> hash = hash2(hash, r.idCount() > 0 ? r.id(0) : 0, 0, HCONST_7);
                case EPid p -> hash = hash2(hash, p.number, 0, HCONST_5);
                case EPort p -> hash = hash2(hash, (int) p.id, (int) (p.id >>> 32), HCONST_6);
                case EAtom a -> {
                    if (hash == 0) hash = atomHash(a); else hash = hash2(hash, atomHash(a), 0, HCONST_3);
                }
                case ENil n -> {
                    if (hash == 0) hash = NIL_FIRST; else hash = hash2(hash, NIL_DEF, 0, HCONST_2);
                }
                default -> throw new IllegalArgumentException("unhashable " + term.getClass());
            }
            if (!common) continue;
            // hash2_common: pop the next term, closing map pairs and maps on the way
            while (true) {
                if (s.isEmpty()) return hash;
                Object o = s.pop();
                if (o == MAP_PAIR) { xorPairs ^= hash; hash = 0; }
                else if (o instanceof MapTail mt) {
                    hash = hash2(mt.savedHash, xorPairs, 0, HCONST_19);
                    xorPairs = mt.savedXor;
                } else { term = (Term) o; break; }
            }
        }
    }

    /** Hash of a bignum magnitude as erts' 64-bit digits (low word, high word) per digit. */
    private static int bigHash(int hash, boolean neg, BigInteger mag) {
        int con = neg ? HCONST_10 : HCONST_11;
        int nDigits = Math.max(1, (mag.bitLength() + 63) / 64);
        for (int i = 0; i < nDigits; i++) {
            long d = mag.shiftRight(64 * i).longValue();
            hash = hash2(hash, (int) d, (int) (d >>> 32), con);
        }
        return hash;
    }
}
