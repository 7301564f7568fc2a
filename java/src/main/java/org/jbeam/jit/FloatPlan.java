package org.jbeam.jit;

import static org.jbeam.loader.Opcodes.*;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

import org.jbeam.code.*;
import org.jbeam.term.EFloat;
import org.jbeam.term.Term;

/**
 * Which float values of one compiled method never need a box (ADR 0029). The BEAM compiler moves
 * a float register into an x register whenever a value leaves a float block (for a comparison, a
 * generic {@code +}, a later block), and each such {@code fmove} allocates an {@code EFloat}.
 * When every reader of that x register value is itself a float reader (an {@code fmove}/{@code
 * fconv} back into a float register, or a {@code +}/{@code -}/{@code *} or {@code <}/{@code >=}
 * whose operands are all such values or float literals), the value lives in a JVM double local
 * instead and the x register is never written.
 *
 * <p>Per x register, a reaching-definitions analysis over the method's static control flow
 * decides it: a definition is <em>good</em> when every use it reaches is a float use reached only
 * by good definitions. Anything the analysis does not model reads and writes every register, and
 * every pc control can reach through the generated method's dispatch switch (function entry,
 * return points, catch handlers, targets a helper-run instruction may return) counts as a
 * definition of every register by the interpreter: a value arriving there is in the x array.
 * Only single-method functions are planned (a split function's chunks do not share locals).
 */
final class FloatPlan {
    /** Opcode families the plan can compile with double operands. */
    private static final int NONE = 0, FUSE = 1, FDEF = 2, ARITH = 3, CMP = 4;

    private static final boolean DEBUG = Boolean.getBoolean("jbeam.jit.floatdebug");
    private final Instr[] code;
    private final Term[] consts;
    private final int lo, hi;
    /** Registers that got a double local, and their local number (0, 1, …; -1: none). */
    private final int[] localOf;
    private int locals;
    /** Per pc: this instruction's x register operands are read from (and its x result written to) double locals. */
    private final boolean[] floatOp;
    /** Per pc: the float result written by this instruction stays unboxed. */
    private final boolean[] unboxedDef;

    private FloatPlan(FuncInfo f, Instr[] code, int lo, int hi) {
        this.code = code; this.consts = f.module.consts; this.lo = lo; this.hi = hi;
        floatOp = new boolean[hi - lo];
        unboxedDef = new boolean[hi - lo];
        localOf = new int[maxX(code, lo, hi) + 1];
        Arrays.fill(localOf, -1);
    }

    /** The plan for a whole-function method, or null when nothing can stay unboxed. */
    static FloatPlan of(FuncInfo f, Instr[] code, int[] entries) {
        FloatPlan p = new FloatPlan(f, code, f.start, f.end);
        boolean any = p.analyse(entries);
        if (DEBUG && any) {
            StringBuilder sb = new StringBuilder("jit: unboxed floats in " + f + ":");
            for (int r = 0; r < p.localOf.length; r++) if (p.localOf[r] >= 0) sb.append(" x").append(r);
            System.err.println(sb);
        }
        return any ? p : null;
    }

    int locals() { return locals; }

    /** The double local of x register {@code r} (index among the plan's locals), or -1. */
    int localOf(int r) { return r < localOf.length ? localOf[r] : -1; }

    /** Whether the instruction at pc is compiled on doubles (its x operands/results in locals where planned). */
    boolean floatOp(int pc) { return floatOp[pc - lo]; }

    /** Whether x register operand {@code op} (encoded) of a float instruction at pc is read from its local. */
    boolean unboxedUse(int pc, int r) { return floatOp[pc - lo] && localOf(r) >= 0 && usesLocal[pc - lo] != null && usesLocal[pc - lo].get(r); }

    /** Whether the x register result of the instruction at pc goes to its local only. */
    boolean unboxedDef(int pc) { return unboxedDef[pc - lo]; }

    private BitSet[] usesLocal;

    // ---- the instruction model ----

