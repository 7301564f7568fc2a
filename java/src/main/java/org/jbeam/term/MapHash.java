package org.jbeam.term;

import java.math.BigInteger;
import java.util.ArrayDeque;

/**
 * The hash OTP 25 uses to place keys in a large map (a HAMT): erts' {@code make_map_hash(Key,
 * Depth)} (utils.c), i.e. {@code make_internal_hash} (Bob Jenkins' mix seeded with
 * {@code Salt ^ INTERNAL_HASH_SALT}) with salt 0 at depth 0, else the mix of (Depth, 1). The HAMT
 * takes 4 bits per level, low bits first, and after 8 levels rehashes at depth {@code Level / 8}
 * ({@code hashmap_shift_hash}). (The depth salting was confirmed against erl with keys whose
 * 32-bit hashes collide.)
 *
 * <p>Immediates are hashed by their 64-bit tagged word, so small integers and [] hash exactly as in
 * OTP. Atoms hash by their atom-table index (OTP's index is not jbeam's: atom keys are placed
 * consistently but not where OTP would place them); pids, ports, refs and funs likewise only
 * approximate OTP. Integers, floats, binaries, lists, tuples and maps of those match exactly.
 */
public final class MapHash {
    private MapHash() {}

    private static final int HCONST = 0x9e3779b9, HCONST_4 = 0x78dde6e4, HCONST_5 = 0x1715609d,
            HCONST_6 = 0xb54cda56, HCONST_7 = 0x5384540f, HCONST_8 = 0xf1bbcdc8, HCONST_9 = 0x8ff34781,
            HCONST_10 = 0x2e2ac13a, HCONST_11 = 0xcc623af3, HCONST_12 = 0x6a99b4ac, HCONST_13 = 0x08d12e65,
            HCONST_15 = 0x454021d7, HCONST_16 = 0xe3779b90, HCONST_17 = 0x81af1549, HCONST_18 = 0x1fe68f02,
            HCONST_20 = 0x5c558274, HCONST_21 = 0xfa8cfc2d, HCONST_22 = 0x98c475e6;
    /** INTERNAL_HASH_SALT (3432918353). */
    private static final int INTERNAL_HASH_SALT = 0xCC9E2D51;
    /** The tagged word of [] (NIL) on a 64-bit emulator. */
    private static final long NIL_WORD = 0x3BL;
    private static final long MIN_SMALL = -(1L << 59), MAX_SMALL = (1L << 59) - 1;

    /** Marker pushed after a proper/improper list tail that is not a list (HASH_CDR). */
    private static final Object HASH_CDR = new Object();

    /** {@code make_map_hash(Key, Depth)}: depth 0 gives the hash bits of levels 0..7, depth 1 of 8..15, ... */
    public static int hash(Term key, int depth) {
        return internalHash(key, depth == 0 ? 0 : mix2(0, depth, 1, HCONST_22));
    }

    /** {@code make_internal_hash(Term, 0)}: the hash ets places keys of hash tables by. */
    public static int internalHash32(Term key) { return internalHash(key, 0); }

