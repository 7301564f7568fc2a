package org.jbeam.code;

import org.jbeam.term.EAtom;

/** An entry of a module's fun table (FunT): the code a closure runs. */
public final class FunEntry {
    public final BeamModule module;
    public final EAtom function;
    /** Arity of the underlying function = fun arity + number of free variables. */
    public final int totalArity;
    public final int numFree;
    public final int index, oldUniq;
    public final int pc;

    public FunEntry(BeamModule module, EAtom function, int totalArity, int numFree, int index, int oldUniq, int pc) {
        this.module = module; this.function = function; this.totalArity = totalArity; this.numFree = numFree;
        this.index = index; this.oldUniq = oldUniq; this.pc = pc;
    }
}
