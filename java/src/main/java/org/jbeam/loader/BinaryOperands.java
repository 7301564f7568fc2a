package org.jbeam.loader;

import static org.jbeam.loader.Opcodes.*;

import org.jbeam.code.BinSegment;
import org.jbeam.code.Instr;
import org.jbeam.loader.CodeReader.Operand;
import org.jbeam.term.*;

/**
 * Operand resolution for the binary (bit syntax) instructions: matching ({@code bs_start_match*},
 * {@code bs_get_*}, {@code bs_skip_*}, {@code bs_test_*}, {@code bs_match_string}) and construction
 * ({@code bs_create_bin} and the older {@code bs_init2}/{@code bs_put_*}/{@code bs_append} family).
 * Fields: e = fail, a = context/source, b = size, c = unit, f = flags, d = destination.
 */
final class BinaryOperands {
    private BinaryOperands() {}

    static final EAtom ALL = EAtom.of("all"), UNDEFINED = EAtom.of("undefined");

    static void resolve(Transformer tr, int pc, Instr in, Operand[] o) throws LoadError {
        switch (in.op) {
            case BS_START_MATCH3 -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.d = tr.dstOf(o[3], pc); }
            case BS_START_MATCH4 -> {
                in.e = o[0] instanceof Operand.Label ? tr.labelOf(o[0], pc) : 0; // no_fail / resume
                in.a = tr.srcOf(o[2], pc); in.d = tr.dstOf(o[3], pc);
            }
            case BS_GET_POSITION, BS_GET_TAIL -> { in.a = tr.srcOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case BS_SET_POSITION -> { in.a = tr.srcOf(o[0], pc); in.b = tr.srcOf(o[1], pc); }
            case BS_GET_INTEGER2, BS_GET_FLOAT2, BS_GET_BINARY2 -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = size(tr, o[3], pc);
                in.c = tr.uOf(o[4], pc); in.f = tr.uOf(o[5], pc); in.d = tr.dstOf(o[6], pc);
            }
            case BS_SKIP_BITS2 -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = size(tr, o[2], pc);
                in.c = tr.uOf(o[3], pc); in.f = tr.uOf(o[4], pc);
            }
            case BS_TEST_TAIL2, BS_TEST_UNIT -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = tr.uOf(o[2], pc); }
            case BS_MATCH_STRING -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc);
                int bits = tr.uOf(o[2], pc);
                in.b = bits;
                in.o = string(tr, tr.uOf(o[3], pc), (bits + 7) / 8, pc);
            }
            case BS_GET_UTF8, BS_GET_UTF16, BS_GET_UTF32 -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.f = tr.uOf(o[3], pc); in.d = tr.dstOf(o[4], pc);
            }
            case BS_SKIP_UTF8, BS_SKIP_UTF16, BS_SKIP_UTF32 -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.f = tr.uOf(o[3], pc);
            }
            case BS_CREATE_BIN -> {
                in.e = tr.labelOf(o[0], pc); in.c = tr.uOf(o[3], pc); in.d = tr.dstOf(o[4], pc);
                Operand[] l = tr.listOf(o[5], pc);
                if (l.length % 6 != 0) throw tr.badAt(pc, "bs_create_bin segment list length " + l.length);
                BinSegment[] segs = new BinSegment[l.length / 6];
                for (int i = 0; i < segs.length; i++) segs[i] = segment(tr, l, i * 6, pc);
                in.o = segs;
            }
            // --- pre-OTP-25 construction family (still accepted by OTP 25's loader) ---
            case BS_INIT2, BS_INIT_BITS -> { in.e = tr.labelOf(o[0], pc); in.a = size(tr, o[1], pc); in.d = tr.dstOf(o[5], pc); }
            case BS_ADD -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = tr.srcOf(o[2], pc); in.c = tr.uOf(o[3], pc); in.d = tr.dstOf(o[4], pc); }
            case BS_PUT_INTEGER, BS_PUT_BINARY, BS_PUT_FLOAT -> {
                in.e = tr.labelOf(o[0], pc); in.b = size(tr, o[1], pc); in.c = tr.uOf(o[2], pc); in.f = tr.uOf(o[3], pc); in.a = tr.srcOf(o[4], pc);
            }
            case BS_PUT_STRING -> { int len = tr.uOf(o[0], pc); in.o = string(tr, tr.uOf(o[1], pc), len, pc); }
            case BS_APPEND -> {
                in.e = tr.labelOf(o[0], pc); in.b = tr.srcOf(o[1], pc); in.c = tr.uOf(o[4], pc); in.a = tr.srcOf(o[5], pc); in.d = tr.dstOf(o[7], pc);
            }
            case BS_PRIVATE_APPEND -> {
                in.e = tr.labelOf(o[0], pc); in.b = tr.srcOf(o[1], pc); in.c = tr.uOf(o[2], pc); in.a = tr.srcOf(o[3], pc); in.d = tr.dstOf(o[5], pc);
            }
            case BS_UTF8_SIZE, BS_UTF16_SIZE -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.d = tr.dstOf(o[2], pc); }
            case BS_PUT_UTF8, BS_PUT_UTF16, BS_PUT_UTF32 -> { in.e = tr.labelOf(o[0], pc); in.f = tr.uOf(o[1], pc); in.a = tr.srcOf(o[2], pc); }
            default -> throw tr.badAt(pc, "instruction not supported by this loader");
        }
    }

    /** A size operand: register, integer, or the atom 'all' (kept as a constant). */
    private static int size(Transformer tr, Operand o, int pc) throws LoadError {
        return tr.srcOf(o, pc);
    }

    private static byte[] string(Transformer tr, int off, int len, int pc) throws LoadError {
        byte[] s = tr.beam().strings;
        if (off < 0 || len < 0 || off + len > s.length) throw tr.badAt(pc, "string [" + off + "," + len + ") outside StrT");
        return java.util.Arrays.copyOfRange(s, off, off + len);
    }

    private static BinSegment segment(Transformer tr, Operand[] l, int i, int pc) throws LoadError {
        EAtom typeAtom = Operands.atomOf(tr, l[i], pc);
        int type = BinSegment.typeOf(typeAtom.name);
        if (type < 0) throw tr.badAt(pc, "unknown segment type " + typeAtom.name);
        int unit = tr.uOf(l[i + 2], pc);
        int flags = flags(tr, l[i + 3], pc);
        if (type == BinSegment.STRING) {
            int len = (int) ((ESmall) Operands.literal(tr, l[i + 5], pc)).value;
            return new BinSegment(type, unit, flags, 0, len, string(tr, tr.uOf(l[i + 4], pc), len, pc));
        }
        int src = tr.srcOf(l[i + 4], pc);
        int size;
        Operand so = l[i + 5];
        if (so instanceof Operand.Atom a && a.atom() == UNDEFINED) size = BinSegment.SIZE_NONE;
        else if (so instanceof Operand.Atom a && a.atom() == ALL) size = BinSegment.SIZE_ALL;
        else size = tr.srcOf(so, pc);
        return new BinSegment(type, unit, flags, src, size, null);
    }

    private static int flags(Transformer tr, Operand o, int pc) throws LoadError {
        if (o instanceof Operand.U u) return (int) u.value();
        Term t = Operands.literal(tr, o, pc);
        int f = 0;
        while (t instanceof ECons c) {
            if (c.head instanceof EAtom a) {
                switch (a.name) {
                    case "little" -> f |= BinSegment.FLAG_LITTLE;
                    case "signed" -> f |= BinSegment.FLAG_SIGNED;
                    case "native" -> f |= BinSegment.FLAG_NATIVE;
                    default -> {}
                }
            }
            t = c.tail;
        }
        return f;
    }
}