    /** {@code make_internal_hash(Term, Salt)}. */
    static int internalHash(Term key, int salt) {
        int h = salt ^ INTERNAL_HASH_SALT;
        if (isImmediate(key)) return immed(h, word(key));
        ArrayDeque<Object> s = new ArrayDeque<>();
        Term term = key;
        while (true) {
            boolean next = true;
            switch (term) {
                case ECons c0 -> {
                    int cnt = 0, sh = 0;
                    ECons ptr = c0;
                    Term t = c0;
                    while (ptr.head instanceof ESmall x && x.value >= 0 && x.value <= 255) {
                        sh = (sh << 8) + (int) x.value;
                        if (cnt == 3) { h = mix2(h, sh, 0, HCONST_4); cnt = 0; sh = 0; } else cnt++;
                        t = ptr.tail;
                        if (!(t instanceof ECons n)) break;
                        ptr = n;
                    }
                    if (cnt > 0) h = mix2(h, sh, cnt, HCONST_22);
                    if (t instanceof ECons) {
                        Term tail = ptr.tail;
                        h = constHash(h, HCONST_17);
                        s.push(tail);
                        if (!(tail instanceof ECons)) s.push(HASH_CDR);
                        term = ptr.head;
                    } else term = t;
                    next = false;
                }
                case ETuple tu -> {
                    int n = tu.arity();
                    h = mix2(h, n, 0, HCONST_9);
                    if (n > 0) {
                        for (int i = n - 1; i >= 1; i--) s.push(tu.get(i));
                        term = tu.get(0);
                        next = false;
                    }
                }
                case EMap m -> {
                    h = mix2(h, m.size(), 0, HCONST_16);
                    m.pushForHash(s);
                }
                case EBitString bs -> {
                    int sz = bs.byteSize(), bits = bs.extraBits();
                    int con = HCONST_13 + h;
                    if (sz == 0 && bits == 0) h = con;
                    else {
                        h = JenkinsHash.blockHash(bs.array(), bs.arrayOffset(), sz, con);
                        if (bits > 0) h = mix2(h, bits, bs.byteAt(sz) >>> (8 - bits), HCONST_15);
                    }
                }
                case EBig bg -> h = bigHash(h, bg.value);
                case ESmall sm -> h = isImmediate(sm) ? immed(h, word(sm)) : bigHash(h, BigInteger.valueOf(sm.value));
                case EFloat f -> {
                    long bits = Double.doubleToRawLongBits(f.value == 0.0 ? 0.0 : f.value);
                    h = mix2(h, (int) bits, (int) (bits >>> 32), HCONST_12);
                }
                case ERef r -> {
                    h = mix2(h, r.idCount() > 0 ? r.id(0) : 0, 0, HCONST_7);
                    h = mix2(h, r.idCount() > 1 ? r.id(1) : 0, r.idCount() > 2 ? r.id(2) : 0, HCONST_8);
                }
                case ELocalFun f -> {
                    int nf = f.freeVars.length;
                    h = mix2(h, nf, atomWord(f.module), HCONST_20);
                    h = mix2(h, f.index, f.oldUniq, HCONST_21);
                    if (nf > 0) {
                        for (int i = nf - 1; i >= 1; i--) s.push(f.freeVars[i]);
                        term = f.freeVars[0];
                        next = false;
                    }
                }
                case EExportFun f -> {
                    h = mix2(h, atomWord(f.module), atomWord(f.function), HCONST_5);
                    h = mix2(h, f.arity, 0, HCONST_6);
                }
                default -> h = immed(h, word(term));
            }
            if (!next) continue;
            // pop_next
            while (true) {
                if (s.isEmpty()) return h;
                Object o = s.pop();
                if (o == HASH_CDR) { h = constHash(h, HCONST_18); continue; }
                if (o instanceof Hamt.Node n) { n.pushForHash(s); continue; }
                term = (Term) o;
                break;
            }
        }
    }

    private static boolean isImmediate(Term t) {
        return t instanceof EAtom || t instanceof ENil || t instanceof EPid || t instanceof EPort
                || (t instanceof ESmall s && s.value >= MIN_SMALL && s.value <= MAX_SMALL);
    }

    /** The 64-bit tagged word of an immediate term. */
    private static long word(Term t) {
        return switch (t) {
            case ESmall s -> (s.value << 4) | 0xF;
            case EAtom a -> atomWord(a);
            case ENil n -> NIL_WORD;
            case EPid p -> ((((long) p.serial << 28) | (p.number & 0xFFFFFFFL)) << 4) | 0x3;
            case EPort p -> (p.id << 4) | 0x7;
            default -> throw new IllegalArgumentException("not an immediate: " + t.getClass());
        };
    }

    private static int atomWord(EAtom a) { return (a.index << 6) | 0xB; }

    private static int immed(int h, long w) { return mix2(h, (int) w, (int) (w >>> 32), HCONST); }

    private static int constHash(int h, int c) {
        h ^= c;
        return (h << 17) ^ (h >>> (32 - 17));
    }

    private static int bigHash(int h, BigInteger v) {
        int con = v.signum() < 0 ? HCONST_10 : HCONST_11;
        BigInteger mag = v.abs();
        int nDigits = Math.max(1, (mag.bitLength() + 63) / 64);
        for (int i = 0; i < nDigits; i++) {
            long d = mag.shiftRight(64 * i).longValue();
            h = mix2(h, (int) d, (int) (d >>> 32), con);
        }
        return h;
    }

    static int mix2(int h, int x, int y, int aconst) { return JenkinsHash.mix(aconst + x, aconst + y, h); }

}
