package org.jbeam.interp;

import org.jbeam.bif.Bif;
import org.jbeam.code.BeamModule;
import org.jbeam.code.Export;
import org.jbeam.code.Instr;
import org.jbeam.code.ReturnAddr;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.Term;

/**
 * Calls from bytecode-tier code to a NIF (ADR 0031). A call site whose export was a NIF when its
 * function was compiled calls the NIF's entry (a class-data constant) through these helpers after
 * checking that the export still leads to that NIF, instead of going through
 * {@link Interpreter#callExport}: that method is too big for HotSpot to inline (FreqInlineSize),
 * so every NIF call from compiled Erlang was a real call into one shared, separately compiled
 * method whose profile (BIFs, Erlang functions and NIFs of every caller) and inlining of
 * {@code callNif} changed with whatever else the VM had run. These helpers are small and only
 * compiled code calls them, so the whole NIF path is inlined into the caller's {@code run} with
 * the NifFunction as a constant.
 */
public final class JitNif {
    private JitNif() {}

    /**
     * The export still leads to {@code body} (the NIF's CALL_NATIVE), as when the caller was
     * compiled, and carries no trace pattern (a traced or counted call goes through callExport).
     */
    static boolean still(Export e, Instr body) {
        BeamModule m;
        return e.bif == null && e.callTrace == null && (m = e.module) != null && m.code[e.pc] == body;
    }

    static int call0(Interpreter it, Bif.F0 fn, Instr body, ReturnAddr ret, int pc) {
        it.pcAtCall = pc;
        Term r;
        try {
            r = fn.apply(it.p);
        } catch (ErlangException ex) {
            throw NativeCalls.nifFailed(it, ex, body, 0, ret);
        }
        return NativeCalls.nifReturned(it, r, ret, pc);
    }

    static int call1(Interpreter it, Bif.F1 fn, Instr body, ReturnAddr ret, int pc) {
        it.pcAtCall = pc;
        Term r;
        try {
            r = fn.apply(it.p, it.x[0]);
        } catch (ErlangException ex) {
            throw NativeCalls.nifFailed(it, ex, body, 1, ret);
        }
        return NativeCalls.nifReturned(it, r, ret, pc);
    }

    static int call2(Interpreter it, Bif.F2 fn, Instr body, ReturnAddr ret, int pc) {
        it.pcAtCall = pc;
        Term r;
        try {
            Term[] x = it.x;
            r = fn.apply(it.p, x[0], x[1]);
        } catch (ErlangException ex) {
            throw NativeCalls.nifFailed(it, ex, body, 2, ret);
        }
        return NativeCalls.nifReturned(it, r, ret, pc);
    }

    static int call3(Interpreter it, Bif.F3 fn, Instr body, ReturnAddr ret, int pc) {
        it.pcAtCall = pc;
        Term r;
        try {
            Term[] x = it.x;
            r = fn.apply(it.p, x[0], x[1], x[2]);
        } catch (ErlangException ex) {
            throw NativeCalls.nifFailed(it, ex, body, 3, ret);
        }
        return NativeCalls.nifReturned(it, r, ret, pc);
    }
}
