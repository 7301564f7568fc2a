package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;
import static org.jbeam.loader.Opcodes.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.ClassDesc;

import org.jbeam.code.BinSegment;
import org.jbeam.code.Instr;
import org.jbeam.jit.MethodBody.Cond;
import org.jbeam.term.ESmall;

/**
 * Binary matching in compiled functions (ADR 0045): each instruction becomes a call to its
 * {@code BinMatch} helper with the operands as constants, and a branch on the result to the fail
 * label. Before, every one called {@code BitSyntax.execute} (a switch over all bit syntax
 * instructions, too big for HotSpot to inline), which re-decoded the operands from the
 * instruction object, and then went through the compiled function's dispatch to continue.
 */
final class BitCode {
    private BitCode() {}

    static final ClassDesc CD_BM = desc("org.jbeam.interp.BinMatch");

    /** Emits {@code in}; false when it is not a matching instruction handled here. */
    static boolean emit(MethodBody b, int pc, Instr in) {
        CodeBuilder c = b.c;
        Emit e = b.e;
        switch (in.op) {
            case BS_START_MATCH3, BS_START_MATCH4 -> {
                e.get(in.a); e.call(CD_BM, "start", CD_TERM, CD_TERM); c.astore(MethodBody.T1);
                c.aload(MethodBody.T1);
                if (in.e != 0) b.branchTo(in.e, Cond.IFNULL);
                else {
                    Label ok = c.newLabel();
                    c.ifnonnull(ok);
                    e.get(in.a); e.call(CD_BM, "badmatch", CD_EXC, CD_TERM); c.athrow();
                    c.labelBinding(ok);
                }
                storeT1(b, in.d);
            }
            case BS_GET_POSITION -> e.put(in.d, () -> { e.get(in.a); e.call(CD_BM, "position", CD_TERM, CD_TERM); });
            case BS_SET_POSITION -> { e.get(in.a); e.get(in.b); e.call(CD_BM, "setPosition", CD_void, CD_TERM, CD_TERM); }
            case BS_GET_TAIL -> e.put(in.d, () -> { e.get(in.a); e.call(CD_BM, "tail", CD_TERM, CD_TERM); });
            case BS_TEST_TAIL2 -> {
                e.get(in.a); c.loadConstant((long) in.b); e.call(CD_BM, "testTail", CD_boolean, CD_TERM, CD_long);
                b.branchTo(in.e, Cond.IFEQ);
            }
            case BS_TEST_UNIT -> {
                e.get(in.a); c.loadConstant(in.b); e.call(CD_BM, "testUnit", CD_boolean, CD_TERM, CD_int);
                b.branchTo(in.e, Cond.IFEQ);
            }
            case BS_SKIP_BITS2 -> {
                e.get(in.a); e.get(in.b); c.loadConstant(in.c); e.call(CD_BM, "skip", CD_boolean, CD_TERM, CD_TERM, CD_int);
                b.branchTo(in.e, Cond.IFEQ);
            }
            case BS_GET_INTEGER2 -> {
                int bits = literalBits(b, in);
                if (bits > 0 && bits < 64 && (in.f & (BinSegment.FLAG_LITTLE | BinSegment.FLAG_NATIVE)) == 0) {
                    e.get(in.a); c.loadConstant(bits); c.loadConstant((in.f & BinSegment.FLAG_SIGNED) != 0 ? 1 : 0);
                    e.call(CD_BM, "integerBig", CD_TERM, CD_TERM, CD_int, CD_boolean);
                } else {
                    e.get(in.a); e.get(in.b); c.loadConstant(in.c); c.loadConstant(in.f);
                    e.call(CD_BM, "integer", CD_TERM, CD_TERM, CD_TERM, CD_int, CD_int);
                }
                resultOrFail(b, in);
            }
            case BS_GET_BINARY2 -> {
                e.get(in.a); e.get(in.b); c.loadConstant(in.c); e.call(CD_BM, "binary", CD_TERM, CD_TERM, CD_TERM, CD_int);
                resultOrFail(b, in);
            }
            case BS_MATCH_STRING -> {
                e.get(in.a); c.loadConstant((long) in.b); b.data.load(c, in.o, CD_byte.arrayType());
                e.call(CD_BM, "string", CD_boolean, CD_TERM, CD_long, CD_byte.arrayType());
                b.branchTo(in.e, Cond.IFEQ);
            }
            default -> { return false; }
        }
        return true;
    }

