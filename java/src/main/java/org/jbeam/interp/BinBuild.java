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
        ErlangException ex = ErlangException.error(it.binFailLimit ? EAtom.SYSTEM_LIMIT : EAtom.BADARG);
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

    /**
     * As erts: first every explicit size operand, in segment order (a bad one is badarg, one past
     * the largest small integer system_limit, both with the segment as cause, before any other
     * segment's value is looked at); then, in order, every segment's value (type, unit, short,
     * invalid float size), adding up the sizes; then the writes, straight into the result: an
     * exact-size array, or after the accumulated binary's end in its append buffer (ADR 0045).
     * Before, each construction wrote into a growable scratch writer, copied that into a binary
     * and copied the binary again onto the accumulator.
     */
    static Term create(Interpreter it, BinSegment[] segs) {
        it.binFailCause = null;
        it.binFailLimit = false;
        for (int i = 0; i < segs.length; i++) if (!sizeOk(it, segs[i], i + 1)) return null;
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
        long total = 0;
        for (int i = first; i < segs.length; i++) {
            long n = bits(it, segs[i], i + 1);
            if (n < 0) return null;
            total += n;
            // Each n is at most 2^59 (phase one) and total at most MAX_BITS before it: no overflow.
            if (total > MAX_BITS) throw ErlangException.error(EAtom.SYSTEM_LIMIT);
        }
        if (acc != null && acc.bitSize() + total > MAX_BITS) throw ErlangException.error(EAtom.SYSTEM_LIMIT);
        EBitString r;
        BitWriter w;
        if (acc == null) {
            if (total == 0) return EBitString.EMPTY;
            byte[] d = new byte[(int) ((total + 7) >>> 3)];
            r = new EBitString(d, 0, total);
            w = new BitWriter(d, 0);
        } else {
            r = AppendBuffer.grow(acc, total, it.p);
            w = new BitWriter(r.array(), (long) r.arrayOffset() * 8 + acc.bitSize());
        }
        for (int i = first; i < segs.length; i++) put(it, w, segs[i], i + 1);
        return r;
    }

    /** Bits of a binary of Integer.MAX_VALUE - 16 bytes (a Java array's limit): past it, system_limit. */
    private static final long MAX_BITS = (Integer.MAX_VALUE - 16L) * 8;
    /** erts' MAX_SMALL on 64-bit machines: a segment size × unit above it is a system_limit. */
    private static final long MAX_SMALL = (1L << 59) - 1;

    /** Phase one: the segment's size operand, if it has one, is a non-negative integer of a sane size. */
    private static boolean sizeOk(Interpreter it, BinSegment s, int index) {
        int t = s.type();
        if (s.size() < 0 || (t != BinSegment.INTEGER && t != BinSegment.FLOAT && t != BinSegment.BINARY)) return true;
        Term sz = it.get(s.size());
        if (sz == BinMatch.ALL && t == BinSegment.BINARY) return true;
        boolean limit = sz instanceof ESmall n ? n.value >= 0 && s.unit() != 0 && n.value > MAX_SMALL / s.unit()
                : sz instanceof EBig b && b.signum() > 0;
        if (!limit && sz instanceof ESmall n && n.value >= 0) return true;
        cause(it, index, s, "size", sz);
        it.binFailLimit = limit;
        return false;
    }

    /** The bits segment {@code index} (1-based) will write; -1 (cause recorded) when it is bad. Same checks, same order as {@link #put}. */
    private static long bits(Interpreter it, BinSegment s, int index) {
        switch (s.type()) {
            case BinSegment.STRING -> { return s.string().length * 8L; }
            case BinSegment.INTEGER -> {
                Term v = it.get(s.src());
                long sz = size(it, s);
                if (sz < 0) return bad(it, index, s, "size", sizeTerm(it, s));
                if (!(v instanceof EInteger)) return bad(it, index, s, "type", v);
                return checked(sz, s.unit());
            }
            case BinSegment.FLOAT -> {
                Term v = it.get(s.src());
                long sz = size(it, s);
                if (sz < 0) return bad(it, index, s, "size", sizeTerm(it, s));
                if (!(v instanceof ENumber)) return bad(it, index, s, "type", v);
                long n = checked(sz, s.unit());
                if (n != 64 && n != 32 && n != 16) return bad(it, index, s, "invalid", sizeTerm(it, s));
                return n;
            }
            case BinSegment.BINARY, BinSegment.APPEND, BinSegment.PRIVATE_APPEND -> {
                Term v = it.get(s.src());
                if (!(v instanceof EBitString b)) return bad(it, index, s, "type", v);
                if (s.type() != BinSegment.BINARY) return b.bitSize();
                long sz = size(it, s);
                if (sz == -2 || sz == -1) {
                    if (s.unit() > 1 && b.bitSize() % s.unit() != 0) return bad(it, index, s, "unit", v);
                    return b.bitSize();
                }
                if (sz < 0) return bad(it, index, s, "size", sizeTerm(it, s));
                long n = checked(sz, s.unit());
                if (n > b.bitSize()) return bad(it, index, s, "short", v);
                return n;
            }
            case BinSegment.UTF8, BinSegment.UTF16, BinSegment.UTF32 -> {
                if (!(it.get(s.src()) instanceof ESmall c) || !org.jbeam.bif.IoLists.validCodePoint(c.value)) return bad(it, index, s, "type", it.get(s.src()));
                long v = c.value;
                if (s.type() == BinSegment.UTF8) return 8L * (v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4);
                if (s.type() == BinSegment.UTF16) return v < 0x10000 ? 16 : 32;
                return 32;
            }
            default -> { return -1; }
        }
    }

    private static long bad(Interpreter it, int index, BinSegment s, String reason, Term value) {
        cause(it, index, s, reason, value);
        return -1;
    }

    /** size × unit of a size phase one accepted (so no overflow). */
    private static long checked(long size, int unit) { return size * unit; }

    private static long size(Interpreter it, BinSegment s) {
        if (s.size() < 0) return -1;
        Term t = it.get(s.size());
        if (t instanceof ESmall n && n.value >= 0) return n.value;
        if (t == BinMatch.ALL) return -2;
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
