package org.jbeam.code;

import org.jbeam.term.Term;

/**
 * A continuation pointer: where a call returns to. Stored on the Erlang stack by
 * {@code allocate}; extends Term only so the stack can be a {@code Term[]} — it is never visible
 * to Erlang code. Also records the caller for stack traces.
 */
public final class ReturnAddr extends Term {
    public final BeamModule module;
    public final int pc;
    /** Function containing the call site (for stack traces). */
    public final FuncInfo func;
    /** Location index of the call site. */
    public final int line;

    public ReturnAddr(BeamModule module, int pc, FuncInfo func, int line) {
        this.module = module; this.pc = pc; this.func = func; this.line = line;
    }

    @Override public int typeOrder() { throw new IllegalStateException("continuation pointer used as a term"); }
    @Override public String toString() { return "#Cp<" + module.name.name + "+" + pc + ">"; }
}