    /** x registers an instruction reads ({@code all}: every register) and writes. */
    private static final class Effect {
        final List<Integer> uses = new ArrayList<>(2), defs = new ArrayList<>(2);
        boolean useAll, defAll;
        int kind = NONE;
        /** FDEF/ARITH: the x register written with a float (-1: not an x register). */
        int fdef = -1;
    }

    private static boolean isX(int op) { return (op & Instr.KIND_MASK) == Instr.X; }

    private boolean floatConst(int op) {
        return (op & Instr.KIND_MASK) == Instr.K && consts[op & Instr.INDEX_MASK] instanceof EFloat;
    }

    /** An operand a float instruction can take: an x register or a float literal (encoded). */
    private boolean floatOperand(int op) { return isX(op) || floatConst(op); }

    private Effect effect(int pc) {
        Instr in = code[pc];
        Effect e = new Effect();
        switch (in.op) {
            case Ops.MOVE_XX -> { e.uses.add(in.a); e.defs.add(in.d); }
            case Ops.MOVE_XY -> e.uses.add(in.a);
            case Ops.MOVE_YX, Ops.MOVE_KX -> e.defs.add(in.d);
            case MOVE -> { use(e, in.a); def(e, in.d); }
            case Ops.MOVE_XY_XX -> { e.uses.add(in.a); e.uses.add(in.b); e.defs.add(in.c); }
            case Ops.MOVE_XX_XX -> { e.uses.add(in.a); e.uses.add(in.b); e.defs.add(in.d); e.defs.add(in.c); }
            case Ops.MOVE_XY_XX_CALL -> { e.uses.add(in.a); e.uses.add(in.b); args(e, in.f); e.defAll = true; }
            case CALL, CALL_LAST, CALL_ONLY, CALL_EXT, CALL_EXT_LAST, CALL_EXT_ONLY -> { args(e, in.a); e.defAll = true; }
            case CALL_FUN -> { args(e, in.a + 1); e.defAll = true; }
            case CALL_FUN2 -> { args(e, in.a); use(e, in.b); e.defAll = true; }
            case RETURN, Ops.DEALLOCATE_RETURN -> e.uses.add(0);
            case Ops.ADD, Ops.SUB, Ops.MUL -> {
                use(e, in.a); use(e, in.b);
                if (floatOperand(in.a) && floatOperand(in.b) && (isX(in.a) || isX(in.b))) {
                    e.kind = ARITH;
                    if (isX(in.d)) e.fdef = in.d;
                } else def(e, in.d);
            }
            case Ops.REM, Ops.IDIV, Ops.BAND, Ops.BOR, Ops.BXOR, Ops.BSR, Ops.BSL, Ops.ELEMENT -> { use(e, in.a); use(e, in.b); def(e, in.d); }
            case IS_LT, IS_GE -> {
                use(e, in.a); use(e, in.b);
                if (floatOperand(in.a) && floatOperand(in.b) && (isX(in.a) || isX(in.b))) e.kind = CMP;
            }
            case Ops.IS_LT_XK, Ops.IS_GE_XK -> { e.uses.add(in.a); if (in.t instanceof EFloat) e.kind = CMP; }
            case Ops.IS_LT_KX, Ops.IS_GE_KX -> { e.uses.add(in.b); if (in.t instanceof EFloat) e.kind = CMP; }
            case Ops.IS_LT_XX, Ops.IS_GE_XX -> { e.uses.add(in.a); e.uses.add(in.b); e.kind = CMP; }
            case IS_INTEGER, IS_FLOAT, IS_NUMBER, IS_ATOM, IS_PID, IS_REFERENCE, IS_PORT, IS_NIL, IS_BINARY, IS_LIST,
                 IS_NONEMPTY_LIST, IS_TUPLE, IS_FUNCTION, IS_BOOLEAN, IS_BITSTR, IS_MAP, TEST_ARITY, IS_TAGGED_TUPLE -> use(e, in.a);
            case Ops.IS_NONEMPTY_LIST_X, Ops.TEST_ARITY_X, Ops.IS_TUPLE_ARITY, Ops.IS_EQ_EXACT_XA, Ops.IS_NE_EXACT_XA,
                 Ops.IS_EQ_EXACT_XI, Ops.IS_NE_EXACT_XI -> e.uses.add(in.a);
            case IS_EQ, IS_NE, IS_EQ_EXACT, IS_NE_EXACT, IS_FUNCTION2 -> { use(e, in.a); use(e, in.b); }
            case Ops.IS_NONEMPTY_LIST_GET -> { e.uses.add(in.a); e.defs.add(in.b); e.defs.add(in.c); }
            case GET_LIST, Ops.GET_LIST_XXX -> { use(e, in.a); def(e, in.b); def(e, in.c); }
            case GET_HD, GET_TL, GET_TUPLE_ELEMENT, Ops.GET_TUPLE_ELEMENT_XX -> { use(e, in.a); def(e, in.d); }
            case PUT_LIST, Ops.PUT_LIST_XXX -> { use(e, in.a); use(e, in.b); def(e, in.d); }
            case PUT_TUPLE2 -> { for (int s : (int[]) in.o) use(e, s); def(e, in.d); }
            case SWAP -> { use(e, in.a); use(e, in.b); def(e, in.a); def(e, in.b); }
            case INIT, CATCH, TRY, TRY_END -> def(e, in.d);
            case Ops.FMOVE_RR, Ops.FADD_R, Ops.FSUB_R, Ops.FMUL_R, Ops.FDIV_R, ALLOCATE, ALLOCATE_ZERO, ALLOCATE_HEAP,
                 ALLOCATE_HEAP_ZERO, DEALLOCATE, TRIM, INIT_YREGS, JUMP -> {}
            case Ops.FMOVE_TR, FCONV -> { use(e, in.a); if (isX(in.a)) e.kind = FUSE; }
            case Ops.FMOVE_RT -> { if (isX(in.d)) { e.kind = FDEF; e.fdef = in.d; } }
            default -> { e.useAll = true; e.defAll = true; }
        }
        return e;
    }

