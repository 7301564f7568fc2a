package org.jbeam.interp;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.code.*;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * Exceptions: building OTP-shaped stack traces, unwinding to the nearest catch/try, and the
 * instructions that inspect a caught exception ({@code catch_end}, {@code try_case},
 * {@code raise}, {@code raw_raise}, {@code build_stacktrace}).
 *
 * <p>On a caught exception the handler sees, as in BEAM: x0 = a non-value marker, x1 = class,
 * x2 = reason, x3 = the raw stack trace ({@link RawStack}).
 */
public final class Exceptions {
    private Exceptions() {}

    /** Marks "an exception was caught" in x0 at a catch handler. */
    static final Term NON_VALUE = new ETuple(new Term[] {EAtom.of("$jbeam_non_value")});
    /** OTP's default backtrace depth. */
    public static final int BACKTRACE_DEPTH = 8;

    private static final EAtom ERL_ERTS_ERRORS = EAtom.of("erl_erts_errors"), ERL_STDLIB_ERRORS = EAtom.of("erl_stdlib_errors"),
            ERL_KERNEL_ERRORS = EAtom.of("erl_kernel_errors"),
            MODULE = EAtom.of("module");

    /** Unwinds to a handler; returns its pc, or -1 when the process exited. */
    static int handle(Interpreter it, ErlangException ex, int pc, Instr in) {
        ErlProcess p = it.p;
        if (ex.stacktrace == null) ex.stacktrace = buildTrace(it, ex, pc, in);
        p.lastException = ex;
        int c = catchIndex(it);
        if (p.trace != null) CallTracing.unwinding(it, ex, c);
        if (c >= 0) {
            Term[] s = it.stk;
            CatchTag ct = (CatchTag) s[c];
            int frameTop = c + 1 + ct.yIndex;
            for (int j = frameTop; j < it.sp; j++) s[j] = null;
            it.sp = frameTop;
            it.x[0] = NON_VALUE;
            it.x[1] = ex.cls;
            it.x[2] = ex.reason;
            it.x[3] = new RawStack(ex.cls, ex.stacktrace);
            it.setCode(ct.module);
            return ct.pc;
        }
        it.exit(exitReason(ex));
        return -1;
    }

    /** The stack index of the innermost catch, or -1. */
    private static int catchIndex(Interpreter it) {
        if (it.p.catches > 0) for (int i = it.sp - 1; i >= 0; i--) if (it.stk[i] instanceof CatchTag) return i;
        return -1;
    }

    /** The exit reason of a process killed by an uncaught exception. */
    public static Term exitReason(ErlangException ex) {
        if (ex.cls == ErlangException.EXIT) return ex.reason;
        if (ex.cls == EAtom.THROW) return ETuple.of(ETuple.of(EAtom.NOCATCH, ex.reason), ex.stacktrace);
        return ETuple.of(ex.reason, ex.stacktrace);
    }

    static ErlangException undef(EAtom m, EAtom f, Term[] args, boolean tailCall) {
        ErlangException ex = ErlangException.error(EAtom.UNDEF);
        ex.frameModule = m;
        ex.frameFunction = f;
        ex.frameArgs = ECons.of(args);
        ex.errorInfo = ENil.NIL;
        ex.skipCurrentFrame = tailCall;
        return ex;
    }

    /** Builds the stack trace list: failing native's frame, the current function, then the callers. */
    static Term buildTrace(Interpreter it, ErlangException ex, int pc, Instr in) {
        List<Term> frames = new ArrayList<>();
        BeamModule mod = it.mod;
        FuncInfo cur = mod.functionAt(pc);
        boolean functionClause = in.op == org.jbeam.loader.Opcodes.FUNC_INFO && ex.reason == EAtom.FUNCTION_CLAUSE
                && ex.frameModule == mod.name;
        if (ex.frameModule != null) {
            Term info;
            if (functionClause) info = location(mod, in.line);
            else if (ex.errorInfo != null) info = ex.errorInfo;
            else info = errorInfo(ex.frameModule);
            frames.add(ETuple.of(ex.frameModule, ex.frameFunction, ex.frameArgs, info));
        }
        if (!functionClause && !ex.skipCurrentFrame && cur != null) {
            Term loc = location(mod, in.line);
            if (ex.currentErrorInfo != null) loc = appendTo(loc, ETuple.of(EAtom.ERROR_INFO, ex.currentErrorInfo)); // after file/line, as OTP
            Term arity = ex.currentArgs != null ? ex.currentArgs : ESmall.of(cur.arity);
            frames.add(ETuple.of(mod.name, cur.name, arity, loc));
        }
        callerFrames(it, frames);
        while (frames.size() > BACKTRACE_DEPTH) frames.remove(frames.size() - 1);
        return ECons.of(frames);
    }

    private static Term appendTo(Term list, Term last) {
        Term[] items = ECons.toArray(list);
        Term[] all = java.util.Arrays.copyOf(items, items.length + 1);
        all[items.length] = last;
        return ECons.of(all);
    }

    /** Appends the frames of the return addresses on the stack, up to the backtrace depth. */
    static void callerFrames(Interpreter it, List<Term> frames) { callerFrames(it.stk, it.sp, frames); }