    static final ClassDesc CD_BF = desc("org.jbeam.interp.BinFast"), CD_BITS = desc("org.jbeam.term.EBitString");

    /**
     * bs_create_bin whose segments all have literal sizes (an optional leading append, big-endian
     * integers of at most 64 bits, strings): guards that no segment can fail, then builds the
     * result in place (BinFast); when a guard fails, and for every other construction, the
     * general BinBuild.create through the interpreter's instruction. Emits the whole instruction.
     */
    static boolean create(MethodBody b, int pc, Instr in) {
        BinSegment[] segs = (BinSegment[]) in.o;
        CodeBuilder c = b.c;
        Emit e = b.e;
        boolean append = segs.length > 0 && (segs[0].type() == BinSegment.APPEND || segs[0].type() == BinSegment.PRIVATE_APPEND);
        long total = 0;
        int[] bits = new int[segs.length];
        for (int i = append ? 1 : 0; i < segs.length; i++) {
            BinSegment s = segs[i];
            if (s.type() == BinSegment.STRING) bits[i] = s.string().length * 8;
            else if (s.type() == BinSegment.INTEGER && (s.flags() & (BinSegment.FLAG_LITTLE | BinSegment.FLAG_NATIVE)) == 0
                    && s.size() >= 0 && (s.size() & Instr.KIND_MASK) == Instr.K
                    && b.f.module.consts[s.size() & Instr.INDEX_MASK] instanceof ESmall n && n.value >= 0 && n.value * s.unit() <= 64) {
                bits[i] = (int) (n.value * s.unit());
            } else return false;
            total += bits[i];
        }
        Label generic = c.newLabel();
        for (int i = append ? 1 : 0; i < segs.length; i++) {
            if (segs[i].type() != BinSegment.INTEGER) continue;
            e.get(segs[i].src()); c.instanceOf(CD_ESMALL); c.ifeq(generic);
        }
        if (append) { e.get(segs[0].src()); c.loadConstant(segs[0].unit()); e.call(CD_BF, "appendable", CD_boolean, CD_TERM, CD_int); c.ifeq(generic); }
        final long size = total;
        e.put(in.d, () -> {
            if (append) { c.aload(MethodBody.IT); e.get(segs[0].src()); c.loadConstant(size); e.call(CD_BF, "append", CD_BITS, CD_INTERP, CD_TERM, CD_long); }
            else { c.loadConstant(size); e.call(CD_BF, "fresh", CD_BITS, CD_long); }
            long fromEnd = size;
            for (int i = append ? 1 : 0; i < segs.length; i++) {
                c.loadConstant(fromEnd);
                if (segs[i].type() == BinSegment.INTEGER) {
                    e.get(segs[i].src()); c.loadConstant(bits[i]);
                    e.call(CD_BF, "integer", CD_BITS, CD_BITS, CD_long, CD_TERM, CD_int);
                } else {
                    b.data.load(c, segs[i].string(), CD_byte.arrayType());
                    e.call(CD_BF, "string", CD_BITS, CD_BITS, CD_long, CD_byte.arrayType());
                }
                fromEnd -= bits[i];
            }
        });
        b.jump(pc + 1);
        c.labelBinding(generic);
        c.aload(MethodBody.IT); b.instrObj(pc); c.loadConstant(pc + 1);
        e.support("bitSyntax", CD_int, CD_INTERP, CD_INSTR, CD_int);
        b.continueOrDispatch(pc + 1);
        return true;
    }

    /** The size operand × unit when the size is a literal small integer, else -1. */
    private static int literalBits(MethodBody b, Instr in) {
        if ((in.b & Instr.KIND_MASK) != Instr.K) return -1;
        if (!(b.f.module.consts[in.b & Instr.INDEX_MASK] instanceof ESmall s) || s.value < 0 || s.value > 64) return -1;
        long n = s.value * in.c;
        return n > 64 ? -1 : (int) n;
    }

    /** The helper's result is on the stack: null takes the fail label, anything else goes to the destination. */
    private static void resultOrFail(MethodBody b, Instr in) {
        b.c.astore(MethodBody.T1);
        b.c.aload(MethodBody.T1);
        b.branchTo(in.e, Cond.IFNULL);
        storeT1(b, in.d);
    }

    private static void storeT1(MethodBody b, int dst) {
        b.e.put(dst, () -> b.c.aload(MethodBody.T1));
        b.c.aconst_null(); b.c.astore(MethodBody.T1);
    }
}
