package org.jbeam.interp;

import static org.jbeam.loader.Opcodes.*;

import org.jbeam.code.BinSegment;
import org.jbeam.code.Instr;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The pre-OTP-25 binary construction instructions (bs_init2, bs_init_bits, bs_put_*, bs_add,
 * bs_append, bs_private_append, bs_utf*_size, bs_put_utf*), still accepted by OTP 25's loader and
 * found in beams compiled by older compilers. bs_init* allocates the exact-size binary and puts it
 * in the destination; the following bs_put_* fill it through the interpreter's writer.
 */
final class LegacyBinOps {
    private LegacyBinOps() {}

    static int execute(Interpreter it, Instr in) {
        switch (in.op) {
            case BS_INIT2, BS_INIT_BITS -> {
                Term sz = it.get(in.a);
                if (!(sz instanceof ESmall s) || s.value < 0) return fail(in);
                long bits = in.op == BS_INIT2 ? s.value * 8 : s.value;
                byte[] buf = new byte[(int) ((bits + 7) >>> 3)];
                it.binWriter = new BitWriter(buf, 0);
                it.put(in.d, new EBitString(buf, 0, bits));
            }
            case BS_ADD -> {
                Term a = it.get(in.a), b = it.get(in.b);
                if (!(a instanceof ESmall x) || !(b instanceof ESmall y) || x.value < 0 || y.value < 0) return fail(in);
                it.put(in.d, ESmall.of(x.value + y.value * in.c));
            }
            case BS_APPEND, BS_PRIVATE_APPEND -> {
                Term bin = it.get(in.a), extra = it.get(in.b);
                if (!(bin instanceof EBitString b) || !(extra instanceof ESmall e) || e.value < 0) return fail(in);
                long bits = b.bitSize() + e.value; // the size operand is already in bits (computed by bs_add)
                byte[] buf = new byte[(int) ((bits + 7) >>> 3)];
                BitWriter w = new BitWriter(buf, 0);
                w.putBits(b);
                it.binWriter = w;
                it.put(in.d, new EBitString(buf, 0, bits));
            }
            case BS_PUT_STRING -> { byte[] s = (byte[]) in.o; it.binWriter.putBytes(s, 0, s.length); }
            case BS_PUT_INTEGER, BS_PUT_BINARY, BS_PUT_FLOAT -> {
                int type = in.op == BS_PUT_INTEGER ? BinSegment.INTEGER : in.op == BS_PUT_BINARY ? BinSegment.BINARY : BinSegment.FLOAT;
                BinSegment seg = new BinSegment(type, in.c, in.f, in.a, in.b, null);
                if (!BinBuild.put(it, it.binWriter, seg)) return fail(in);
            }
            case BS_PUT_UTF8, BS_PUT_UTF16, BS_PUT_UTF32 -> {
                int type = in.op == BS_PUT_UTF8 ? BinSegment.UTF8 : in.op == BS_PUT_UTF16 ? BinSegment.UTF16 : BinSegment.UTF32;
                if (!BinBuild.put(it, it.binWriter, new BinSegment(type, 0, in.f, in.a, BinSegment.SIZE_NONE, null))) return fail(in);
            }
            case BS_UTF8_SIZE, BS_UTF16_SIZE -> {
                if (!(it.get(in.a) instanceof ESmall c) || !org.jbeam.bif.IoLists.validCodePoint(c.value)) return fail(in);
                long v = c.value;
                long size = in.op == BS_UTF8_SIZE ? (v < 0x80 ? 1 : v < 0x800 ? 2 : v < 0x10000 ? 3 : 4) : (v < 0x10000 ? 2 : 4);
                it.put(in.d, ESmall.of(size));
            }
            default -> throw new IllegalStateException("not a binary instruction: " + in.op);
        }
        return BitSyntax.NEXT;
    }

    private static int fail(Instr in) {
        if (in.e != 0) return in.e;
        throw ErlangException.badarg();
    }
}