    /**
     * The frames of the return addresses in {@code stk[0..sp)}, top down. As erts (save_stacktrace),
     * a return address equal to the one just recorded is skipped: a body recursion shows its
     * function twice (where it failed, and one caller), not once per level.
     */
    private static void callerFrames(Term[] stk, int sp, List<Term> frames) {
        ReturnAddr prev = null;
        for (int i = sp - 1; i >= 0 && frames.size() < BACKTRACE_DEPTH; i--) {
            if (stk[i] instanceof ReturnAddr ra && ra.func != null && !sameAddr(ra, prev)) {
                frames.add(ETuple.of(ra.module.name, ra.func.name, ESmall.of(ra.func.arity), location(ra.module, ra.line)));
                prev = ra;
            }
        }
    }

    private static boolean sameAddr(ReturnAddr a, ReturnAddr b) { return b != null && a.module == b.module && a.pc == b.pc; }

    /** process_info(self(), current_stacktrace): the calling function, then its callers. */
    static Term currentFunction(Interpreter it) {
        FuncInfo cur = it.mod == null ? null : it.mod.functionAt(it.pcAtCall - 1);
        return cur == null ? null : ETuple.of(it.mod.name, cur.name, ESmall.of(cur.arity));
    }

    static Term currentStacktrace(Interpreter it) {
        List<Term> frames = new ArrayList<>();
        Instr call = it.code[Math.max(0, it.pcAtCall - 1)];
        FuncInfo cur = it.mod.functionAt(it.pcAtCall - 1);
        if (cur != null) frames.add(ETuple.of(it.mod.name, cur.name, ESmall.of(cur.arity), location(it.mod, call.line)));
        callerFrames(it, frames);
        return ECons.of(frames);
    }

    /**
     * process_info(Other, current_stacktrace) of a process that is not running: where it will resume
     * (e.g. the receive it waits in), then the return addresses on its stack. A running process's
     * saved state is stale, so it shows as [] (OTP would interrupt it; we do not stop it).
     */
    public static Term stacktraceOf(org.jbeam.runtime.ErlProcess q) {
        BeamModule m = q.module;
        Term[] stk = q.stk;
        int pc = q.pc, sp = Math.min(q.sp, stk == null ? 0 : stk.length);
        if (m == null || stk == null || q.status() != org.jbeam.runtime.ErlProcess.WAITING) return ENil.NIL;
        List<Term> frames = new ArrayList<>();
        FuncInfo cur = pc >= 0 && pc < m.code.length ? m.functionAt(pc) : null;
        if (cur != null) frames.add(ETuple.of(m.name, cur.name, ESmall.of(cur.arity), location(m, m.code[pc].line)));
        callerFrames(stk, sp, frames);
        return ECons.of(frames);
    }

    private static Term errorInfo(EAtom module) {
        // erts' own BIF modules are explained by erl_erts_errors (it formats erlang, atomics,
        // counters and persistent_term); the BIFs of stdlib's modules by erl_stdlib_errors.
        EAtom handler = switch (module.name) {
            case "erlang", "erts_internal", "atomics", "counters", "persistent_term" -> ERL_ERTS_ERRORS;
            case "os" -> ERL_KERNEL_ERRORS;
            default -> ERL_STDLIB_ERRORS;
        };
        return ECons.of(ETuple.of(EAtom.ERROR_INFO, EMap.of(new Term[] {MODULE}, new Term[] {handler})));
    }

    static Term location(BeamModule m, int loc) {
        int line = m.lines.line(loc);
        if (line <= 0) return ENil.NIL;
        return ECons.of(ETuple.of(EAtom.FILE, charlist(m.fileOf(loc))), ETuple.of(EAtom.LINE, ESmall.of(line)));
    }

    static Term charlist(String s) {
        EList l = ENil.NIL;
        int[] cps = s.codePoints().toArray();
        for (int i = cps.length - 1; i >= 0; i--) l = new ECons(ESmall.of(cps[i]), l);
        return l;
    }

    // ---- instructions ----

    /** catch_end: x0 is the value, or (after an exception) the catch value built from x1..x3. */
    static void catchEnd(Interpreter it) {
        Term[] x = it.x;
        if (x[0] != NON_VALUE) return;
        EAtom cls = (EAtom) x[1];
        Term reason = x[2];
        if (cls == EAtom.THROW) x[0] = reason;
        else if (cls == EAtom.ERROR) x[0] = ETuple.of(EAtom.EXIT, ETuple.of(reason, ((RawStack) x[3]).stacktrace));
        else x[0] = ETuple.of(EAtom.EXIT, reason);
    }

    /** try_case: shift class, reason, raw stack trace into x0..x2. */
    static void tryCase(Interpreter it) {
        Term[] x = it.x;
        x[0] = x[1];
        x[1] = x[2];
        x[2] = x[3];
    }

    /** raise Stacktrace Reason: re-throw with the class kept in the raw stack trace. */
    static void raise(Term stack, Term reason) {
        if (stack instanceof RawStack rs) {
            ErlangException ex = new ErlangException(rs.cls, reason);
            ex.stacktrace = rs.stacktrace;
            throw ex;
        }
        throw ErlangException.badarg();
    }

    /** raw_raise: x0 = class, x1 = reason, x2 = raw stack trace; badarg if the class is not valid. */
    static void rawRaise(Term cls, Term reason, Term stack) {
        if (!(cls instanceof EAtom c) || !(c == EAtom.ERROR || c == EAtom.THROW || c == ErlangException.EXIT))
            throw ErlangException.badarg();
        ErlangException ex = new ErlangException(c, reason);
        ex.stacktrace = stack instanceof RawStack rs ? rs.stacktrace : stack;
        throw ex;
    }

    static Term buildStacktrace(Term raw) {
        return raw instanceof RawStack rs ? rs.stacktrace : ENil.NIL;
    }
}
