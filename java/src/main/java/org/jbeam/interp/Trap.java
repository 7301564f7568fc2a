package org.jbeam.interp;

import org.jbeam.code.Export;
import org.jbeam.runtime.AsyncCall;
import org.jbeam.term.EFun;
import org.jbeam.term.Term;

/**
 * Returned by a BIF that needs the interpreter to do something in its place (OTP's BIF_TRAP):
 * call an export or a fun with arguments (apply/2,3), or yield the scheduler. Never escapes to
 * Erlang code.
 */
public final class Trap extends Term {
    public static final Trap YIELD = new Trap(null, null, null);
    public final Export export;
    public final EFun fun;
    public final Term[] args;

    /** Suspend until this native call completes (see {@link AsyncCall}). */
    public final AsyncCall awaiting;

    /** erlang:hibernate/3: drop the stack, wait for a message, then call the export. */
    public final boolean hibernate;

    /**
     * A native continuation: run on the process's scheduler thread, its result (a term or
     * another trap) is the native call's result. Lets work on another thread (a dirty NIF
     * whose next step belongs on a normal scheduler) complete an {@link AsyncCall} with "continue here".
     */
    public final java.util.function.Supplier<Term> then;
    /** With {@link #then}: give the scheduler to other processes before running it (a yielding NIF). */
    public final boolean yieldFirst;

    private Trap(Export export, EFun fun, Term[] args) { this(export, fun, args, false); }

    private Trap(Export export, EFun fun, Term[] args, boolean hibernate) {
        this.export = export; this.fun = fun; this.args = args; this.hibernate = hibernate; this.awaiting = null; this.then = null; this.yieldFirst = false;
    }

    private Trap(java.util.function.Supplier<Term> then, boolean yieldFirst) {
        this.export = null; this.fun = null; this.args = null; this.hibernate = false; this.awaiting = null; this.then = then;
        this.yieldFirst = yieldFirst;
    }

    private Trap(AsyncCall call) {
        this.export = null; this.fun = null; this.args = null; this.hibernate = false; this.awaiting = call; this.then = null; this.yieldFirst = false;
    }

    /** Continue the native call on the scheduler thread with {@code k} (see {@link #then}). */
    public static Trap then(java.util.function.Supplier<Term> k) { return new Trap(k, false); }

    /** Yield the scheduler, then continue the native call with {@code k} (enif_schedule_nif with flags 0). */
    public static Trap yieldThen(java.util.function.Supplier<Term> k) { return new Trap(k, true); }

    /** The process parks until {@code call} completes, then the call returns its result. */
    public static Trap await(AsyncCall call) {
        if (call.process.pendingCall != call) throw new IllegalStateException("not the pending call");
        return new Trap(call);
    }

    public static Trap call(Export e, Term[] args) { return new Trap(e, null, args); }
    public static Trap callFun(EFun f, Term[] args) { return new Trap(null, f, args); }
    public static Trap hibernate(Export e, Term[] args) { return new Trap(e, null, args, true); }

    @Override public int typeOrder() { throw new IllegalStateException("trap used as a term"); }
}
