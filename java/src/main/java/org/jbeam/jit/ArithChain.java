package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.MethodTypeDesc;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.interp.JitSupport;
import org.jbeam.term.ESmall;

/**
 * Integer arithmetic chains in long locals (ADR 0071). A run of two or more integer BIFs in a
 * row ({@code + - * rem div band bor bxor bsl bsr}) writing x registers, where some result is
 * overwritten inside the run before anything else reads it (erlc reuses registers for
 * intermediate values: {@code (S band M) bsl 24} is two instructions through one register), is
 * compiled twice. First an optimistic copy: operands that are small integers become longs, each
 * result stays in a long local instead of a new {@link ESmall} stored into the x array, and only
 * the registers still live at the end of the run are boxed and stored. Then the ordinary code of
 * the same instructions, which every other entry (the dispatch switch, branches) reaches and to
 * which the optimistic copy bails out, at the instruction that cannot stay in longs (an operand
 * that is not a small integer, an overflow, a zero divisor, a shift out of range), after storing
 * the registers computed so far. The ordinary code then does exactly what it always did there,
 * including the fail label of a guard BIF and the error of a body one.
 */
final class ArithChain {
    private ArithChain() {}

    static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit.intChains"));


    /** The end (exclusive) of a chain starting at {@code start}, or {@code start} when none does. */
    static int end(MethodBody b, int start) {
        if (!ENABLED || !b.fl.noPlannedLocals()) return start;
        Set<Integer> written = new HashSet<>();
        int pc = start, overwritten = 0;
        while (pc < b.hi && eligible(b, b.code[pc])) {
            if (!written.add(b.code[pc].d)) overwritten++;
            pc++;
        }
        return pc - start >= 2 && overwritten > 0 ? pc : start;
    }

    private static boolean eligible(MethodBody b, Instr in) {
        switch (in.op) {
            case Ops.ADD, Ops.SUB, Ops.MUL, Ops.REM, Ops.IDIV, Ops.BAND, Ops.BOR, Ops.BXOR, Ops.BSR, Ops.BSL -> { }
            default -> { return false; }
        }
        return Instr.isX(in.d) && operand(b, in.a) && operand(b, in.b);
    }

    /** x and y registers (checked at run time), literal small integers. */
    private static boolean operand(MethodBody b, int op) {
        return Instr.isX(op) || Instr.isY(op) || b.smallLiteral(op) != null;
    }

    /**
     * At instruction {@code start}'s label: the optimistic copy of {@code [start, end)}, then the
     * ordinary code of {@code start} (the loop of MethodBody.emit goes on with the next one).
     */
    static void emitAt(MethodBody b, int start, int end) {
        CodeBuilder c = b.c;
        Label[] ordinary = new Label[end - start];
        ordinary[0] = c.newLabel();
        for (int i = 1; i < ordinary.length; i++) ordinary[i] = b.at(start + i);
        c.labelBinding(b.at(start));
        emit(b, start, end, ordinary, b.fl.firstFreeLocal());
        c.labelBinding(ordinary[0]);
        c.loadConstant(start); c.istore(MethodBody.CUR);
        b.instr(start, b.code[start]);
    }

    /**
     * Emits the optimistic copy of {@code [start, end)}; {@code ordinary[i]} is the label of the
     * ordinary code of instruction {@code start + i}. Leaves with a jump to instruction {@code end}.
     */
    private static void emit(MethodBody b, int start, int end, Label[] ordinary, int firstLocal) {
        CodeBuilder c = b.c;
        if (JitSupport.DEBUG) System.err.println("jit: " + b.f + " integer chain at " + start + ".." + end);
        int ta = firstLocal, tb = firstLocal + 2, tr = firstLocal + 4;
        int next = firstLocal + 6;
        Map<Integer, Integer> slots = new LinkedHashMap<>();   // x register -> its long local
        List<Bailout> bailouts = new ArrayList<>();
        for (int pc = start; pc < end; pc++) {
            Instr in = b.code[pc];
            Label bail = c.newLabel();
            bailouts.add(new Bailout(bail, new LinkedHashMap<>(slots), ordinary[pc - start]));
            load(b, in.a, slots, ta, bail);
            load(b, in.b, slots, tb, bail);
            compute(c, in.op, ta, tb, tr, bail);
            int d = Instr.index(in.d);
            Integer slot = slots.get(d);
            if (slot == null) { slot = next; next += 2; slots.put(d, slot); }
            c.lload(tr); c.lstore(slot);
        }
        store(b, slots);
        b.jump(end);
        for (Bailout o : bailouts) {
            c.labelBinding(o.label);
            store(b, o.pending);
            c.goto_(o.target);
        }
    }

