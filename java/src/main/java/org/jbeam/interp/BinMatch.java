package org.jbeam.interp;

import org.jbeam.code.BinSegment;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The binary matching instructions as small static methods with their operands already decoded
 * (ADR 0045). The interpreter ({@link BitSyntax}) and the bytecode tier call the same methods, so
 * the two cannot drift; the tier passes literal sizes, units and flags as constants, and HotSpot
 * inlines each method into the compiled function (each is far below its inlining limits, unlike
 * {@code BitSyntax.execute}'s switch over every bit syntax instruction, which it called before).
 * A method returning a term returns null where the instruction takes its fail label.
 */
final class BinMatch {
    private BinMatch() {}

    static final EAtom ALL = EAtom.of("all");

    /** bs_start_match3/4: the match state to use, or null (not a bitstring). */
    static Term start(Term t) {
        if (t instanceof MatchState ms) return ms;
        if (t instanceof EBitString b) return new MatchState(b);
        return null;
    }

    /** bs_start_match4 with no fail label on a term that is not a bitstring. */
    static ErlangException badmatch(Term t) { return ErlangException.error(ETuple.of(EAtom.BADMATCH, t)); }

    static Term position(Term ms) { return ESmall.of(((MatchState) ms).pos); }

    static void setPosition(Term ms, Term pos) { ((MatchState) ms).pos = ((ESmall) pos).value; }

    static Term tail(Term ms) { return ((MatchState) ms).tail(); }

    static boolean testTail(Term ms, long bits) { return ((MatchState) ms).remaining() == bits; }

    static boolean testUnit(Term ms, int unit) { return ((MatchState) ms).remaining() % unit == 0; }

    /** bs_skip_bits2: false to take the fail label. */
    static boolean skip(Term t, Term size, int unit) {
        MatchState ms = (MatchState) t;
        long n = BitSyntax.segmentBits(size, unit, ms);
        if (n < 0 || n > ms.remaining()) return false;
        ms.pos += n;
        return true;
    }

    /** bs_get_integer2 with any size operand and flags. */
    static Term integer(Term t, Term size, int unit, int flags) {
        MatchState ms = (MatchState) t;
        long n = BitSyntax.segmentBits(size, unit, ms);
        if (n < 0 || n > ms.remaining()) return null;
        return ms.readInteger(n, BitSyntax.little(flags), (flags & BinSegment.FLAG_SIGNED) != 0);
    }

    /** bs_get_integer2 of a literal 1..63 bits, big-endian (the common case: {@code <<A:8, B:16>>}). */
    static Term integerBig(Term t, int bits, boolean signed) {
        MatchState ms = (MatchState) t;
        if (bits > ms.remaining()) return null;
        long v = ms.readBits(bits);
        if (signed && ((v >>> (bits - 1)) & 1) != 0) v -= 1L << bits;
        return ESmall.of(v);
    }

    /** bs_get_binary2: size {@code all} or a size operand. */
    static Term binary(Term t, Term size, int unit) {
        MatchState ms = (MatchState) t;
        long n;
        if (size == ALL) {
            n = ms.remaining();
            if (n % unit != 0) return null;
        } else {
            n = BitSyntax.segmentBits(size, unit, ms);
            if (n < 0 || n > ms.remaining()) return null;
        }
        return ms.readBitString(n);
    }

    /** bs_match_string: false (position unchanged) when the next {@code bits} bits are not {@code s}'s. */
    static boolean string(Term t, long bits, byte[] s) {
        MatchState ms = (MatchState) t;
        if (bits > ms.remaining()) return false;
        long save = ms.pos;
        if ((save & 7) == 0 && (bits & 7) == 0) {
            int at = (int) (save >>> 3), n = (int) (bits >>> 3);
            if (!java.util.Arrays.equals(ms.data, at, at + n, s, 0, n)) return false;
            ms.pos = save + bits;
            return true;
        }
        for (long i = 0; i < bits; i += 8) {
            int k = (int) Math.min(8, bits - i);
            int want = ((s[(int) (i >>> 3)] & 0xFF) >>> (8 - k));
            if ((int) ms.readBits(k) != want) { ms.pos = save; return false; }
        }
        return true;
    }
}
