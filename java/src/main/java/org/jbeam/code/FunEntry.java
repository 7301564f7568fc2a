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
    /**
     * Calls through closures of this entry, counted up to the bytecode tier's call threshold (as
     * {@link Export#calls}): a function reached only through funs is seldom the one a preemption
     * samples (two functions calling each other through funs are preempted on the way into the
     * same one every time, the slice being an even number of calls), so it stayed interpreted.
     */
    public int calls;
    /**
     * The pc of the function's trace_entry once a local trace pattern, call_count or call_time
     * routed its local calls there (interp.CallTracing.routeLocalCalls), else 0: closures then go
     * the same way. Routing also sets {@link #calls} far below the threshold, so that calls take
     * Interpreter.callFunSlow, which reads this.
     */
    public volatile int traceEntry;
    /**
     * The compiled function (interp.CompiledFunction) last seen at {@link #pc}, or null: compiled
     * fun tail calls enter it without looking the pc up, after checking the instruction there
     * still holds it (interp.FunTail, ADR 0059). A hint only, never trusted alone.
     */
    public Object jit;

    public FunEntry(BeamModule module, EAtom function, int totalArity, int numFree, int index, int oldUniq, int pc) {
        this.module = module; this.function = function; this.totalArity = totalArity; this.numFree = numFree;
        this.index = index; this.oldUniq = oldUniq; this.pc = pc;
    }
}
