package org.jbeam.interp;

import java.math.BigInteger;

import org.jbeam.code.BinSegment;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** bs_create_bin: builds a binary from segments; null on a bad segment (→ fail label or badarg). */
final class BinBuild {
    private BinBuild() {}

    private static final EAtom ERL_ERTS_ERRORS = EAtom.of("erl_erts_errors"), FORMAT_BS_FAIL = EAtom.of("format_bs_fail");

    /** Raises OTP 25's construction badarg: error_info cause {Segment, Type, Reason, Value}. */
    static int fail(Interpreter it) {
        ErlangException ex = ErlangException.badarg();
        ex.noNativeFrame = true;
        if (it.binFailCause != null) {
            ex.currentErrorInfo = EMap.of(new Term[] {EAtom.of("cause"), EAtom.of("function"), EAtom.of("module")},
                    new Term[] {it.binFailCause, FORMAT_BS_FAIL, ERL_ERTS_ERRORS});
        }
        throw ex;
    }

    private static final String[] TYPE_NAMES = {"integer", "float", "binary", "utf8", "utf16", "utf32", "string", "binary", "binary"};

    /** Records why segment {@code index} (1-based) failed; returns false for the caller. */
    private static boolean cause(Interpreter it, int index, BinSegment s, String reason, Term value) {
        if (index > 0) it.binFailCause = ETuple.of(ESmall.of(index), EAtom.of(TYPE_NAMES[s.type()]), EAtom.of(reason), value);
        return false;
    }

    static Term create(Interpreter it, BinSegment[] segs) {
        it.binFailCause = null;
        int first = 0;
        EBitString acc = null;
        if (segs.length > 0 && (segs[0].type() == BinSegment.APPEND || segs[0].type() == BinSegment.PRIVATE_APPEND)) {
            Term v0 = it.get(segs[0].src());
            if (!(v0 instanceof EBitString a)) { cause(it, 1, segs[0], "type", v0); return null; }
            // <<X/binary, ...>> compiles to an append with unit 8: X must then be a binary.
            if (segs[0].unit() > 1 && a.bitSize() % segs[0].unit() != 0) { cause(it, 1, segs[0], "unit", a); return null; }
            acc = a;
            first = 1;
        }
        BitWriter w = new BitWriter();
        for (int i = first; i < segs.length; i++) {
            if (!put(it, w, segs[i], i + 1)) return null;
        }
        return acc == null ? w.toBitString() : AppendBuffer.append(acc, w.toBitString());
    }

    private static long size(Interpreter it, BinSegment s) {
        if (s.size() < 0) return -1;
        Term t = it.get(s.size());
        if (t instanceof ESmall n && n.value >= 0) return n.value;
        if (t == EAtom.of("all")) return -2;
        return Long.MIN_VALUE;
    }

    static boolean put(Interpreter it, BitWriter w, BinSegment s) { return put(it, w, s, 0); }

