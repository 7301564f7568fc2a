package org.jbeam.jit;

import static java.lang.constant.ConstantDescs.*;
import static org.jbeam.jit.JitCompiler.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;
import java.lang.constant.MethodTypeDesc;

import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.loader.Opcodes;
import org.jbeam.term.EFloat;

/**
 * Float code of one generated method (ADR 0029). Float registers are JVM double locals: loaded
 * from the interpreter's {@code fr} array when the method is entered and stored back whenever it
 * returns (and around helpers that may touch {@code fr}), so HotSpot keeps them in machine
 * registers. x registers the {@link FloatPlan} proved float-only are double locals too; the
 * instructions reading them work on doubles and allocate nothing.
 */
final class FloatCode {
    private final MethodBody b;
    private final CodeBuilder c;
    private final FloatPlan plan;
    /** Float registers used by the method (0..nfr-1 become locals). */
    private final int nfr;
    private final int frBase, xBase, tmp;

    FloatCode(MethodBody b, FloatPlan plan, int firstLocal) {
        this.b = b; this.c = b.c; this.plan = plan;
        int m = 0;
        for (int pc = b.lo; pc < b.hi; pc++) m = Math.max(m, maxFr(b.code[pc]));
        nfr = m;
        frBase = firstLocal;
        xBase = frBase + 2 * nfr;
        tmp = xBase + 2 * (plan == null ? 0 : plan.locals());
    }

    /** One more than the highest float register the instruction names. */
    private static int maxFr(Instr in) {
        return switch (in.op) {
            case Ops.FMOVE_RR, Ops.FADD_R, Ops.FSUB_R, Ops.FMUL_R, Ops.FDIV_R -> Math.max(in.d, Math.max(in.a, in.b)) + 1;
            case Ops.FMOVE_RT -> in.a + 1;
            case Ops.FMOVE_TR -> in.d + 1;
            case Opcodes.FCONV -> (in.d & Instr.INDEX_MASK) + 1;
            default -> {
                int r = 0;
                for (int op : new int[] {in.a, in.b, in.c, in.d})
                    if ((op & Instr.KIND_MASK) == Instr.FR) r = Math.max(r, (op & Instr.INDEX_MASK) + 1);
                yield r;
            }
        };
    }

    private int fr(int i) { return frBase + 2 * i; }

    private int xl(int r) { return xBase + 2 * plan.localOf(r); }

    /** Method entry: float registers from the array, planned locals zeroed (the verifier wants them set). */
    void init() {
        reload();
        if (plan != null) for (int k = 0; k < plan.locals(); k++) { c.dconst_0(); c.dstore(xBase + 2 * k); }
        c.dconst_0(); c.dstore(tmp);
    }

    void reload() {
        for (int i = 0; i < nfr; i++) { c.aload(MethodBody.FR); c.loadConstant(i); c.daload(); c.dstore(fr(i)); }
    }

    /** Before leaving the method or running a helper: the array is what everything else reads. */
    void spill() {
        for (int i = 0; i < nfr; i++) { c.aload(MethodBody.FR); c.loadConstant(i); c.dload(fr(i)); c.dastore(); }
    }

    boolean any() { return nfr > 0; }

    /** No x register of the method is a double local (ArithChain leaves such methods alone). */
    boolean noPlannedLocals() { return plan == null || plan.locals() == 0; }

    /** The first local slot above the float locals (ArithChain's long locals start there). */
    int firstFreeLocal() { return tmp + 2; }

    /** Handles the float instructions; false for everything else. */
    boolean instr(int pc, Instr in) {
        switch (in.op) {
            case Ops.FMOVE_RR -> { c.dload(fr(in.a)); c.dstore(fr(in.d)); }
            case Ops.FMOVE_TR -> { source(pc, in.a); c.dstore(fr(in.d)); }
            case Opcodes.FCONV -> { source(pc, in.a); c.dstore(fr(in.d & Instr.INDEX_MASK)); }
            case Ops.FMOVE_RT -> {
                if (plan != null && plan.unboxedDef(pc)) { c.dload(fr(in.a)); c.dstore(xl(in.d)); }
                else b.e.put(in.d, () -> { c.dload(fr(in.a)); box(); });
            }
            case Ops.FADD_R, Ops.FSUB_R, Ops.FMUL_R, Ops.FDIV_R -> {
                c.dload(fr(in.a)); c.dload(fr(in.b));
                op(in.op);
                b.e.call(CD_FLOATS, "check", CD_double, CD_double);
                c.dstore(fr(in.d));
            }
            case Ops.ADD, Ops.SUB, Ops.MUL -> {
                if (plan == null || !plan.floatOp(pc)) return false;
                arith(pc, in);
            }
            case Opcodes.IS_LT, Opcodes.IS_GE, Ops.IS_LT_XK, Ops.IS_GE_XK, Ops.IS_LT_KX, Ops.IS_GE_KX, Ops.IS_LT_XX, Ops.IS_GE_XX -> {
                if (plan == null || !plan.floatOp(pc)) return false;
                compare(pc, in);
            }
            default -> { return false; }
        }
        return true;
    }

