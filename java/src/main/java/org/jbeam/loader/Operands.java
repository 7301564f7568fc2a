package org.jbeam.loader;

import static org.jbeam.loader.Opcodes.*;

import org.jbeam.code.*;
import org.jbeam.loader.CodeReader.Operand;
import org.jbeam.term.*;

/**
 * Per-opcode operand resolution: fills each {@link Instr}'s fields from its decoded operands.
 * Field conventions (read by the interpreter): {@code e} = fail label (0: raise),
 * {@code a,b,c} = sources, {@code d} = destination, {@code o}/{@code t} = auxiliary data.
 */
final class Operands {
    private Operands() {}

    static void resolveAll(Transformer tr) throws LoadError {
        for (int pc = 0; pc < tr.size(); pc++) {
            Instr in = tr.instr(pc);
            resolve(tr, pc, in, tr.ops(pc));
            specialiseKinds(tr, in);
        }
        for (int pc = 0; pc + 1 < tr.size(); pc++) {
            Instr first = tr.instr(pc);
            // call_fun / call_fun2 + deallocate D + return: a tail call, as erts' loader makes it
            // (i_call_fun_last): no return address, the frame dropped first (c = D). Loops through
            // funs then run in constant stack and stack traces skip the caller, as on erts.
            if ((first.op == CALL_FUN || first.op == CALL_FUN2) && pc + 2 < tr.size()
                    && tr.instr(pc + 1).op == DEALLOCATE && tr.instr(pc + 2).op == RETURN) {
                first.ret = null;
                first.c = tr.instr(pc + 1).a;
            }
            fuse(first, tr.instr(pc + 1));
            // move x->y + move x->x + call: the argument set-up and the call of a body recursion.
            if (first.op == Ops.MOVE_XY_XX && pc + 2 < tr.size() && tr.instr(pc + 2).op == CALL) {
                Instr call = tr.instr(pc + 2);
                first.op = Ops.MOVE_XY_XX_CALL; first.e = call.b; first.f = call.a; first.ret = call.ret;
            }
        }
    }

    /**
     * Superinstructions for common pairs that cannot fail halfway: the first instruction takes an
     * opcode that also performs the second and skips it. The second instruction stays in place
     * (labels may point at it), so behaviour is unchanged when it is reached by a jump.
     */
    private static void fuse(Instr first, Instr next) {
        switch (first.op) {
            case Ops.IS_NONEMPTY_LIST_X -> {
                if (next.op == Ops.GET_LIST_XXX && next.a == first.a) {
                    first.op = Ops.IS_NONEMPTY_LIST_GET; first.b = next.b; first.c = next.c;
                }
            }
            case DEALLOCATE -> { if (next.op == RETURN) first.op = Ops.DEALLOCATE_RETURN; }
            case Ops.MOVE_XY, Ops.MOVE_XX -> {
                if (next.op == Ops.MOVE_XX) {
                    first.op = first.op == Ops.MOVE_XY ? Ops.MOVE_XY_XX : Ops.MOVE_XX_XX; first.b = next.a; first.c = next.d;
                }
            }
            case IS_TUPLE -> {
                if (next.op == Ops.TEST_ARITY_X && Instr.isX(first.a) && next.a == first.a && next.e == first.e) {
                    first.op = Ops.IS_TUPLE_ARITY; first.b = next.b;
                }
            }
            default -> {}
        }
    }

