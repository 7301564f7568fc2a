package org.jbeam.interp;

import org.jbeam.code.BeamModule;
import org.jbeam.code.CatchTag;
import org.jbeam.code.Export;
import org.jbeam.code.FuncInfo;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.ProcessTable;
import org.jbeam.term.*;
import org.jbeam.trace.CallPattern;
import org.jbeam.trace.CallTime;
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
            EXCEPTION_TRACE_ADDR = new ReturnAddr(ProcessTable.SYSTEM, ProcessTable.PC_RETURN_TRACE, null, 0),
            RETURN_TIME_ADDR = new ReturnAddr(ProcessTable.SYSTEM, ProcessTable.PC_RETURN_TIME, null, 0),
            RETURN_TO_ADDR = new ReturnAddr(ProcessTable.SYSTEM, ProcessTable.PC_RETURN_TO, null, 0);

    private static final EAtom ERLANG = EAtom.of("erlang"), APPLY = EAtom.of("apply");

    /**
     * Called by callExport when {@code e} has a pattern; returns the return address the call should
     * push. A call of erlang:apply/2,3 is not traced: erts' loader makes those calls its apply
     * instruction, which passes no breakpoint (the applied function's call is traced).
     */
    static ReturnAddr enter(Interpreter it, Export e, int arity, ReturnAddr ret, int pc) {
        FunctionTrace ft = (FunctionTrace) e.callTrace;
        if (ft == null || e.m == ERLANG && e.f == APPLY) return ret;
        FunctionTrace.Counter n = ft.counter;
        if (n != null) n.hit();
        BeamModule m = e.module;
        // A NIF runs in place (a BIF too): no frame to return through.
        boolean inPlace = e.bif != null || m == null || m.code[e.pc].op == Ops.CALL_NATIVE && m.code[e.pc].c == Ops.NATIVE_NIF;
        CallTime time = ft.time;
        if (time != null && timed(it) && !inPlace) ret = timeFrame(it, time, ret);
        CallPattern pat = ft.external();
        if (pat == null || it.p.trace == null) return ret;
        // {caller}: where the call returns to. erts runs a BIF called last as a call followed by a
        // return, so a BIF's caller is the calling function even then.
        Term caller = pat.spec() == null ? null : ret != null ? functionOf(ret)
                : e.bif != null ? callingFunction(it, pc) : functionOf(continuation(it.stk, it.sp - 1));
        int frame = Tracing.call(it.p, pat, e.m, e.f, it.args(arity), caller);
        if (frame == Tracing.NO_FRAME) return ret;
        if (inPlace) {
            // A BIF or native runs in place: callExport sends return_from with its result, then
            // return_to the calling function, a tail call too (erts returns from a BIF into the
            // caller's code, which then returns).
            if (e.bif != null) {
                if ((frame & Tracing.TRACE_FRAMES) != 0) it.nativeReturnTrace = ETuple.of(e.m, e.f, ESmall.of(arity));
                if ((frame & Tracing.RETURN_TO_FRAME) != 0) it.nativeReturnTo = ret != null ? functionOf(ret) : callingFunction(it, pc);
            }
            return ret;
        }
        if ((frame & Tracing.RETURN_TO_FRAME) != 0 && (ret != null || !returnToOnTop(it))) {
            if (ret != null) it.push(ret);
            ret = RETURN_TO_ADDR;
        }
        if ((frame & Tracing.TRACE_FRAMES) == 0) return ret;
        if (ret != null) it.push(ret);
        it.pushTerm(ETuple.of(e.m, e.f, ESmall.of(arity)));
        return frameAddr(frame);
    }

    /** A tail call from a function called with a return_to frame returns through that frame (erts pushes no second one). */
    private static boolean returnToOnTop(Interpreter it) { return it.sp > 0 && it.stk[it.sp - 1] == RETURN_TO_ADDR; }

    /**
     * The return_to_trace instruction: return_to names the function the return lands in (the
     * next real return address below any other trace frames), then the return goes on.
     */
    static int returnedTo(Interpreter it) {
        Tracing.returnTo(it.p, functionOf(continuation(it.stk, it.sp - 1)));
        return it.doReturn();
    }

    /** The first real return address at or below stack index {@code i}, skipping trace frames. */
    private static ReturnAddr continuation(Term[] s, int i) {
        while (i >= 0) {
            Term t = s[i];
            if (t == RETURN_TRACE_ADDR || t == EXCEPTION_TRACE_ADDR || t == RETURN_TIME_ADDR) i -= 2;
            else if (t == RETURN_TO_ADDR) i--;
            else return t instanceof ReturnAddr ra ? ra : null;
        }
        return null;
    }

    /** {M, F, Arity} of the function a return address is in; undefined for none (erts: the exit continuation). */
    static Term functionOf(ReturnAddr ra) {
        FuncInfo f = ra == null ? null : ra.func;
        return f == null ? EAtom.UNDEFINED : ETuple.of(ra.module.name, f.name, ESmall.of(f.arity));
    }

    /** The function of the call instruction before {@code pc} in the running module. */
    private static Term callingFunction(Interpreter it, int pc) {
        BeamModule m = it.mod;
        FuncInfo f = m == null || pc <= 0 ? null : m.functionAt(pc - 1);
        return f == null ? EAtom.UNDEFINED : ETuple.of(m.name, f.name, ESmall.of(f.arity));
    }

    /** A traced BIF called with return_to returned to function {@code mfa} (set by {@link #enter}). */
    static void nativeReturnedTo(Interpreter it, Term mfa) { Tracing.returnTo(it.p, mfa); }

    /**
     * A traced process starts in erlang:apply (a spawned fun, or spawn(erlang, apply, ...)): erts
     * enters apply through its export, which traces the call as any, where jbeam's start goes to
     * the fun directly (and callExport does not trace apply). {@code args}: apply's arguments.
     */
    static void startApply(Interpreter it, Term[] args) {
        Export ap = it.vm.exports.find(ERLANG, APPLY, args.length);
        FunctionTrace ft = ap == null ? null : (FunctionTrace) ap.callTrace;
        if (ft == null) return;
        FunctionTrace.Counter n = ft.counter;
        if (n != null) n.hit();
        CallPattern pat = ft.external();
        if (pat == null) return;
        int frame = Tracing.call(it.p, pat, ERLANG, APPLY, args, pat.spec() == null ? null : EAtom.UNDEFINED);
        // apply tail-calls what it applies: the frames go above the process's exit continuation.
        if ((frame & Tracing.RETURN_TO_FRAME) != 0 && !returnToOnTop(it)) it.push(RETURN_TO_ADDR);
        if ((frame & Tracing.TRACE_FRAMES) != 0) {
            it.pushTerm(ETuple.of(ERLANG, APPLY, ESmall.of(args.length)));
            it.push(frameAddr(frame));
        }
    }

    static boolean isApply(Export e) { return e.m == ERLANG && e.f == APPLY; }

    /** Whether the process's calls are timed: call_time counts for processes with the call trace flag. */
    private static boolean timed(Interpreter it) {
        org.jbeam.trace.TraceState ts = it.p.trace;
        return ts != null && ts.has(org.jbeam.trace.TraceFlags.CALL);
    }

    /**
     * Entering a call_time-traced function: the caller's time stops, the callee's starts, and a
     * frame under the callee (the caller's clock, then a return into return_time_trace) restores
     * the caller's when it returns. A tail call from a function that has such a frame reuses it,
     * as erts does, so tail recursion does not grow the stack. {@code ret}: the return address
     * the call would push (null for a tail call); returns the one it should push instead.
     */
    private static ReturnAddr timeFrame(Interpreter it, CallTime time, ReturnAddr ret) {
        org.jbeam.runtime.ErlProcess p = it.p;
        CallTime.Clock clock = p.callClock;
        if (clock == null) p.callClock = clock = new CallTime.Clock();
        CallTime previous = clock.current;
        clock.switchTo(p.pid, time, System.nanoTime());
        time.called(p.pid);
        if (ret == null && it.sp > 0 && it.stk[it.sp - 1] == RETURN_TIME_ADDR) return null;
        if (ret != null) it.push(ret);
        it.pushTerm(new CallTime.Mark(previous));
        return RETURN_TIME_ADDR;
    }

    /** The return_time_trace instruction: the callee's time stops, the caller's clock is back. */
    static int returnedTime(Interpreter it) {
        CallTime.Mark mark = (CallTime.Mark) it.stk[--it.sp];
        it.stk[it.sp] = null;
        CallTime.Clock clock = it.p.callClock;
        if (clock != null) clock.switchTo(it.p.pid, mark.previous, System.nanoTime());
        return it.doReturn();
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
        CallTime.Mark outermost = null;
        boolean returnTo = false;
        for (int i = it.sp - 1; i > bottom && i > 0; i--) {
            if (s[i] == EXCEPTION_TRACE_ADDR && s[i - 1] instanceof ETuple mfa) Tracing.exceptionFrom(it.p, mfa, ex.cls, ex.reason);
            if (s[i] == RETURN_TIME_ADDR && s[i - 1] instanceof CallTime.Mark mk) outermost = mk;
            if (s[i] == RETURN_TO_ADDR) returnTo = true;
        }
        // A return_to frame passed on the way to a catch: return_to names the function that catches (erts' next_catch).
        if (returnTo && bottom >= 0 && s[bottom] instanceof CatchTag ct) {
            FuncInfo f = ct.module.functionAt(ct.pc);
            Tracing.returnTo(it.p, f == null ? EAtom.UNDEFINED : ETuple.of(ct.module.name, f.name, ESmall.of(f.arity)));
        }
        // call_time frames unwound: time goes back to the function that catches.
        if (outermost != null && it.p.callClock != null) it.p.callClock.switchTo(it.p.pid, outermost.previous, System.nanoTime());
    }

    /** A local call of a locally traced function (its trace_entry instruction): trace as {@link #enter}, then go in. */
    static int localEntry(Interpreter it, Instr in) {
        FuncInfo f = (FuncInfo) in.o;
        FunctionTrace ft = (FunctionTrace) f.trace;
        if (ft == null) return in.e;
        FunctionTrace.Counter n = ft.counter;
        if (n != null) n.hit();
        CallTime time = ft.time;
        if (time != null && timed(it)) {
            // The caller's continuation (if any) is on the stack already: the frame goes above it.
            ReturnAddr r = timeFrame(it, time, null);
            if (r != null) it.push(r);
        }
        CallPattern pat = ft.local;
        if (pat != null && it.p.trace != null) {
            int frame = Tracing.call(it.p, pat, f.module.name, f.name, it.args(f.arity),
                    pat.spec() == null ? null : functionOf(continuation(it.stk, it.sp - 1)));
            // The caller's continuation (if any) is already on the stack: the frames go above it,
            // return_to's first (a tail call from a function that has one returns through it).
            if ((frame & Tracing.RETURN_TO_FRAME) != 0 && !returnToOnTop(it)) it.push(RETURN_TO_ADDR);
            if ((frame & Tracing.TRACE_FRAMES) != 0) {
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
            // Closures of those functions go through the trace_entry too (FunEntry.traceEntry).
            if (m.funs != null)
                for (org.jbeam.code.FunEntry fe : m.funs) {
                    Integer t = target.get(fe.pc);
                    if (t != null) { fe.calls = Integer.MIN_VALUE; fe.traceEntry = t; }
                }
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
