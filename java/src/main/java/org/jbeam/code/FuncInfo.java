package org.jbeam.code;

import org.jbeam.term.EAtom;

/** A function of a loaded module: name/arity and the instruction range [start, end). */
public final class FuncInfo {
    public final BeamModule module;
    public final EAtom name;
    public final int arity;
    /** Index of the func_info instruction; the entry point is {@code entry}. */
    public final int start;
    public int entry, end;
    /** Bytecode tier: preemption samples seen, and 0 = interpreted, 1 = compiled, 2 = not compilable. */
    public int samples;
    /** Calls into this function from compiled code (bytecode-tier hotness; racy by design). */
    public int calls;
    public volatile int jitState;
    /** Bytecode tier: TierPolicy's work clock (VM reductions) + 1 when a counter of this function last reached its threshold, 0 never (ADR 0052). */
    public long hotAt;
    /** Bytecode tier: reserved by the working-set rule, admitted at its next threshold crossing (ADR 0063). */
    public boolean tierReserved;
    /** The moved first instruction of a native-replaced function's Erlang body (BifTable.keepErlangBody): not a function of its own. */
    public boolean keptBody;
    /** What trace_pattern set on this function (an org.jbeam.trace.FunctionTrace), or null. */
    public volatile Object trace;
    /** The index of this function's trace_entry instruction (local calls are pointed at it once traced), or 0. */
    public int traceEntry;

    public FuncInfo(BeamModule module, EAtom name, int arity, int start) {
        this.module = module; this.name = name; this.arity = arity; this.start = start;
    }

    @Override public String toString() { return module.name.name + ":" + name.name + "/" + arity; }
}
