package org.jbeam.interp;

import static org.jbeam.loader.Opcodes.*;

import java.math.BigInteger;

import org.jbeam.code.BinSegment;
import org.jbeam.code.Instr;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The bit syntax instructions: matching (bs_start_match3/4, bs_get_*, bs_skip_*, bs_test_*,
 * bs_match_string, bs_get_tail, positions, utf8/16/32) and construction (bs_create_bin and the
 * older bs_init2, bs_put_*, bs_append family). {@link #execute} returns the next pc, or
 * {@link #NEXT} to continue with the following instruction.
 */
final class BitSyntax {
    private BitSyntax() {}

    static final int NEXT = -1;

    static int execute(Interpreter it, Instr in, int pc) {
        switch (in.op) {
            case BS_START_MATCH3, BS_START_MATCH4 -> { Interpreter.pin();
                Term t = it.get(in.a);
                Term ms = BinMatch.start(t);
                if (ms != null) { it.put(in.d, ms); return NEXT; }
                if (in.e == 0) throw BinMatch.badmatch(t);
                return in.e;
            }
            case BS_GET_POSITION -> { Interpreter.pin(); it.put(in.d, BinMatch.position(it.get(in.a))); return NEXT; }
            case BS_SET_POSITION -> { Interpreter.pin(); BinMatch.setPosition(it.get(in.a), it.get(in.b)); return NEXT; }
            case BS_GET_TAIL -> { Interpreter.pin(); it.put(in.d, BinMatch.tail(it.get(in.a))); return NEXT; }
            case BS_TEST_TAIL2 -> { Interpreter.pin(); return BinMatch.testTail(it.get(in.a), in.b) ? NEXT : in.e; }
            case BS_TEST_UNIT -> { Interpreter.pin(); return BinMatch.testUnit(it.get(in.a), in.b) ? NEXT : in.e; }
            case BS_SKIP_BITS2 -> { Interpreter.pin(); return BinMatch.skip(it.get(in.a), it.get(in.b), in.c) ? NEXT : in.e; }
            case BS_GET_INTEGER2 -> { Interpreter.pin();
                Term v = BinMatch.integer(it.get(in.a), it.get(in.b), in.c, in.f);
                if (v == null) return in.e;
                it.put(in.d, v);
                return NEXT;
            }
            case BS_GET_FLOAT2 -> { Interpreter.pin();
                MatchState ms = (MatchState) it.get(in.a);
                long n = segmentBits(it.get(in.b), in.c, ms);
                if ((n != 16 && n != 32 && n != 64) || n > ms.remaining()) return in.e;
                long save = ms.pos;
                Term raw = ms.readInteger(n, little(in.f), false);
                long bits = raw instanceof ESmall s ? s.value : ((EBig) raw).value.longValue(); // the 64-bit pattern
                double d = n == 64 ? Double.longBitsToDouble(bits) : n == 32 ? Float.intBitsToFloat((int) bits) : Float.float16ToFloat((short) bits);
                if (Double.isNaN(d) || Double.isInfinite(d)) { ms.pos = save; return in.e; }
                it.put(in.d, EFloat.of(d));
                return NEXT;
            }
            case BS_GET_BINARY2 -> { Interpreter.pin();
                Term v = BinMatch.binary(it.get(in.a), it.get(in.b), in.c);
                if (v == null) return in.e;
                it.put(in.d, v);
                return NEXT;
            }
            case BS_MATCH_STRING -> { Interpreter.pin(); return BinMatch.string(it.get(in.a), in.b, (byte[]) in.o) ? NEXT : in.e; }
            case BS_GET_UTF8, BS_SKIP_UTF8 -> { Interpreter.pin();
                MatchState ms = (MatchState) it.get(in.a);
                int cp = Utf.readUtf8(ms);
                if (cp < 0) return in.e;
                if (in.op == BS_GET_UTF8) it.put(in.d, ESmall.of(cp));
                return NEXT;
            }
            case BS_GET_UTF16, BS_SKIP_UTF16 -> { Interpreter.pin();
                MatchState ms = (MatchState) it.get(in.a);
                int cp = Utf.readUtf16(ms, little(in.f));
                if (cp < 0) return in.e;
                if (in.op == BS_GET_UTF16) it.put(in.d, ESmall.of(cp));
                return NEXT;
            }
            case BS_GET_UTF32, BS_SKIP_UTF32 -> { Interpreter.pin();
                MatchState ms = (MatchState) it.get(in.a);
                if (ms.remaining() < 32) return in.e;
                long save = ms.pos;
                Term v = ms.readInteger(32, little(in.f), false);
                long cp = ((ESmall) v).value;
                if (!org.jbeam.bif.IoLists.validCodePoint(cp)) { ms.pos = save; return in.e; }
                if (in.op == BS_GET_UTF32) it.put(in.d, v);
                return NEXT;
            }
            case BS_CREATE_BIN -> { Interpreter.pin();
                Term r = BinBuild.create(it, (BinSegment[]) in.o);
                if (r == null) return in.e != 0 ? in.e : BinBuild.fail(it);
                it.put(in.d, r);
                return NEXT;
            }
            case BS_INIT_WRITABLE -> { Interpreter.pin(); it.x[0] = EBitString.EMPTY; return NEXT; }
            default -> {
                return LegacyBinOps.execute(it, in);
            }
        }
    }

    static boolean little(int flags) {
        return (flags & BinSegment.FLAG_LITTLE) != 0
                || ((flags & BinSegment.FLAG_NATIVE) != 0 && java.nio.ByteOrder.nativeOrder() == java.nio.ByteOrder.LITTLE_ENDIAN);
    }

    /** Size × unit in bits; -1 when the size is not a non-negative integer. */
    static long segmentBits(Term size, int unit, MatchState ms) {
        if (size instanceof ESmall s) {
            if (s.value < 0) return -1;
            long n = s.value * unit;
            if (unit != 0 && n / unit != s.value) return Long.MAX_VALUE;
            return n;
        }
        if (size instanceof EBig b) return b.value.signum() < 0 ? -1 : Long.MAX_VALUE;
        return -1; // not an integer: the match fails
    }

    static BigInteger big(Term t) { return ((EInteger) t).bigValue(); }
}