    private static void use(Effect e, int op) { if (isX(op)) e.uses.add(op & Instr.INDEX_MASK); }

    private static void def(Effect e, int op) { if (isX(op)) e.defs.add(op & Instr.INDEX_MASK); }

    private static void args(Effect e, int n) { for (int i = 0; i < n; i++) e.uses.add(i); }

    /**
     * Static successors: every {@code goto} the generated code can take from this instruction
     * (an extra edge only makes the analysis more conservative; a missing one would be wrong).
     */
    private int[] succs(int pc) {
        Instr in = code[pc];
        int[] s = new int[3];
        int n = 0;
        switch (in.op) {
            case RETURN, Ops.DEALLOCATE_RETURN -> {}
            case JUMP -> s[n++] = in.a;
            case CALL, CALL_LAST, CALL_ONLY -> s[n++] = in.b;
            case Ops.MOVE_XY_XX_CALL -> s[n++] = in.e;
            // fused pairs skip their second instruction
            case Ops.MOVE_XY_XX, Ops.MOVE_XX_XX, Ops.IS_NONEMPTY_LIST_GET, Ops.IS_TUPLE_ARITY -> { s[n++] = pc + 2; s[n++] = pc + 1; }
            default -> s[n++] = pc + 1;
        }
        if (in.e > 0) s[n++] = in.e;
        int k = 0;
        for (int i = 0; i < n; i++) if (s[i] >= lo && s[i] < hi) s[k++] = s[i];
        return Arrays.copyOf(s, k);
    }