    static boolean put(Interpreter it, BitWriter w, BinSegment s, int index) {
        switch (s.type()) {
            case BinSegment.STRING -> { w.putBytes(s.string(), 0, s.string().length); return true; }
            case BinSegment.INTEGER -> {
                Term v = it.get(s.src());
                long sz = size(it, s);
                if (sz < 0) return cause(it, index, s, "size", sizeTerm(it, s));
                if (!(v instanceof EInteger iv)) return cause(it, index, s, "type", v);
                long n = sz * s.unit();
                putInteger(w, iv, n, s.little());
                return true;
            }
            case BinSegment.FLOAT -> {
                Term v = it.get(s.src());
                long sz = size(it, s);
                if (sz < 0) return cause(it, index, s, "size", sizeTerm(it, s));
                if (!(v instanceof ENumber num)) return cause(it, index, s, "type", v);
                long n = sz * s.unit();
                double d = num.doubleValue();
                long bits;
                if (n == 64) bits = Double.doubleToRawLongBits(d);
                else if (n == 32) bits = Float.floatToRawIntBits((float) d) & 0xFFFFFFFFL; // overflow gives inf, as erl
                else if (n == 16) bits = Float.floatToFloat16((float) d) & 0xFFFFL;
                else return cause(it, index, s, "invalid", sizeTerm(it, s)); // not a float size
                putInteger(w, ESmall.of(bits), n, s.little());
                return true;
            }
            case BinSegment.BINARY, BinSegment.APPEND, BinSegment.PRIVATE_APPEND -> {
                Term v = it.get(s.src());
                if (!(v instanceof EBitString b)) return cause(it, index, s, "type", v);
                if (s.type() != BinSegment.BINARY) { w.putBits(b); return true; }
                long sz = size(it, s);
                if (sz == -2 || sz == -1) {
                    if (s.unit() > 1 && b.bitSize() % s.unit() != 0) return cause(it, index, s, "unit", v);
                    w.putBits(b);
                    return true;
                }
                if (sz < 0) return cause(it, index, s, "size", sizeTerm(it, s));
                long n = sz * s.unit();
                if (n > b.bitSize()) return cause(it, index, s, "short", v);
                w.putBitsOf(b, n);
                return true;
            }
            case BinSegment.UTF8 -> {
                if (!(it.get(s.src()) instanceof ESmall c) || !org.jbeam.bif.IoLists.validCodePoint(c.value)) return cause(it, index, s, "type", it.get(s.src()));
                byte[] b = new String(Character.toChars((int) c.value)).getBytes(java.nio.charset.StandardCharsets.UTF_8);
                w.putBytes(b, 0, b.length);
                return true;
            }
            case BinSegment.UTF16 -> {
                if (!(it.get(s.src()) instanceof ESmall c) || !org.jbeam.bif.IoLists.validCodePoint(c.value)) return cause(it, index, s, "type", it.get(s.src()));
                for (char ch : Character.toChars((int) c.value)) putInteger(w, ESmall.of(ch), 16, s.little());
                return true;
            }
            case BinSegment.UTF32 -> {
                if (!(it.get(s.src()) instanceof ESmall c) || !org.jbeam.bif.IoLists.validCodePoint(c.value)) return cause(it, index, s, "type", it.get(s.src()));
                putInteger(w, c, 32, s.little());
                return true;
            }
            default -> { return false; }
        }
    }

    private static Term sizeTerm(Interpreter it, BinSegment s) {
        return s.size() < 0 ? EAtom.UNDEFINED : it.get(s.size());
    }

    /** Writes the low n bits of an integer (two's complement), big- or little-endian. */
    static void putInteger(BitWriter w, EInteger v, long n, boolean little) {
        if (n == 0) return;
        if (!little && n <= 64 && v instanceof ESmall s) { w.putLong(s.value, (int) n); return; }
        BigInteger bi = v.bigValue();
        int nbytes = (int) ((n + 7) >>> 3);
        byte[] be = new byte[nbytes];
        BigInteger mask = BigInteger.ONE.shiftLeft((int) n).subtract(BigInteger.ONE);
        byte[] raw = bi.and(mask).toByteArray();
        int copy = Math.min(raw.length, nbytes);
        System.arraycopy(raw, raw.length - copy, be, nbytes - copy, copy);
        int rem = (int) (n & 7);
        if (!little) {
            // be holds the value right-aligned in nbytes; emit the top partial byte's low bits first.
            if (rem != 0) { w.putBitsRaw(be[0] & ((1 << rem) - 1), rem); w.putBytes(be, 1, nbytes - 1); }
            else w.putBytes(be, 0, nbytes);
        } else {
            // Little-endian: least significant byte first; the partial (most significant) byte last.
            int full = (int) (n >>> 3);
            for (int i = 0; i < full; i++) w.putByte(be[nbytes - 1 - i] & 0xFF);
            if (rem != 0) w.putBitsRaw(be[0] & ((1 << rem) - 1), rem);
        }
    }
}
