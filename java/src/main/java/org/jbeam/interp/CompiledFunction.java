package org.jbeam.interp;

/**
 * A function compiled to JVM bytecode by the bytecode tier (ADR 0008). It runs on the
 * interpreter's own state (x registers, the process's explicit stack, reductions), so compiled
 * and interpreted code call and return into each other freely.
 */
public abstract class CompiledFunction {
    /** Instruction indexes where control may enter: the function entry and its return points. */
    public final int[] entries;
    /** The instructions the compiled entries replaced, in {@link #entries}' order (to go back to interpreting). */
    public org.jbeam.code.Instr[] replaced;

    /**
     * Set when the code array no longer enters this function at its entry (put back to
     * interpreted code for tracing, its entry patched by a NIF): fun tail calls that remembered it
     * ({@code FunEntry.jit}) then take the ordinary path (FunTail, ADR 0059).
     */
    boolean retired;

    /** See {@link #retired}: the function's entry instruction has been replaced. */
    public void retire() { retired = true; }

    /** Priming calls made so far (JitSupport.prime, ADR 0050). */
    int primes;

    protected CompiledFunction(int[] entries) { this.entries = entries; }

    /**
     * Runs from instruction {@code pc} of the function's module until control leaves the
     * function. Returns the next pc for the interpreter (in whatever module is now current), or
     * {@code Interpreter.LEAVE} with {@code it.leaveOutcome} set (preempted, waiting, exited).
     */
    public abstract int run(Interpreter it, int pc);
}
