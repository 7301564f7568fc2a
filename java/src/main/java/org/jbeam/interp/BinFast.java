package org.jbeam.interp;

import org.jbeam.term.*;

/**
 * The bytecode tier's construction of a binary whose segments all have literal sizes: an optional
 * accumulator to append to, integer segments of at most 64 bits (big-endian) and literal strings,
 * as in {@code <<Acc/binary, Tag:8, Len:16>>} (ADR 0045). The compiled code first checks that
 * nothing can fail (the accumulator is a bitstring of the right unit, every integer value a small
 * integer), otherwise it runs the general {@code BinBuild.create}, which raises the error erl would.
 * It then makes the result at its final size and writes each segment at its place, counted back
 * from the end, so no writer object and no segment array is needed.
 */
final class BinFast {
    private BinFast() {}

    /** The accumulator of an append segment with this unit: the general path otherwise. */
    static boolean appendable(Term acc, int unit) {
        return acc instanceof EBitString b && (unit <= 1 || b.bitSize() % unit == 0);
    }

    /** A binary of {@code bits} bits to fill in. */
    static EBitString fresh(long bits) {
        return bits == 0 ? EBitString.EMPTY : new EBitString(new byte[(int) ((bits + 7) >>> 3)], 0, bits);
    }

    /** {@code acc} followed by {@code bits} bits to fill in (in place when the process may). */
    static EBitString append(Interpreter it, Term acc, long bits) {
        EBitString a = (EBitString) acc;
        if (a.bitSize() + bits > MAX_BITS) throw org.jbeam.runtime.ErlangException.error(EAtom.SYSTEM_LIMIT);
        return AppendBuffer.grow(a, bits, it.p);
    }

    private static final long MAX_BITS = (Integer.MAX_VALUE - 16L) * 8;

    /** Writes the low {@code bits} bits of small integer {@code v}, ending {@code fromEnd} bits before r's end. */
    static EBitString integer(EBitString r, long fromEnd, Term v, int bits) {
        long value = ((ESmall) v).value;
        long at = (long) r.arrayOffset() * 8 + r.bitSize() - fromEnd;
        byte[] d = r.array();
        if (((at | bits) & 7) == 0) {
            int i = (int) (at >>> 3);
            for (int k = bits - 8; k >= 0; k -= 8) d[i++] = (byte) (value >>> k);
        } else new BitWriter(d, at).putLong(value, bits);
        return r;
    }

    /** Writes a literal string segment, ending {@code fromEnd} bits before r's end. */
    static EBitString string(EBitString r, long fromEnd, byte[] s) {
        long at = (long) r.arrayOffset() * 8 + r.bitSize() - fromEnd;
        new BitWriter(r.array(), at).putBytes(s, 0, s.length);
        return r;
    }
}