    /**
     * Pcs where compiled code may arrive through its dispatch switch, i.e. with values in the x
     * array: entries, catch handlers, and every pc an instruction run by a helper (which then
     * dispatches on the pc it returns) refers to.
     */
    private BitSet dispatchTargets(int[] entries, Effect[] fx) {
        BitSet j = new BitSet();
        for (int pc : entries) mark(j, pc);
        for (int pc = lo; pc < hi; pc++) {
            Instr in = code[pc];
            if (in.op == CATCH || in.op == TRY) mark(j, in.a);
            // Unmodelled instructions (run by helpers, some of which dispatch on the pc they return)
            // and external/fun calls: any label they hold may be reached through the switch.
            boolean helper = fx[pc - lo].useAll || in.op == CALL_EXT || in.op == CALL_EXT_LAST || in.op == CALL_EXT_ONLY
                    || in.op == CALL_FUN || in.op == CALL_FUN2;
            if (!helper) continue;
            mark(j, pc + 1);
            mark(j, in.a); mark(j, in.b); mark(j, in.c); mark(j, in.d); mark(j, in.e); mark(j, in.f);
            if (in.o instanceof int[] xs) for (int v : xs) mark(j, v);
            if (in.o instanceof SelectTable t) for (int v : t.targets()) mark(j, v);
        }
        return j;
    }

    private void mark(BitSet j, int pc) { if (pc >= lo && pc < hi) j.set(pc - lo); }

    // ---- the analysis ----

