package org.jbeam.code;

import org.jbeam.term.Term;

/**
 * A catch/try handler stored in a y register: where to continue when an exception unwinds to
 * this frame. Never visible to Erlang code.
 */
public final class CatchTag extends Term {
    public final BeamModule module;
    public final int pc;
    /** The y register holding this tag: locates the owning frame when unwinding. */
    public final int yIndex;

    public CatchTag(BeamModule module, int pc, int yIndex) { this.module = module; this.pc = pc; this.yIndex = yIndex; }

    @Override public int typeOrder() { throw new IllegalStateException("catch tag used as a term"); }
    @Override public String toString() { return "#Catch<" + pc + ">"; }
}