    /**
     * Picks an operand-kind specialised opcode ({@link Ops}) for the hottest instructions, so the
     * interpreter's common cases index the registers directly instead of decoding the kind.
     */
    private static void specialiseKinds(Transformer tr, Instr in) {
        switch (in.op) {
            case MOVE -> {
                int a = in.a, d = in.d;
                if (Instr.isX(d)) {
                    if (Instr.isX(a)) in.op = Ops.MOVE_XX;
                    else if (Instr.isY(a)) { in.op = Ops.MOVE_YX; in.a = Instr.index(a); }
                    else if ((a & Instr.KIND_MASK) == Instr.K) { in.op = Ops.MOVE_KX; in.t = tr.constant(a); }
                } else if (Instr.isY(d) && Instr.isX(a)) { in.op = Ops.MOVE_XY; in.d = Instr.index(d); }
            }
            case IS_LT, IS_GE -> {
                boolean lt = in.op == IS_LT;
                if (Instr.isX(in.a) && Instr.isX(in.b)) in.op = lt ? Ops.IS_LT_XX : Ops.IS_GE_XX;
                else if (Instr.isX(in.a) && isK(in.b)) { in.op = lt ? Ops.IS_LT_XK : Ops.IS_GE_XK; in.t = tr.constant(in.b); }
                else if (isK(in.a) && Instr.isX(in.b)) { in.op = lt ? Ops.IS_LT_KX : Ops.IS_GE_KX; in.t = tr.constant(in.a); }
            }
            case IS_EQ_EXACT, IS_NE_EXACT -> {
                boolean eq = in.op == IS_EQ_EXACT;
                if (Instr.isX(in.a) && isK(in.b) && tr.constant(in.b) instanceof EAtom atom) {
                    in.op = eq ? Ops.IS_EQ_EXACT_XA : Ops.IS_NE_EXACT_XA; in.t = atom;
                } else if (Instr.isX(in.b) && isK(in.a) && tr.constant(in.a) instanceof EAtom atom) {
                    in.op = eq ? Ops.IS_EQ_EXACT_XA : Ops.IS_NE_EXACT_XA; in.t = atom; in.a = in.b;
                }
                else if (Instr.isX(in.a) && isK(in.b) && tr.constant(in.b) instanceof ESmall k && k.value == (int) k.value) {
                    in.op = eq ? Ops.IS_EQ_EXACT_XI : Ops.IS_NE_EXACT_XI; in.f = (int) k.value;
                } else if (Instr.isX(in.b) && isK(in.a) && tr.constant(in.a) instanceof ESmall k && k.value == (int) k.value) {
                    in.op = eq ? Ops.IS_EQ_EXACT_XI : Ops.IS_NE_EXACT_XI; in.f = (int) k.value; in.a = in.b;
                }
            }
            case IS_NONEMPTY_LIST -> { if (Instr.isX(in.a)) in.op = Ops.IS_NONEMPTY_LIST_X; }
            case GET_LIST -> { if (Instr.isX(in.a) && Instr.isX(in.b) && Instr.isX(in.c)) in.op = Ops.GET_LIST_XXX; }
            case PUT_LIST -> { if (Instr.isX(in.a) && Instr.isX(in.b) && Instr.isX(in.d)) in.op = Ops.PUT_LIST_XXX; }
            case GET_TUPLE_ELEMENT -> { if (Instr.isX(in.a) && Instr.isX(in.d)) in.op = Ops.GET_TUPLE_ELEMENT_XX; }
            case TEST_ARITY -> { if (Instr.isX(in.a)) in.op = Ops.TEST_ARITY_X; }
            case FMOVE -> {
                boolean srcFr = isFr(in.a), dstFr = isFr(in.d);
                if (srcFr && dstFr) { in.op = Ops.FMOVE_RR; in.a = Instr.index(in.a); in.d = Instr.index(in.d); }
                else if (srcFr) { in.op = Ops.FMOVE_RT; in.a = Instr.index(in.a); }
                else if (dstFr) { in.op = Ops.FMOVE_TR; in.d = Instr.index(in.d); }
            }
            case FADD, FSUB, FMUL, FDIV -> {
                if (isFr(in.a) && isFr(in.b) && isFr(in.d)) {
                    in.op = switch (in.op) { case FADD -> Ops.FADD_R; case FSUB -> Ops.FSUB_R; case FMUL -> Ops.FMUL_R; default -> Ops.FDIV_R; };
                    in.a = Instr.index(in.a); in.b = Instr.index(in.b); in.d = Instr.index(in.d);
                }
            }
            default -> {}
        }
    }

    private static boolean isFr(int operand) { return (operand & Instr.KIND_MASK) == Instr.FR; }

    private static boolean isK(int operand) { return (operand & Instr.KIND_MASK) == Instr.K; }

