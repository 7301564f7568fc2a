package org.jbeam.loader;

import java.math.BigInteger;

import org.jbeam.term.EAtom;
import org.jbeam.term.EInteger;
import org.jbeam.term.ENil;
import org.jbeam.term.Term;

/**
 * Decoder of BEAM's compact term encoding (the operands of the Code chunk). The low 3 bits of the
 * first byte are the tag (u, i, a, x, y, f, h, z); the value follows in 4, 11 or N×8 bits. Tag z
 * introduces extended operands: lists, float registers, allocation lists, literals and typed
 * registers.
 */
final class CodeReader {
    static final int TAG_U = 0, TAG_I = 1, TAG_A = 2, TAG_X = 3, TAG_Y = 4, TAG_F = 5, TAG_H = 6, TAG_Z = 7;

    private final byte[] b;
    private final int end;
    private final String where;
    private final BeamFile file;
    int pos;

    CodeReader(byte[] b, int off, int len, String where, BeamFile file) {
        this.b = b; this.pos = off; this.end = off + len; this.where = where; this.file = file;
    }

    boolean atEnd() { return pos >= end; }

    LoadError error(String msg) { return LoadError.badfile(where + " at offset " + pos + ": " + msg); }

    int u8() throws LoadError {
        if (pos >= end) throw error("truncated");
        return b[pos++] & 0xFF;
    }

    int peekTag() throws LoadError {
        if (pos >= end) throw error("truncated");
        return b[pos] & 7;
    }

    /** Reads a value with any tag as a (possibly signed for tag i) long; throws on values beyond long. */
    long readTaggedUnsignedAnyTag() throws LoadError {
        int first = u8();
        int tag = first & 7;
        if ((first & 0x18) != 0x18) return small(first);
        Object v = readBig(first, tag == TAG_I);
        if (v instanceof BigInteger) throw error("value too large");
        return (Long) v;
    }

    /** Reads a u-tagged value. */
    long readTaggedUnsigned() throws LoadError {
        int first = u8();
        if ((first & 7) != TAG_U) throw error("expected u-tagged value, got tag " + (first & 7));
        if ((first & 0x18) != 0x18) return small(first);
        Object v = readBig(first, false);
        if (!(v instanceof Long l) || l < 0) throw error("bad unsigned value");
        return l;
    }

    // The loader runs in bursts (boot, code loading) and is compiled by C1 only (ADR 0024), which
    // removes no allocation: values fitting 4 or 11 bits (nearly all operands) take a primitive
    // path; only the multi-byte form goes through readBig.

    /** The value of a first byte in the 4- or 11-bit forms ({@code (first & 0x18) != 0x18}). */
    private long small(int first) throws LoadError {
        if ((first & 0x08) == 0) return first >> 4;
        return ((first >> 5) << 8) | u8();
    }

    /** A value in any form, as a long; throws when it does not fit. */
    private long value(int first, boolean signed) throws LoadError {
        if ((first & 0x18) != 0x18) return small(first);
        return asLong(readBig(first, signed));
    }

    /** The multi-byte form after its first byte: Long or (large) BigInteger. */
    private Object readBig(int first, boolean signed) throws LoadError {
        int len = (first >> 5) + 2;
        if (len == 9) {
            long l = readTaggedUnsigned();
            if (l > 1 << 20) throw error("integer of " + l + " bytes");
            len = (int) l + 9;
        }
        if (pos + len > end) throw error("truncated integer");
        byte[] mag = java.util.Arrays.copyOfRange(b, pos, pos + len);
        pos += len;
        BigInteger v = new BigInteger(mag); // two's complement big-endian
        if (!signed && v.signum() < 0) v = new BigInteger(1, mag); // u/x/y/f … never negative
        if (v.bitLength() < 64) return v.longValue();
        return v;
    }

    private static final int CACHED = 256;
    private static final Operand.X[] XS = new Operand.X[CACHED];
    private static final Operand.Y[] YS = new Operand.Y[CACHED];
    private static final Operand.U[] US = new Operand.U[CACHED];
    static {
        for (int i = 0; i < CACHED; i++) { XS[i] = new Operand.X(i); YS[i] = new Operand.Y(i); US[i] = new Operand.U(i); }
    }

