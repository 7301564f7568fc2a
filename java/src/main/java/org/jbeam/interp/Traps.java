package org.jbeam.interp;

import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.AsyncCall;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.runtime.ProcessTable;
import org.jbeam.runtime.Signals;
import org.jbeam.term.EAtom;
import org.jbeam.term.Term;

/**
 * What the interpreter does when a native answers with a {@link Trap} instead of a term: call
 * something in the native's place (apply, a continuation), yield, hibernate, or park the process
 * on a pending asynchronous call (the await instruction of the system module) until it completes.
 */
final class Traps {
    private Traps() {}

    /** A BIF asked the interpreter to call something in its place (apply, yield); returns the next pc. */
    static int run(Interpreter it, Trap t, ReturnAddr ret, int pc) {
        Term[] x = it.x;
        if (t == Trap.YIELD) {
            x[0] = EAtom.TRUE;
            int next = ret != null ? pc : it.doReturn();
            return it.preemptAt(next, 1);
        }
        if (t.awaiting != null) {
            enterAwait(it, ret);
            return awaitAsync(it, ProcessTable.PC_AWAIT);
        }
        if (t.then != null) {
            if (t.yieldFirst) {
                // Park on an already completed call whose outcome is the continuation, and let
                // the process go to the back of the run queue: the await instruction runs it.
                AsyncCall c = it.p.beginAsync();
                c.complete(Trap.then(t.then));
                enterAwait(it, ret);
                return it.preemptAt(ProcessTable.PC_AWAIT, 0);
            }
            Term r = t.then.get();
            if (r instanceof Trap t2) return run(it, t2, ret, pc);
            x[0] = r;
            return ret != null ? pc : it.doReturn();
        }
        Term[] args = t.args;
        System.arraycopy(args, 0, x, 0, args.length);
        if (t.hibernate) return hibernate(it, t, args.length);
        if (t.export != null) return it.callExport(t.export, args.length, ret, pc);
        x[args.length] = t.fun;
        return it.callFun(t.fun, args.length, ret, pc);
    }

    /** erlang:hibernate/3: the stack goes, and the process starts over in the given function. */
    private static int hibernate(Interpreter it, Trap t, int arity) {
        ErlProcess proc = it.p;
        Term[] stk = it.stk;
        for (int i = 1; i < it.sp; i++) stk[i] = null;
        it.sp = 1; // only the exit address stays
        proc.catches = 0;
        proc.startExport = t.export;
        proc.hibernated = true;
        it.setCode(ProcessTable.SYSTEM);
        // An exit signal taken here ends the process now (it would otherwise wake into its
        // function and handle queued messages until its slice ran out).
        if (!Signals.drain(proc)) throw Interpreter.exitNow(proc);
        if (proc.mailbox.current() != null) return ProcessTable.PC_START;
        throw new Interpreter.Preempt(it.suspend(ProcessTable.PC_START, arity, Interpreter.WAITING));
    }

    /**
     * Enter the system module's await instruction as if it were a called function's body: it
     * returns the pending call's outcome to the caller ({@code ret}, or the frame's own return
     * address for a tail call) once the call completes.
     */
    private static void enterAwait(Interpreter it, ReturnAddr ret) {
        if (ret != null) it.push(ret);
        it.setCode(ProcessTable.SYSTEM);
    }

    /** The await_async instruction at {@code pc}: deliver the pending call's outcome or park again. */
    static int awaitAsync(Interpreter it, int pc) {
        ErlProcess proc = it.p;
        AsyncCall c = proc.pendingCall;
        Object o = c.outcome();
        // Not done: park again. A stray wake-up (a message) only re-runs this check; an exit
        // signal is handled by Signals.drain before the process runs at all. LEAVE, not a thrown
        // Preempt: every caller (trap, callExport, callFun, apply, the loop and compiled code)
        // passes a LEAVE pc up, and unwinding compiled frames by exception was ~7% of the scheduler
        // threads' samples in the passive TCP echo, which suspends here once per recv (ADR 0033).
        if (o == null) { it.leaveOutcome = it.suspend(pc, 0, Interpreter.WAITING); return Interpreter.LEAVE; }
        proc.pendingCall = null;
        if (o instanceof ErlangException ex) throw ex;
        if (o instanceof Trap t) return run(it, t, null, pc);   // e.g. a continuation back on this scheduler
        it.x[0] = (Term) o;
        return it.doReturn();
    }
}