    private boolean analyse(int[] entries) {
        int n = hi - lo;
        Effect[] fx = new Effect[n];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            fx[i] = effect(lo + i);
            if (fx[i].fdef >= 0) any = true;
        }
        if (!any) return false;
        int[][] succ = new int[n][];
        for (int i = 0; i < n; i++) succ[i] = succs(lo + i);
        BitSet j = dispatchTargets(entries, fx);
        // The registers that ever receive a float, and their definition sites (ids per register).
        BitSet regs = new BitSet();
        for (Effect e : fx) if (e.fdef >= 0) regs.set(e.fdef);
        boolean[] ok = new boolean[n]; // ARITH/CMP still compiled on doubles
        for (int i = 0; i < n; i++) ok[i] = fx[i].kind == ARITH || fx[i].kind == CMP;
        // Reaching definitions per register do not depend on the outcome, so compute them once.
        List<Reach> reach = new ArrayList<>();
        BitSet planned = new BitSet();
        for (int r = regs.nextSetBit(0); r >= 0; r = regs.nextSetBit(r + 1)) {
            Reach re = reaching(r, fx, succ, j);
            if (re != null) { reach.add(re); planned.set(r); }
        }
        // A double operation needs every x operand in a local: one that never holds a planned
        // float (an argument, say) keeps the instruction on terms.
        for (int i = 0; i < n; i++) {
            if (!ok[i]) continue;
            for (int r : fx[i].uses) if (!planned.get(r)) ok[i] = false;
        }
        // Demote until stable: a use that is not (or no longer) a float use, or that is reached by
        // the interpreter's value or a boxed definition, makes every definition reaching it boxed.
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Reach re : reach) {
                for (int i = 0; i < n; i++) {
                    if (!re.used(fx[i], i)) continue;
                    long in = re.in[i];
                    boolean floatUse = fx[i].kind == FUSE || ((fx[i].kind == ARITH || fx[i].kind == CMP) && ok[i]);
                    boolean fine = floatUse && in != 0 && (in & Reach.BAD) == 0 && (in & re.bad) == 0;
                    if (fine) continue;
                    if ((in & ~Reach.BAD & ~re.bad) != 0) { re.bad |= in & ~Reach.BAD; changed = true; }
                    if (ok[i] && fx[i].kind != FUSE) { ok[i] = false; changed = true; }
                }
                // An arithmetic instruction no longer on doubles boxes its result.
                for (int k = 0; k < re.sites.length; k++) {
                    int i = re.sites[k];
                    if (fx[i].kind == ARITH && !ok[i] && (re.bad & (1L << k)) == 0) { re.bad |= 1L << k; changed = true; }
                }
            }
        }
        if (DEBUG && Boolean.getBoolean("jbeam.jit.floatdebug.all")) {
            for (Reach re : reach) System.err.println("floatplan " + lo + " x" + re.reg + " sites=" + Arrays.toString(re.sites) + " bad=" + Long.toBinaryString(re.bad));
            for (int i = 0; i < n; i++) System.err.println("  " + (lo + i) + " " + code[lo + i] + " ok=" + ok[i] + " kind=" + fx[i].kind + " j=" + j.get(i) + " all=" + fx[i].useAll);
        }
        usesLocal = new BitSet[n];
        for (int i = 0; i < n; i++) floatOp[i] = fx[i].kind == FUSE || fx[i].kind == FDEF || ok[i];
        boolean used = false;
        for (Reach re : reach) {
            boolean regUsed = false;
            for (int k = 0; k < re.sites.length; k++) {
                if ((re.bad & (1L << k)) != 0) continue;
                unboxedDef[re.sites[k]] = true;
                regUsed = true;
            }
            if (!regUsed) continue;
            used = true;
            localOf[re.reg] = locals++;
            for (int i = 0; i < n; i++) {
                if (!re.used(fx[i], i) || !floatOp[i]) continue;
                long in = re.in[i];
                if (in != 0 && (in & Reach.BAD) == 0 && (in & re.bad) == 0) {
                    if (usesLocal[i] == null) usesLocal[i] = new BitSet();
                    usesLocal[i].set(re.reg);
                }
            }
        }
        return used;
    }

    /** Reaching definitions of one register: bit k = the k-th float definition site, BAD = any other write. */
    private static final class Reach {
        static final long BAD = Long.MIN_VALUE;
        final int reg;
        final int[] sites;
        final long[] in;
        long bad;

        Reach(int reg, int[] sites, int n) { this.reg = reg; this.sites = sites; this.in = new long[n]; }

        boolean used(Effect e, int i) { return e.useAll || e.uses.contains(reg); }
    }

    private Reach reaching(int r, Effect[] fx, int[][] succ, BitSet j) {
        int n = fx.length;
        List<Integer> s = new ArrayList<>();
        for (int i = 0; i < n; i++) if (fx[i].fdef == r) s.add(i);
        if (s.size() > 62) return null;
        int[] sites = s.stream().mapToInt(Integer::intValue).toArray();
        long[] gen = new long[n];
        boolean[] kills = new boolean[n];
        for (int i = 0; i < n; i++) {
            Effect e = fx[i];
            if (e.fdef == r) { gen[i] = 1L << s.indexOf(i); kills[i] = true; }
            else if (e.defAll || e.defs.contains(r)) { gen[i] = Reach.BAD; kills[i] = true; }
        }
        Reach re = new Reach(r, sites, n);
        for (int i = j.nextSetBit(0); i >= 0; i = j.nextSetBit(i + 1)) re.in[i] |= Reach.BAD;
        ArrayDeque<Integer> work = new ArrayDeque<>();
        boolean[] queued = new boolean[n];
        for (int i = 0; i < n; i++) { work.add(i); queued[i] = true; }
        while (!work.isEmpty()) {
            int i = work.poll();
            queued[i] = false;
            long out = kills[i] ? gen[i] : re.in[i];
            for (int t : succ[i]) {
                int k = t - lo;
                long merged = re.in[k] | out;
                if (merged != re.in[k]) {
                    re.in[k] = merged;
                    if (!queued[k]) { queued[k] = true; work.add(k); }
                }
            }
        }
        return re;
    }

    private static int maxX(Instr[] code, int lo, int hi) {
        int m = 0;
        for (int pc = lo; pc < hi; pc++) {
            Instr in = code[pc];
            if (in.op == Ops.FMOVE_RT && isX(in.d)) m = Math.max(m, in.d & Instr.INDEX_MASK);
            if ((in.op == Ops.ADD || in.op == Ops.SUB || in.op == Ops.MUL) && isX(in.d)) m = Math.max(m, in.d & Instr.INDEX_MASK);
        }
        return m;
    }
}