    /** Reads one operand. */
    Operand operand() throws LoadError {
        int first = u8();
        int tag = first & 7;
        switch (tag) {
            case TAG_U: {
                long v = value(first, false);
                return v >= 0 && v < CACHED ? US[(int) v] : new Operand.U(v);
            }
            case TAG_I: {
                if ((first & 0x18) != 0x18) return new Operand.Lit(EInteger.of(small(first)));
                Object v = readBig(first, true);
                return new Operand.Lit(v instanceof Long l ? EInteger.of(l) : EInteger.of((BigInteger) v));
            }
            case TAG_A: {
                long i = value(first, false);
                if (i == 0) return new Operand.Lit(ENil.NIL);
                return new Operand.Atom(atom(i));
            }
            case TAG_X: { int r = reg(value(first, false)); return r < CACHED ? XS[r] : new Operand.X(r); }
            case TAG_Y: { int r = reg(value(first, false)); return r < CACHED ? YS[r] : new Operand.Y(r); }
            case TAG_F: return new Operand.Label((int) value(first, false));
            case TAG_H: return new Operand.Lit(EInteger.of(value(first, false)));
            default: return extended(first);
        }
    }

    private EAtom atom(long i) throws LoadError {
        if (i < 1 || i >= file.atoms.length) throw error("atom index " + i + " out of range");
        return file.atoms[(int) i];
    }

    private int reg(long l) throws LoadError {
        if (l < 0 || l > 65535) throw error("register number " + l + " out of range");
        return (int) l;
    }

    private long asLong(Object v) throws LoadError {
        if (v instanceof Long l) return l;
        throw error("value too large");
    }

    private Operand extended(int first) throws LoadError {
        if ((first & 0x08) != 0) throw error("bad extended tag byte " + first);
        int ext = first >> 4;
        switch (ext) {
            case 1: { // list
                long n = readTaggedUnsigned();
                if (n > end - pos) throw error("list of " + n + " elements exceeds chunk");
                Operand[] items = new Operand[(int) n];
                for (int i = 0; i < n; i++) items[i] = operand();
                return new Operand.List(items);
            }
            case 2: { // float register
                long n = readTaggedUnsigned();
                if (n > 1023) throw error("float register " + n + " out of range");
                return new Operand.FR((int) n);
            }
            case 3: { // allocation list: pairs of (kind, count)
                long n = readTaggedUnsigned();
                if (n > 3) throw error("bad allocation list length " + n);
                long words = 0;
                for (int i = 0; i < n; i++) { readTaggedUnsigned(); words += readTaggedUnsigned(); }
                return new Operand.U(words);
            }
            case 4: { // literal
                long i = readTaggedUnsigned();
                if (i >= file.literals.length) throw error("literal index " + i + " out of range (" + file.literals.length + " literals)");
                return new Operand.Lit(file.literals[(int) i]);
            }
            case 5: { // typed register: register followed by a type index
                Operand r = operand();
                if (!(r instanceof Operand.X) && !(r instanceof Operand.Y)) throw error("typed register is not a register");
                readTaggedUnsigned();
                return r;
            }
            case 0: { // float literal (very old format): 8 bytes
                if (pos + 8 > end) throw error("truncated float literal");
                long bits = 0;
                for (int i = 0; i < 8; i++) bits = (bits << 8) | (b[pos++] & 0xFF);
                return new Operand.Lit(org.jbeam.term.EFloat.of(Double.longBitsToDouble(bits)));
            }
            default: throw error("unknown extended tag " + ext);
        }
    }

    /** Sealed operand model of decoded generic instructions. */
    sealed interface Operand {
        record U(long value) implements Operand {}
        record X(int n) implements Operand {}
        record Y(int n) implements Operand {}
        record FR(int n) implements Operand {}
        record Label(int n) implements Operand {}
        record Atom(EAtom atom) implements Operand {}
        record Lit(Term term) implements Operand {}
        record List(Operand[] items) implements Operand {}
    }
}
