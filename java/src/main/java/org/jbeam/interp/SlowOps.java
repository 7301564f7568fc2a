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

    private static int leave(Interpreter it, int outcome) {
        it.leaveOutcome = outcome;
        return Interpreter.LEAVE;
    }

    static int execute(Interpreter it, Instr in, int pc) {
        Term[] x = it.x;
        switch (in.op) {
            case Ops.CALL_NATIVE -> {
                Term r = it.invokeNative((BifTable.Entry) in.o, in.a);
                if (r instanceof Trap t) return it.trap(t, null, pc);
                x[0] = r;
                return it.doReturn();
            }
            case Ops.MUL -> {
                if (it.get(in.a) instanceof ESmall a && it.get(in.b) instanceof ESmall b) {
                    long hi = Math.multiplyHigh(a.value, b.value), lo = a.value * b.value;
                    if ((hi == 0 && lo >= 0) || (hi == -1 && lo < 0)) { it.put(in.d, ESmall.of(lo)); return pc; }
                }
                return it.bifSlow(in, pc);
            }
            case Ops.BAND, Ops.BOR, Ops.BXOR, Ops.BSR -> {
                if (it.get(in.a) instanceof ESmall a && it.get(in.b) instanceof ESmall b) {
                    long r;
                    switch (in.op) {
                        case Ops.BAND -> r = a.value & b.value;
                        case Ops.BOR -> r = a.value | b.value;
                        case Ops.BXOR -> r = a.value ^ b.value;
                        default -> {
                            if (b.value < 0 || b.value > 63) return it.bifSlow(in, pc);
                            r = a.value >> b.value;
                        }
                    }
                    it.put(in.d, ESmall.of(r));
                    return pc;
                }
                return it.bifSlow(in, pc);
            }
            case INIT_YREGS -> { for (int r : (int[]) in.o) it.put(r, ENil.NIL); }
            case IS_EQ -> { if (!TermOrder.eq(it.get(in.a), it.get(in.b))) return in.e; }
            case IS_NE -> { if (TermOrder.eq(it.get(in.a), it.get(in.b))) return in.e; }
            case IS_FLOAT -> { if (!(it.get(in.a) instanceof EFloat)) return in.e; }
            case IS_NUMBER -> { if (!(it.get(in.a) instanceof ENumber)) return in.e; }
            case IS_PID -> { if (!(it.get(in.a) instanceof EPid)) return in.e; }
            case IS_REFERENCE -> { if (!(it.get(in.a) instanceof ERef)) return in.e; }
            case IS_PORT -> { if (!(it.get(in.a) instanceof EPort)) return in.e; }
            case IS_BINARY -> { if (!(it.get(in.a) instanceof EBitString b) || !b.isBinaryAligned()) return in.e; }
            case IS_BITSTR -> { if (!(it.get(in.a) instanceof EBitString)) return in.e; }
            case IS_MAP -> { if (!(it.get(in.a) instanceof EMap)) return in.e; }
            case IS_FUNCTION -> { if (!(it.get(in.a) instanceof EFun)) return in.e; }
            case IS_FUNCTION2 -> { if (!Interpreter.isFunction2(it.get(in.a), it.get(in.b))) return in.e; }
            case IS_BOOLEAN -> { Term t = it.get(in.a); if (t != EAtom.TRUE && t != EAtom.FALSE) return in.e; }
            case SELECT_TUPLE_ARITY -> {
                Term v = it.get(in.a);
                int t = v instanceof ETuple tu ? ((SelectTable) in.o).lookupArity(tu.arity()) : -1;
                return t >= 0 ? t : in.e;
            }
            case SET_TUPLE_ELEMENT -> it.put(in.b, ((ETuple) it.get(in.b)).with(in.c, it.get(in.a)));
            case SWAP -> { Term t = it.get(in.a); it.put(in.a, it.get(in.b)); it.put(in.b, t); }
            case BADMATCH -> throw ErlangException.error(ETuple.of(EAtom.BADMATCH, it.get(in.a)));
            case CASE_END -> throw ErlangException.error(ETuple.of(EAtom.CASE_CLAUSE, it.get(in.a)));
            case TRY_CASE_END -> throw ErlangException.error(ETuple.of(EAtom.TRY_CLAUSE, it.get(in.a)));
            case BADRECORD -> throw ErlangException.error(ETuple.of(EAtom.BADRECORD, it.get(in.a)));
            case IF_END -> throw ErlangException.error(EAtom.IF_CLAUSE);
            case FUNC_INFO -> throw it.functionClause(in);
            case CATCH, TRY -> {
                it.put(in.d, new CatchTag(it.mod, in.a, in.d & Instr.INDEX_MASK));
                it.p.catches++;
            }
            case CATCH_END -> { it.put(in.d, ENil.NIL); it.p.catches--; Exceptions.catchEnd(it); }
            case TRY_END -> { it.put(in.d, ENil.NIL); it.p.catches--; }
            case TRY_CASE -> { it.put(in.d, ENil.NIL); it.p.catches--; Exceptions.tryCase(it); }
            case RAISE -> Exceptions.raise(it.get(in.a), it.get(in.b));
            case RAW_RAISE -> Exceptions.rawRaise(x[0], x[1], x[2]);
            case BUILD_STACKTRACE -> x[0] = Exceptions.buildStacktrace(x[0]);
            case APPLY -> { return it.apply(in.a, in.ret, pc); }
            case APPLY_LAST -> { it.deallocate(in.c); return it.apply(in.a, null, pc); }
            case MAKE_FUN2 -> {
                FunEntry fe = it.mod.funs[in.b];
                Term[] free = new Term[fe.numFree];
                System.arraycopy(x, 0, free, 0, free.length);
                x[0] = it.makeFun(fe, free);
            }
            case MAKE_FUN3 -> {
                int[] srcs = (int[]) in.o;
                Term[] free = new Term[srcs.length];
                for (int i = 0; i < free.length; i++) free[i] = it.get(srcs[i]);
                it.put(in.d, it.makeFun(it.mod.funs[in.b], free));
            }
            case SEND -> {
                Messaging.send(it, x[0], x[1]);
                x[0] = x[1];
                if (--it.reds <= 0) return leave(it, it.suspend(pc, 1, Interpreter.YIELDED));
            }
            case LOOP_REC -> {
                Term m = Messaging.peek(it);
                if (m == null) {
                    if (it.p.exitReason != null) return leave(it, it.exit(it.p.exitReason));
                    return in.a;
                }
                it.put(in.d, m);
            }
            case LOOP_REC_END -> {
                it.p.mailbox.advance();
                if (--it.reds <= 0) return leave(it, it.suspend(in.a, 0, Interpreter.YIELDED));
                return in.a;
            }
            case REMOVE_MESSAGE -> Messaging.removeMessage(it);
            case TIMEOUT -> Messaging.timeout(it);
            case WAIT -> { return leave(it, it.suspend(in.a, 0, Interpreter.WAITING)); }
            case WAIT_TIMEOUT -> {
                int r = Messaging.waitTimeout(it, in.b);
                if (r == Messaging.WAIT) return leave(it, it.suspend(in.a, 0, Interpreter.WAITING));
                if (r == Messaging.RETRY) return in.a;
                // else: timed out, fall through to the timeout instruction
            }
            case RECV_MARKER_RESERVE -> it.put(in.d, Messaging.reserveMarker(it));
            case RECV_MARKER_BIND -> Messaging.bindMarker(it, it.get(in.a), it.get(in.b));
            case RECV_MARKER_USE -> Messaging.useMarker(it, it.get(in.a));
            case RECV_MARKER_CLEAR -> Messaging.clearMarker(it, it.get(in.a));
            case FMOVE -> it.fmove(in);
            case FCONV -> it.fr[in.d & Instr.INDEX_MASK] = Floats.toDouble(it.get(in.a));
            case FADD -> it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) + it.fr(in.b));
            case FSUB -> it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) - it.fr(in.b));
            case FMUL -> it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) * it.fr(in.b));
            case FDIV -> it.fr[in.d & Instr.INDEX_MASK] = Floats.check(it.fr(in.a) / it.fr(in.b));
            case FNEGATE -> it.fr[in.d & Instr.INDEX_MASK] = -it.fr(in.a);
            case PUT_MAP_ASSOC -> it.put(in.d, Maps.putAssoc(it, it.get(in.a), (int[]) in.o));
            case PUT_MAP_EXACT -> it.put(in.d, Maps.putExact(it, it.get(in.a), (int[]) in.o));
            case HAS_MAP_FIELDS -> { if (!Maps.hasFields(it, it.get(in.a), (int[]) in.o)) return in.e; }
            case GET_MAP_ELEMENTS -> { if (!Maps.getElements(it, it.get(in.a), (int[]) in.o)) return in.e; }
            case ON_LOAD -> {}
            case Ops.NORMAL_EXIT -> { return leave(it, it.exit(EAtom.NORMAL)); }
            case Ops.APPLY_TRAMPOLINE -> {
                var p = it.p;
                if (p.startFun != null) { EFun f = p.startFun; p.startFun = null; return it.callFun(f, 0, null, pc); }
                Export e = p.startExport; p.startExport = null;
                return it.callExport(e, e.arity, null, pc);
            }
            case INT_CODE_END -> throw new IllegalStateException("fell off the end of " + it.mod.name.name);
            default -> {
                int r = BitSyntax.execute(it, in, pc);
                if (r != BitSyntax.NEXT) return r;
            }
        }
        return pc;
    }
}