    private void op(int op) {
        switch (op) {
            case Ops.FADD_R, Ops.ADD -> c.dadd();
            case Ops.FSUB_R, Ops.SUB -> c.dsub();
            case Ops.FMUL_R, Ops.MUL -> c.dmul();
            default -> c.ddiv();
        }
    }

    private void box() { b.e.support("floatTerm", CD_TERM, CD_double); }

    /** fmove/fconv source: the planned local, else the term converted (badarith for non-numbers). */
    private void source(int pc, int op) {
        if (plan != null && Instr.isX(op) && plan.unboxedUse(pc, Instr.index(op))) c.dload(xl(Instr.index(op)));
        else { b.e.get(op); b.e.call(CD_FLOATS, "toDouble", CD_double, CD_TERM); }
    }

    /** An operand of a double instruction: an x register's local or a float literal (encoded operand). */
    private void operand(int pc, int op) {
        if (Instr.isX(op)) c.dload(xl(Instr.index(op)));
        else c.loadConstant(((EFloat) b.f.module.consts[op & Instr.INDEX_MASK]).value);
    }

    /**
     * {@code +}/{@code -}/{@code *} on doubles. A non-finite result (badarith in Erlang) takes the
     * general path: the operands are boxed into their x registers and the BIF raises, or jumps to
     * the fail label, exactly as it does in the interpreter.
     */
    private void arith(int pc, Instr in) {
        Label slow = c.newLabel(), done = c.newLabel();
        operand(pc, in.a); operand(pc, in.b); op(in.op);
        c.dstore(tmp);
        c.dload(tmp); c.invokestatic(CD_MATH, "abs", MethodTypeDesc.of(CD_double, CD_double));
        c.loadConstant(Double.MAX_VALUE); c.dcmpg(); c.ifgt(slow); // NaN compares greater too
        result(pc, in, () -> c.dload(tmp));
        c.goto_(done);
        c.labelBinding(slow);
        for (int op : new int[] {in.a, in.b}) {
            if (!Instr.isX(op)) continue;
            int r = Instr.index(op);
            b.e.storeX(r, () -> { c.dload(xl(r)); box(); });
        }
        b.bifSlow(pc, in);
        if (Instr.isX(in.d) && plan.unboxedDef(pc)) {
            b.e.loadX(Instr.index(in.d)); b.e.call(CD_FLOATS, "toDouble", CD_double, CD_TERM); c.dstore(xl(Instr.index(in.d)));
        }
        c.labelBinding(done);
    }

    private void result(int pc, Instr in, Runnable value) {
        if (Instr.isX(in.d) && plan.unboxedDef(pc)) { value.run(); c.dstore(xl(Instr.index(in.d))); }
        else b.e.put(in.d, () -> { value.run(); box(); });
    }

    /** {@code <} / {@code >=} of two floats: plain double comparison (Erlang floats are never NaN). */
    private void compare(int pc, Instr in) {
        boolean lt;
        switch (in.op) {
            case Ops.IS_LT_XK, Ops.IS_GE_XK -> { c.dload(xl(in.a)); c.loadConstant(((EFloat) in.t).value); lt = in.op == Ops.IS_LT_XK; }
            case Ops.IS_LT_KX, Ops.IS_GE_KX -> { c.loadConstant(((EFloat) in.t).value); c.dload(xl(in.b)); lt = in.op == Ops.IS_LT_KX; }
            case Ops.IS_LT_XX, Ops.IS_GE_XX -> { c.dload(xl(in.a)); c.dload(xl(in.b)); lt = in.op == Ops.IS_LT_XX; }
            default -> { operand(pc, in.a); operand(pc, in.b); lt = in.op == Opcodes.IS_LT; }
        }
        if (lt) { c.dcmpg(); b.branchTo(in.e, MethodBody.Cond.IFGE); }
        else { c.dcmpl(); b.branchTo(in.e, MethodBody.Cond.IFLT); }
    }
}