    private record Bailout(Label label, Map<Integer, Integer> pending, Label target) {}

    /** The operand as a long into {@code slot}; to {@code bail} when it is not a small integer. */
    private static void load(MethodBody b, int op, Map<Integer, Integer> slots, int slot, Label bail) {
        CodeBuilder c = b.c;
        if (Instr.isX(op) && slots.containsKey(Instr.index(op))) {
            c.lload(slots.get(Instr.index(op))); c.lstore(slot);
            return;
        }
        ESmall k = b.smallLiteral(op);
        if (k != null) {
            c.loadConstant(k.value); c.lstore(slot);
            return;
        }
        b.e.get(op);
        c.astore(MethodBody.T1);
        c.aload(MethodBody.T1); c.instanceOf(CD_ESMALL); c.ifeq(bail);
        c.aload(MethodBody.T1); c.checkcast(CD_ESMALL); c.getfield(CD_ESMALL, "value", CD_long); c.lstore(slot);
    }

    /** The result into {@code r}, with SmallInts' conditions for staying a small integer. */
    private static void compute(CodeBuilder c, int op, int a, int b, int r, Label bail) {
        switch (op) {
            case Ops.ADD -> {
                c.lload(a); c.lload(b); c.ladd(); c.lstore(r);
                // overflow when both operands differ in sign from the result
                c.lload(a); c.lload(r); c.lxor(); c.lload(b); c.lload(r); c.lxor(); c.land();
                c.lconst_0(); c.lcmp(); c.iflt(bail);
            }
            case Ops.SUB -> {
                c.lload(a); c.lload(b); c.lsub(); c.lstore(r);
                c.lload(a); c.lload(b); c.lxor(); c.lload(a); c.lload(r); c.lxor(); c.land();
                c.lconst_0(); c.lcmp(); c.iflt(bail);
            }
            case Ops.MUL -> {
                c.lload(a); c.lload(b); c.lmul(); c.lstore(r);
                // the high half must be the sign extension of the low one
                c.lload(a); c.lload(b);
                c.invokestatic(CD_MATH, "multiplyHigh", MethodTypeDesc.of(CD_long, CD_long, CD_long));
                c.lload(r); c.loadConstant(63); c.lshr(); c.lcmp(); c.ifne(bail);
            }
            case Ops.REM, Ops.IDIV -> {
                c.lload(b); c.lconst_0(); c.lcmp(); c.ifeq(bail);
                if (op == Ops.IDIV) {   // MIN_VALUE div -1 is a bignum
                    Label ok = c.newLabel();
                    c.lload(b); c.loadConstant(-1L); c.lcmp(); c.ifne(ok);
                    c.lload(a); c.loadConstant(Long.MIN_VALUE); c.lcmp(); c.ifeq(bail);
                    c.labelBinding(ok);
                    c.lload(a); c.lload(b); c.ldiv(); c.lstore(r);
                } else { c.lload(a); c.lload(b); c.lrem(); c.lstore(r); }
            }
            case Ops.BAND -> { c.lload(a); c.lload(b); c.land(); c.lstore(r); }
            case Ops.BOR -> { c.lload(a); c.lload(b); c.lor(); c.lstore(r); }
            case Ops.BXOR -> { c.lload(a); c.lload(b); c.lxor(); c.lstore(r); }
            case Ops.BSR -> {
                shiftInRange(c, b, 63, bail);
                c.lload(a); c.lload(b); c.l2i(); c.lshr(); c.lstore(r);
            }
            case Ops.BSL -> {
                shiftInRange(c, b, 62, bail);
                c.lload(a); c.lload(b); c.l2i(); c.lshl(); c.lstore(r);
                // no bits lost: shifting back gives the operand
                c.lload(r); c.lload(b); c.l2i(); c.lshr(); c.lload(a); c.lcmp(); c.ifne(bail);
            }
            default -> throw new IllegalArgumentException("op " + op);
        }
    }

    /** To {@code bail} unless 0 <= shift <= max. */
    private static void shiftInRange(CodeBuilder c, int shift, int max, Label bail) {
        c.lload(shift); c.lconst_0(); c.lcmp(); c.iflt(bail);
        c.lload(shift); c.loadConstant((long) max); c.lcmp(); c.ifgt(bail);
    }

    /** Boxes the pending registers into the x array. */
    private static void store(MethodBody b, Map<Integer, Integer> pending) {
        CodeBuilder c = b.c;
        for (Map.Entry<Integer, Integer> p : pending.entrySet()) {
            int slot = p.getValue();
            b.e.put(p.getKey(), () -> {
                c.lload(slot);
                c.invokestatic(CD_ESMALL, "of", MethodTypeDesc.of(CD_ESMALL, CD_long));
            });
        }
    }
}