    private static void resolve(Transformer tr, int pc, Instr in, Operand[] o) throws LoadError {
        switch (in.op) {
            case INT_CODE_END, RETURN, SEND, REMOVE_MESSAGE, TIMEOUT, IF_END, BUILD_STACKTRACE, RAW_RAISE,
                 ON_LOAD, BS_INIT_WRITABLE -> {}
            case FUNC_INFO -> {
                if (!(o[1] instanceof Operand.Atom f)) throw tr.badAt(pc, "func_info name is not an atom");
                in.t = f.atom();
                in.c = tr.uOf(o[2], pc);
            }
            case CALL -> { in.a = tr.uOf(o[0], pc); in.b = tr.labelOf(o[1], pc); in.ret = tr.retOf(pc); }
            case CALL_LAST -> { in.a = tr.uOf(o[0], pc); in.b = tr.labelOf(o[1], pc); in.c = tr.uOf(o[2], pc); }
            case CALL_ONLY -> { in.a = tr.uOf(o[0], pc); in.b = tr.labelOf(o[1], pc); }
            case CALL_EXT -> { in.a = tr.uOf(o[0], pc); in.o = tr.importOf(o[1], pc); in.ret = tr.retOf(pc); }
            case CALL_EXT_LAST -> { in.a = tr.uOf(o[0], pc); in.o = tr.importOf(o[1], pc); in.c = tr.uOf(o[2], pc); }
            case CALL_EXT_ONLY -> { in.a = tr.uOf(o[0], pc); in.o = tr.importOf(o[1], pc); }
            case BIF0 -> { in.o = tr.importOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case BIF1 -> { in.e = tr.labelOf(o[0], pc); in.o = tr.importOf(o[1], pc); in.a = tr.srcOf(o[2], pc); in.d = tr.dstOf(o[3], pc); }
            case BIF2 -> {
                in.e = tr.labelOf(o[0], pc); in.o = tr.importOf(o[1], pc); in.a = tr.srcOf(o[2], pc); in.b = tr.srcOf(o[3], pc); in.d = tr.dstOf(o[4], pc);
                specialise(in);
            }
            case GC_BIF1 -> { in.e = tr.labelOf(o[0], pc); in.o = tr.importOf(o[2], pc); in.a = tr.srcOf(o[3], pc); in.d = tr.dstOf(o[4], pc); }
            case GC_BIF2 -> {
                in.e = tr.labelOf(o[0], pc); in.o = tr.importOf(o[2], pc); in.a = tr.srcOf(o[3], pc); in.b = tr.srcOf(o[4], pc); in.d = tr.dstOf(o[5], pc);
                specialise(in);
            }
            case GC_BIF3 -> { in.e = tr.labelOf(o[0], pc); in.o = tr.importOf(o[2], pc); in.a = tr.srcOf(o[3], pc); in.b = tr.srcOf(o[4], pc); in.c = tr.srcOf(o[5], pc); in.d = tr.dstOf(o[6], pc); }
            case ALLOCATE, ALLOCATE_ZERO, ALLOCATE_HEAP, ALLOCATE_HEAP_ZERO -> in.a = tr.uOf(o[0], pc);
            case INIT -> in.d = tr.dstOf(o[0], pc);
            case DEALLOCATE -> in.a = tr.uOf(o[0], pc);
            case TRIM -> { in.a = tr.uOf(o[0], pc); in.b = tr.uOf(o[1], pc); }
            case LOOP_REC -> { in.a = tr.labelOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case LOOP_REC_END, WAIT, JUMP -> in.a = tr.labelOf(o[0], pc);
            case WAIT_TIMEOUT -> { in.a = tr.labelOf(o[0], pc); in.b = tr.srcOf(o[1], pc); }
            case IS_LT, IS_GE, IS_EQ, IS_NE, IS_EQ_EXACT, IS_NE_EXACT -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = tr.srcOf(o[2], pc);
            }
            case IS_INTEGER, IS_FLOAT, IS_NUMBER, IS_ATOM, IS_PID, IS_REFERENCE, IS_PORT, IS_NIL, IS_BINARY, IS_LIST,
                 IS_NONEMPTY_LIST, IS_TUPLE, IS_FUNCTION, IS_BOOLEAN, IS_BITSTR, IS_MAP -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc);
            }
            case IS_FUNCTION2 -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = tr.srcOf(o[2], pc); }
            case TEST_ARITY -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = tr.uOf(o[2], pc); }
            case IS_TAGGED_TUPLE -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.b = tr.uOf(o[2], pc);
                in.t = atomOf(tr, o[3], pc);
            }
            case SELECT_VAL, SELECT_TUPLE_ARITY -> {
                in.a = tr.srcOf(o[0], pc); in.e = tr.labelOf(o[1], pc);
                Operand[] l = tr.listOf(o[2], pc);
                if (l.length % 2 != 0) throw tr.badAt(pc, "odd select list");
                Term[] vals = new Term[l.length / 2];
                int[] targets = new int[l.length / 2];
                for (int i = 0; i < vals.length; i++) {
                    vals[i] = literal(tr, l[2 * i], pc);
                    targets[i] = tr.labelOf(l[2 * i + 1], pc);
                }
                in.o = new SelectTable(vals, targets);
            }
            case CATCH, TRY -> { in.d = tr.dstOf(o[0], pc); in.a = tr.labelOf(o[1], pc); }
            case CATCH_END, TRY_END, TRY_CASE -> in.d = tr.dstOf(o[0], pc);
            case TRY_CASE_END, BADMATCH, CASE_END, BADRECORD -> in.a = tr.srcOf(o[0], pc);
            case MOVE -> { in.a = tr.srcOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case SWAP -> { in.a = tr.dstOf(o[0], pc); in.b = tr.dstOf(o[1], pc); }
            case GET_LIST -> { in.a = tr.srcOf(o[0], pc); in.b = tr.dstOf(o[1], pc); in.c = tr.dstOf(o[2], pc); }
            case GET_HD, GET_TL -> { in.a = tr.srcOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case GET_TUPLE_ELEMENT -> { in.a = tr.srcOf(o[0], pc); in.b = tr.uOf(o[1], pc); in.d = tr.dstOf(o[2], pc); }
            case SET_TUPLE_ELEMENT -> { in.a = tr.srcOf(o[0], pc); in.b = tr.dstOf(o[1], pc); in.c = tr.uOf(o[2], pc); }
            case PUT_LIST -> { in.a = tr.srcOf(o[0], pc); in.b = tr.srcOf(o[1], pc); in.d = tr.dstOf(o[2], pc); }
            case PUT_TUPLE2 -> { in.d = tr.dstOf(o[0], pc); in.o = tr.srcListOf(o[1], pc); }
            case CALL_FUN, APPLY -> { in.a = tr.uOf(o[0], pc); in.ret = tr.retOf(pc); }
            case APPLY_LAST -> { in.a = tr.uOf(o[0], pc); in.c = tr.uOf(o[1], pc); }
            case CALL_FUN2 -> { in.a = tr.uOf(o[1], pc); in.b = tr.srcOf(o[2], pc); in.ret = tr.retOf(pc); }
            case MAKE_FUN2 -> in.b = funIndex(tr, o[0], pc);
            case MAKE_FUN3 -> { in.b = funIndex(tr, o[0], pc); in.d = tr.dstOf(o[1], pc); in.o = tr.srcListOf(o[2], pc); }
            case RAISE -> { in.a = tr.srcOf(o[0], pc); in.b = tr.srcOf(o[1], pc); }
            case FMOVE -> { in.a = tr.srcOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case FCONV -> { in.a = tr.srcOf(o[0], pc); in.d = tr.dstOf(o[1], pc); }
            case FADD, FSUB, FMUL, FDIV -> { in.a = tr.srcOf(o[1], pc); in.b = tr.srcOf(o[2], pc); in.d = tr.dstOf(o[3], pc); }
            case FNEGATE -> { in.a = tr.srcOf(o[1], pc); in.d = tr.dstOf(o[2], pc); }
            case PUT_MAP_ASSOC, PUT_MAP_EXACT -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.d = tr.dstOf(o[2], pc);
                in.o = tr.srcListOf(o[4], pc);
            }
            case HAS_MAP_FIELDS -> { in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc); in.o = tr.srcListOf(o[2], pc); }
            case GET_MAP_ELEMENTS -> {
                in.e = tr.labelOf(o[0], pc); in.a = tr.srcOf(o[1], pc);
                Operand[] l = tr.listOf(o[2], pc);
                int[] kv = new int[l.length];
                for (int i = 0; i < l.length; i += 2) { kv[i] = tr.srcOf(l[i], pc); kv[i + 1] = tr.dstOf(l[i + 1], pc); }
                in.o = kv;
            }
            case INIT_YREGS -> in.o = tr.srcListOf(o[0], pc);
            case RECV_MARKER_BIND -> { in.a = tr.srcOf(o[0], pc); in.b = tr.srcOf(o[1], pc); }
            case RECV_MARKER_CLEAR, RECV_MARKER_USE -> in.a = tr.srcOf(o[0], pc);
            case RECV_MARKER_RESERVE -> in.d = tr.dstOf(o[0], pc);
            default -> BinaryOperands.resolve(tr, pc, in, o);
        }
    }

    /** Arithmetic and element/2 get opcodes with inline fast paths (the BIF remains the slow path). */
    private static void specialise(Instr in) {
        Export e = (Export) in.o;
        if (e.m != EAtom.ERLANG) return;
        int op = Ops.specialise(e.f.name, e.arity);
        if (op >= 0) in.op = op;
    }

    static Term literal(Transformer tr, Operand o, int pc) throws LoadError {
        // instanceof tests, not a pattern switch: see Transformer.src.
        if (o instanceof Operand.Lit l) return l.term();
        if (o instanceof Operand.Atom a) return a.atom();
        if (o instanceof Operand.U u) return EInteger.of(u.value());
        throw tr.badAt(pc, "expected a literal, got " + o);
    }

    static EAtom atomOf(Transformer tr, Operand o, int pc) throws LoadError {
        if (o instanceof Operand.Atom a) return a.atom();
        throw tr.badAt(pc, "expected an atom, got " + o);
    }

    /** Index into the module's fun table ({@code BeamModule.funs}). */
    private static int funIndex(Transformer tr, Operand o, int pc) throws LoadError {
        int i = tr.uOf(o, pc);
        if (i >= tr.beam().funs.size()) throw tr.badAt(pc, "fun index " + i + " out of range");
        return i;
    }
}
