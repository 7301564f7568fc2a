package org.jbeam.interp;

import org.jbeam.bif.Bif;
import org.jbeam.bif.BifTable;
import org.jbeam.code.Export;
import org.jbeam.code.Instr;
import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.ECons;
import org.jbeam.term.Term;

/**
 * Calls of natives (BIFs and NIFs) from interpreted code, with x0..x(arity-1) as arguments, and
 * the error frames erts gives them: a native that raises appears in the stack trace as its own
 * frame, with its arguments.
 */
final class NativeCalls {
    private NativeCalls() {}

    /**
     * A NIF called through its export runs in place, like a BIF: no entering and leaving its
     * stub module (ADR 0006). Its error frame is then the NIF's followed by the caller's, as in
     * erts; after a tail call the caller's frame is gone, as it would be had the stub run.
     */
    static int callNif(Interpreter it, Instr body, int arity, ReturnAddr ret, int pc) {
        it.pcAtCall = pc;
        Term[] x = it.x;
        Term r;
        try {
            // A call site of its own: every NIF entry has the same class (LoadNif), so this
            // dispatch is monomorphic and inlined, unlike invoke's over all BIFs.
            Bif fn = ((BifTable.Entry) body.o).fn();
            r = switch (arity) {
                case 0 -> ((Bif.F0) fn).apply(it.p);
                case 1 -> ((Bif.F1) fn).apply(it.p, x[0]);
                case 2 -> ((Bif.F2) fn).apply(it.p, x[0], x[1]);
                case 3 -> ((Bif.F3) fn).apply(it.p, x[0], x[1], x[2]);
                default -> ((Bif.N) fn).apply(it.p, it.args(arity));
            };
        } catch (ErlangException ex) {
            throw nifFailed(it, ex, body, arity, ret);
        }
        return nifReturned(it, r, ret, pc);
    }

    /** A NIF called in place raised {@code ex}: its frame is the NIF's (shared with JitNif's calls). */
    static ErlangException nifFailed(Interpreter it, ErlangException ex, Instr body, int arity, ReturnAddr ret) {
        if (ex.frameModule == null && ex.stacktrace == null && !ex.noNativeFrame) {   // as invoke
            BifTable.Entry e = (BifTable.Entry) body.o;
            ex.frameModule = e.module(); ex.frameFunction = e.name(); ex.frameArgs = ECons.of(it.args(arity));
        }
        ex.skipCurrentFrame = ret == null;
        return ex;
    }

    /** A NIF called in place returned {@code r} (a term or a Trap); returns the next pc. */
    static int nifReturned(Interpreter it, Term r, ReturnAddr ret, int pc) {
        if (r instanceof Trap t) return Traps.run(it, t, ret, pc);
        it.x[0] = r;
        return ret != null ? pc : it.doReturn();
    }

    /** Calls a native function with x0..x(arity-1); on failure records the frame for the stack trace. */
    static Term invoke(Interpreter it, BifTable.Entry e, int arity) {
        Term[] x = it.x;
        try {
            // Dispatch on the declared arity (a cheap int switch) rather than on the lambda's type.
            Bif fn = e.fn();
            switch (e.arity()) {
                case 0: if (fn instanceof Bif.F0 f) return f.apply(it.p); break;
                case 1: if (fn instanceof Bif.F1 f) return f.apply(it.p, x[0]); break;
                case 2: if (fn instanceof Bif.F2 f) return f.apply(it.p, x[0], x[1]); break;
                case 3: if (fn instanceof Bif.F3 f) return f.apply(it.p, x[0], x[1], x[2]); break;
                default: break;
            }
            return ((Bif.N) fn).apply(it.p, it.args(arity));
        } catch (ErlangException ex) {
            if (ex.frameModule == null && ex.stacktrace == null && !ex.noNativeFrame) {
                ex.frameModule = e.module(); ex.frameFunction = e.name(); ex.frameArgs = ECons.of(it.args(arity));
            }
            throw ex;
        }
    }

    /** bif0/1/2 and gc_bif1/2/3: returns the result, or null to take the fail label. */
    static Term guardBif(Interpreter it, Instr in) {
        Export e = (Export) in.o;
        BifTable.Entry b = e.bif;
        Term a = null, bb = null, c = null;
        try {
            if (b == null) {
                it.vm.code.autoload(e);
                b = e.bif;
                if (b == null) throw Exceptions.undef(e.m, e.f, new Term[0], false);
            }
            switch (e.arity) {
                case 0: return ((Bif.F0) b.fn()).apply(it.p);
                case 1: a = it.get(in.a); return ((Bif.F1) b.fn()).apply(it.p, a);
                case 2: a = it.get(in.a); bb = it.get(in.b); return ((Bif.F2) b.fn()).apply(it.p, a, bb);
                default: a = it.get(in.a); bb = it.get(in.b); c = it.get(in.c); return ((Bif.F3) b.fn()).apply(it.p, a, bb, c);
            }
        } catch (ErlangException ex) {
            if (in.e != 0) return null;
            if (ex.frameModule == null && ex.stacktrace == null && !ex.noNativeFrame) {
                Term[] args = switch (e.arity) { case 0 -> new Term[0]; case 1 -> new Term[] {a}; case 2 -> new Term[] {a, bb}; default -> new Term[] {a, bb, c}; };
                ex.frameModule = e.m; ex.frameFunction = e.f; ex.frameArgs = ECons.of(args);
            }
            throw ex;
        }
    }
}
