package org.jbeam.interp;

import static org.jbeam.loader.Opcodes.*;

import org.jbeam.bif.BifTable;
import org.jbeam.code.*;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The instructions that are not hot enough for {@link Interpreter}'s dispatch loop: errors,
 * catch/try, funs, receive, floats, maps, rare type tests and the bit syntax. Kept out of the
 * loop so that the loop stays small enough for HotSpot to compile and inline it well.
 * {@link #execute} returns the next pc, or {@link Interpreter#LEAVE} to leave the loop with
 * {@code it.leaveOutcome}.
 */
final class SlowOps {
    private SlowOps() {}

    /**
     * Resolves this class's calls into SmallInts before C2 sees them: C2 compiles a call whose
     * constant-pool entry is still unresolved as an "unloaded" trap, and the first rem, div or
     * shift of a program then threw away the whole compiled execute (ADR 0037).
     */
    static {
        Term a = ESmall.of(6), b = ESmall.of(2);
        if (SmallInts.mul(a, b) == null | SmallInts.rem(a, b) == null | SmallInts.idiv(a, b) == null
                | SmallInts.bsl(a, b) == null | SmallInts.band(a, b) == null | SmallInts.bor(a, b) == null
                | SmallInts.bxor(a, b) == null | SmallInts.bsr(a, b) == null) throw new AssertionError();
    }

    private static int leave(Interpreter it, int outcome) {
        it.leaveOutcome = outcome;
        return Interpreter.LEAVE;
    }

    /** {@code ==} with the small-integer case inline. */
    /*
     * Type tests of the is_* instructions without a type profile. C2 compiles an instanceof from
     * the types that bytecode has seen: a test that had only seen, say, tuples became "class is
     * ETuple?" plus a trap, and the first other type made this whole method (35 kB of code)
     * deoptimise and compile again, 0.5–1.5 s of C2's single thread while a program warms up
     * (JFR jdk.Deoptimization: class_check at IS_REFERENCE, IS_PORT, IS_FUNCTION). An intrinsic
     * Class.isInstance with a constant class is the same subtype test, minus the speculation
     * (ADR 0032).
     */
    static boolean isa(Class<?> c, Term t) { return c.isInstance(t); }

    /** {@code t instanceof EBitString} without a type profile (EBitString is final). */
    static boolean isBits(Term t) { return t != null && t.getClass() == EBitString.class; }

    static boolean eq(Term a, Term b) {
        return a instanceof ESmall s && b instanceof ESmall t ? s.value == t.value : TermOrder.eq(a, b);
    }

    /**
     * {@code -Djbeam.slowops.stats=true}: counts the instructions that reach this method (from the
     * interpreter and from compiled code) and prints the most frequent at exit, to show which
     * ones deserve a fast path.
     */
    static final java.util.concurrent.atomic.AtomicLongArray STATS =
            Boolean.getBoolean("jbeam.slowops.stats") ? statsTable() : null;

    private static java.util.concurrent.atomic.AtomicLongArray statsTable() {
        var t = new java.util.concurrent.atomic.AtomicLongArray(1024);
        org.jbeam.runtime.ExitHooks.add(() -> {
            java.util.List<int[]> rows = new java.util.ArrayList<>();
            for (int op = 0; op < t.length(); op++) if (t.get(op) > 0) rows.add(new int[] {op});
            rows.sort((p, q) -> Long.compare(t.get(q[0]), t.get(p[0])));
            for (int i = 0; i < Math.min(25, rows.size()); i++)
                System.err.printf("slowops %-28s %,d%n", Ops.name(rows.get(i)[0]), t.get(rows.get(i)[0]));
        });
        return t;
    }

    static int execute(Interpreter it, Instr in, int pc) {
        if (STATS != null && in.op >= 0 && in.op < STATS.length()) STATS.incrementAndGet(in.op);
        Term[] x = it.x;
        switch (in.op) {
            case Ops.CALL_NATIVE -> { Interpreter.pin();
                Term r = NativeCalls.invoke(it, (BifTable.Entry) in.o, in.a);
                if (r instanceof Trap t) return Traps.run(it, t, null, pc);
                x[0] = r;
                return it.doReturn();
            }
            case Ops.MUL, Ops.REM, Ops.IDIV, Ops.BSL, Ops.BAND, Ops.BOR, Ops.BXOR, Ops.BSR -> { Interpreter.pin();
                Term a = it.get(in.a), b = it.get(in.b);
                Term r = switch (in.op) {
                    case Ops.MUL -> SmallInts.mul(a, b);
                    case Ops.REM -> SmallInts.rem(a, b);
                    case Ops.IDIV -> SmallInts.idiv(a, b);
                    case Ops.BSL -> SmallInts.bsl(a, b);
                    case Ops.BAND -> SmallInts.band(a, b);
                    case Ops.BOR -> SmallInts.bor(a, b);
                    case Ops.BXOR -> SmallInts.bxor(a, b);
                    default -> SmallInts.bsr(a, b);
                };
                if (r == null) return it.bifSlow(in, pc);
                it.put(in.d, r);
            }
            case INIT_YREGS -> { Interpreter.pin(); for (int r : (int[]) in.o) it.put(r, ENil.NIL); }
            case IS_EQ -> { Interpreter.pin(); return Branches.pick(eq(it.get(in.a), it.get(in.b)), pc, in.e); }
            case IS_NE -> { Interpreter.pin(); return Branches.pick(eq(it.get(in.a), it.get(in.b)), in.e, pc); }
            case IS_FLOAT -> { Interpreter.pin(); return Branches.pick(isa(EFloat.class, it.get(in.a)), pc, in.e); }
            case IS_NUMBER -> { Interpreter.pin(); return Branches.pick(isa(ENumber.class, it.get(in.a)), pc, in.e); }
            case IS_PID -> { Interpreter.pin(); return Branches.pick(isa(EPid.class, it.get(in.a)), pc, in.e); }
            case IS_REFERENCE -> { Interpreter.pin(); return Branches.pick(isa(ERef.class, it.get(in.a)), pc, in.e); }
            case IS_PORT -> { Interpreter.pin(); return Branches.pick(isa(EPort.class, it.get(in.a)), pc, in.e); }
            case IS_BINARY -> { Interpreter.pin(); Term t = it.get(in.a); if (!isBits(t) || !((EBitString) t).isBinaryAligned()) return in.e; }
            case IS_BITSTR -> { Interpreter.pin(); return Branches.pick(isBits(it.get(in.a)), pc, in.e); }
            case IS_MAP -> { Interpreter.pin(); return Branches.pick(isa(EMap.class, it.get(in.a)), pc, in.e); }
            case IS_FUNCTION -> { Interpreter.pin(); return Branches.pick(isa(EFun.class, it.get(in.a)), pc, in.e); }
            case IS_FUNCTION2 -> { Interpreter.pin(); return Branches.pick(Interpreter.isFunction2(it.get(in.a), it.get(in.b)), pc, in.e); }
            case IS_BOOLEAN -> { Interpreter.pin(); Term t = it.get(in.a); if (t != EAtom.TRUE && t != EAtom.FALSE) return in.e; }
            case SELECT_TUPLE_ARITY -> { Interpreter.pin(); return ((SelectTable) in.o).selectTupleArity(it.get(in.a), in.e); }
            case SET_TUPLE_ELEMENT -> { Interpreter.pin(); it.put(in.b, ((ETuple) it.get(in.b)).with(in.c, it.get(in.a))); }
            case SWAP -> { Interpreter.pin(); Term t = it.get(in.a); it.put(in.a, it.get(in.b)); it.put(in.b, t); }
            case BADMATCH -> { Interpreter.pin(); throw ErlangException.error(ETuple.of(EAtom.BADMATCH, it.get(in.a))); }
            case CASE_END -> { Interpreter.pin(); throw ErlangException.error(ETuple.of(EAtom.CASE_CLAUSE, it.get(in.a))); }
            case TRY_CASE_END -> { Interpreter.pin(); throw ErlangException.error(ETuple.of(EAtom.TRY_CLAUSE, it.get(in.a))); }
            case BADRECORD -> { Interpreter.pin(); throw ErlangException.error(ETuple.of(EAtom.BADRECORD, it.get(in.a))); }
            case IF_END -> { Interpreter.pin(); throw ErlangException.error(EAtom.IF_CLAUSE); }
            case FUNC_INFO -> { Interpreter.pin(); throw it.functionClause(in); }
            case CATCH, TRY -> { Interpreter.pin();
                // The tag is the same on every execution: made once per instruction.
                CatchTag tag = in.o instanceof CatchTag t && t.module == it.mod ? t : null;
                if (tag == null) in.o = tag = new CatchTag(it.mod, in.a, in.d & Instr.INDEX_MASK);
                it.put(in.d, tag);
                it.p.catches++;
            }
            case TRY_END -> { Interpreter.pin(); it.put(in.d, ENil.NIL); it.p.catches--; }
            case TRY_CASE -> { Interpreter.pin(); it.put(in.d, ENil.NIL); it.p.catches--; Exceptions.tryCase(it); }
            case RAISE -> { Interpreter.pin(); Exceptions.raise(it.get(in.a), it.get(in.b)); }
            case RAW_RAISE -> { Interpreter.pin(); Exceptions.rawRaise(x[0], x[1], x[2]); }
            case BUILD_STACKTRACE -> { Interpreter.pin(); x[0] = Exceptions.buildStacktrace(x[0]); }
            case APPLY -> { Interpreter.pin(); return it.apply(in.a, in.ret, pc); }
            case APPLY_LAST -> { Interpreter.pin(); it.deallocate(in.c); return it.apply(in.a, null, pc); }
            case MAKE_FUN2 -> { Interpreter.pin();
                FunEntry fe = it.mod.funs[in.b];
                Term[] free = new Term[fe.numFree];
                System.arraycopy(x, 0, free, 0, free.length);
                x[0] = it.makeFun(fe, free);
            }
            case MAKE_FUN3 -> { Interpreter.pin();
                int[] srcs = (int[]) in.o;
                Term[] free = new Term[srcs.length];
                for (int i = 0; i < free.length; i++) free[i] = it.get(srcs[i]);
                it.put(in.d, it.makeFun(it.mod.funs[in.b], free));
            }
            case LOOP_REC, LOOP_REC_END, REMOVE_MESSAGE, TIMEOUT, WAIT, WAIT_TIMEOUT, RECV_MARKER_RESERVE,
                 RECV_MARKER_BIND, RECV_MARKER_USE, RECV_MARKER_CLEAR, SEND, CATCH_END -> {
                // Not reached from the loop or compiled code (they call Receive directly, ADR 0047).
                Interpreter.pin(); return Receive.execute(it, in, pc);
            }
            case FMOVE -> { Interpreter.pin(); it.fmove(in); }
            case FCONV -> { Interpreter.pin(); it.fr[in.d & Instr.INDEX_MASK] = Floats.toDouble(it.get(in.a)); }
            case FADD -> { Interpreter.pin(); it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) + it.fr(in.b)); }
            case FSUB -> { Interpreter.pin(); it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) - it.fr(in.b)); }
            case FMUL -> { Interpreter.pin(); it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) * it.fr(in.b)); }
            case FDIV -> { Interpreter.pin(); it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) / it.fr(in.b)); }
            case FNEGATE -> { Interpreter.pin(); it.fr[in.d & Instr.INDEX_MASK] = -it.fr(in.a); }
            case PUT_MAP_ASSOC -> { Interpreter.pin(); it.put(in.d, Maps.putAssoc(it, it.get(in.a), (int[]) in.o)); }
            case PUT_MAP_EXACT -> { Interpreter.pin(); it.put(in.d, Maps.putExact(it, it.get(in.a), (int[]) in.o)); }
            case HAS_MAP_FIELDS -> { Interpreter.pin(); if (!Maps.hasFields(it, it.get(in.a), (int[]) in.o)) return in.e; }
            case GET_MAP_ELEMENTS -> { Interpreter.pin(); if (!Maps.getElements(it, it.get(in.a), (int[]) in.o)) return in.e; }
            case ON_LOAD -> { Interpreter.pin(); }
            case Ops.NORMAL_EXIT -> { Interpreter.pin(); it.p.vm.returned(it.p, it.x[0]); return leave(it, it.exit(EAtom.NORMAL)); }
            case Ops.APPLY_TRAMPOLINE -> { Interpreter.pin();
                var p = it.p;
                if (p.startFun != null) {
                    EFun f = p.startFun; p.startFun = null;
                    if (p.trace != null) CallTracing.startApply(it, new Term[] {f, ENil.NIL});
                    return it.callFun(f, 0, null, pc);
                }
                Export e = p.startExport; p.startExport = null;
                if (p.trace != null && CallTracing.isApply(e)) CallTracing.startApply(it, it.args(e.arity));
                return it.callExport(e, e.arity, null, pc);
            }
            case Ops.AWAIT_ASYNC -> { Interpreter.pin();
                try { return Traps.awaitAsync(it, pc - 1); }
                catch (Interpreter.Preempt pre) { return leave(it, pre.outcome); }
            }
            case Ops.RETURN_TRACE -> { Interpreter.pin(); return CallTracing.returned(it); }
            case Ops.TRACE_ENTRY -> { Interpreter.pin(); return CallTracing.localEntry(it, in); }
            case Ops.RETURN_TIME -> { Interpreter.pin(); return CallTracing.returnedTime(it); }
            case Ops.RETURN_TO -> { Interpreter.pin(); return CallTracing.returnedTo(it); }
            case INT_CODE_END -> { Interpreter.pin(); throw new IllegalStateException("fell off the end of " + it.mod.name.name); }
            default -> {
                return Branches.orNext(BitSyntax.execute(it, in, pc), pc);
            }
        }
        return pc;
    }
}
