package org.jbeam.interp;

import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.code.FuncInfo;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.ProcessTable;
import org.jbeam.term.*;
import org.jbeam.trace.CallPattern;
import org.jbeam.trace.FunctionTrace;
import org.jbeam.trace.Tracing;

/**
 * The interpreter's side of call tracing: a call through an export that carries a
 * {@link CallPattern} (erlang:trace_pattern/3) by a process with the {@code call} trace flag sends
 * the call message, and, when the pattern's match spec asks for {return_trace}, puts a return-trace
 * frame under the callee: the frame's {M, F, Arity} and a return address into the system module's
 * {@code return_trace} instruction, which sends return_from with the result and returns on.
 * With {exception_trace} the frame's return address is a second object for the same instruction,
 * which the exception unwinder recognises to send exception_from.
 */
public final class CallTracing {
    private CallTracing() {}

    static final ReturnAddr RETURN_TRACE_ADDR = new ReturnAddr(ProcessTable.SYSTEM, ProcessTable.PC_RETURN_TRACE, null, 0),
            EXCEPTION_TRACE_ADDR = new ReturnAddr(ProcessTable.SYSTEM, ProcessTable.PC_RETURN_TRACE, null, 0);

    /** Called by callExport when {@code e} has a pattern; returns the return address the call should push. */
    static ReturnAddr enter(Interpreter it, Export e, int arity, ReturnAddr ret) {
        FunctionTrace ft = (FunctionTrace) e.callTrace;
        if (ft == null) return ret;
        FunctionTrace.Counter n = ft.counter;
        if (n != null) n.hit();
        CallPattern pat = ft.external();
        if (pat == null || it.p.trace == null) return ret;
        int frame = Tracing.call(it.p, pat, e.m, e.f, it.args(arity));
        if (frame == Tracing.NO_FRAME) return ret;
        BeamModule m = e.module;
        if (e.bif != null || m == null) return ret;
        Instr body = m.code[e.pc];
        if (body.op == Ops.CALL_NATIVE && body.c == Ops.NATIVE_NIF) return ret; // runs in place: no frame to return through
        if (ret != null) it.push(ret);
        it.pushTerm(ETuple.of(e.m, e.f, ESmall.of(arity)));
        return frameAddr(frame);
    }

    /** The return address of a return-trace frame ({@link Tracing#RETURN_FRAME} or {@link Tracing#EXCEPTION_FRAME}). */
    private static ReturnAddr frameAddr(int frame) {
        return frame == Tracing.EXCEPTION_FRAME ? EXCEPTION_TRACE_ADDR : RETURN_TRACE_ADDR;
    }

    /**
     * An exception is unwinding the stack from the top down to index {@code bottom} (exclusive):
     * exception_from for each exception-trace frame on the way, innermost first.
     */
    static void unwinding(Interpreter it, org.jbeam.runtime.ErlangException ex, int bottom) {
        Term[] s = it.stk;
        for (int i = it.sp - 1; i > bottom && i > 0; i--)
            if (s[i] == EXCEPTION_TRACE_ADDR && s[i - 1] instanceof ETuple mfa) Tracing.exceptionFrom(it.p, mfa, ex.cls, ex.reason);
    }

    /** A local call of a locally traced function (its trace_entry instruction): trace as {@link #enter}, then go in. */
    static int localEntry(Interpreter it, Instr in) {
        FuncInfo f = (FuncInfo) in.o;
        FunctionTrace ft = (FunctionTrace) f.trace;
        if (ft == null) return in.e;
        FunctionTrace.Counter n = ft.counter;
        if (n != null) n.hit();
        CallPattern pat = ft.local;
        if (pat != null && it.p.trace != null) {
            int frame = Tracing.call(it.p, pat, f.module.name, f.name, it.args(f.arity));
            if (frame != Tracing.NO_FRAME) {
                // The caller's continuation (if any) is already on the stack: the frame goes above it.
                it.pushTerm(ETuple.of(f.module.name, f.name, ESmall.of(f.arity)));
                it.push(frameAddr(frame));
            }
        }
        return in.e;
    }

    /**
     * Points every local call of the functions {@code fs} (all of module {@code m}) at trace_entry
     * instructions appended to the module's code, after putting the module back to interpreted
     * code. One new array per call: an interpreter holding the old one runs untraced until it next
     * enters the module. Functions already routed keep their trace_entry.
     */
    public static void routeLocalCalls(BeamModule m, java.util.List<FuncInfo> fs) {
        synchronized (m) {
            java.util.Map<Integer, Integer> target = new java.util.HashMap<>();
            Instr[] old = m.code;
            java.util.List<Instr> added = new java.util.ArrayList<>();
            for (FuncInfo f : fs) {
                if (f.traceEntry != 0 || f.module != m) continue;
                Instr te = new Instr(Ops.TRACE_ENTRY);
                te.e = f.entry;
                te.o = f;
                te.line = old[f.entry].line;
                f.traceEntry = old.length + added.size();
                target.put(f.entry, f.traceEntry);
                added.add(te);
            }
            if (added.isEmpty()) return;
            JitSupport.interpretOnly(m);
            old = m.code;
            Instr[] code = java.util.Arrays.copyOf(old, old.length + added.size());
            for (int k = 0; k < added.size(); k++) code[old.length + k] = added.get(k);
            for (int i = 0; i < old.length; i++) {
                Instr in = old[i];
                boolean call = in.op == org.jbeam.loader.Opcodes.CALL || in.op == org.jbeam.loader.Opcodes.CALL_LAST
                        || in.op == org.jbeam.loader.Opcodes.CALL_ONLY;
                Integer t;
                if (call && (t = target.get(in.b)) != null) { code[i] = copy(in); code[i].b = t; }
                else if (in.op == Ops.MOVE_XY_XX_CALL && (t = target.get(in.e)) != null) { code[i] = copy(in); code[i].e = t; }
            }
            m.code = code;
        }
    }

    private static Instr copy(Instr in) {
        Instr c = new Instr(in.op);
        c.a = in.a; c.b = in.b; c.c = in.c; c.d = in.d; c.e = in.e; c.f = in.f;
        c.o = in.o; c.t = in.t; c.ret = in.ret; c.line = in.line; c.hits = in.hits;
        return c;
    }

    /** The return_trace instruction: pops the frame's {M, F, Arity}, sends return_from, returns on. */
    static int returned(Interpreter it) {
        ETuple mfa = (ETuple) it.stk[--it.sp];
        it.stk[it.sp] = null;
        Tracing.returned(it.p, mfa, it.x[0]);
        return it.doReturn();
    }
}
