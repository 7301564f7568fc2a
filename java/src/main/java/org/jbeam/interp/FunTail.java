package org.jbeam.interp;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FunEntry;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.term.*;

/**
 * Fun calls in tail position from compiled code straight into the target's compiled code (ADR
 * 0059). Through {@code callFun} the callee was found from the pc the call returned: the
 * trampoline loaded {@code it.code}, the instruction at the pc, its compiled function and cast it,
 * each load waiting for the one before, and the chain began at the fun value (closure, entry,
 * pc). A continuation-passing loop runs that chain once per call. Here the closure's entry
 * remembers the compiled function its pc enters ({@link FunEntry#jit}), so the call's target is
 * two loads from the closure. The hint is taken from the instruction at the pc, the only place that
 * says what runs there, and dropped when that instruction is replaced ({@link
 * CompiledFunction#retired}: put back to interpreted code for tracing, patched by a NIF); a closure
 * of a function never compiled, or of another module, takes the ordinary path. Reading the
 * instruction on every call instead cost a cache miss per call (the allocation of two integers
 * per call streams through the data cache).
 *
 * <p>The callee runs in a trampoline (org.jbeam.jit.DirectCall): a call site under a trampoline
 * already leaves the compiled function in {@link Interpreter#tailJit} and returns the pc plus
 * {@link #HANDED}; the trampoline takes it from there instead of looking the pc up. The outcomes compiled code switches
 * on come from pre-trained helpers, as in {@link CompiledBranches} (ADR 0053).
 */
public final class FunTail {
    private FunTail() {}

    /**
     * The closure's entry when {@code f} is a closure of this arity whose function is compiled,
     * in the current module, called often enough to be past the tier's counting and with reductions
     * left: its free variables are then in place and a reduction counted. Otherwise null, and
     * nothing done: the call takes {@code callFun} (errors, other modules, preemption, tracing).
     */
    public static FunEntry target(Interpreter it, Term f, int arity) {
        if (f instanceof ELocalFun lf && lf.entry instanceof FunEntry fe && lf.arity == arity && it.reds > 1
                && fe.calls >= JitSupport.CALL_THRESHOLD && fe.module == it.mod) {
            if (fe.jit instanceof CompiledFunction cf && !cf.retired) {
                Term[] free = lf.freeVars;
                if (free.length != 0) System.arraycopy(free, 0, it.x, arity, free.length);
                it.reds--;
                return fe;
            }
            Instr in = it.code[fe.pc];
            // Compiled since (or the hint is stale): remember it, direct from the next call on.
            if (in.op == Ops.JIT_ENTER && in.o instanceof CompiledFunction cf && !cf.retired) fe.jit = cf;
        }
        return null;
    }

    /**
     * 1 when {@code o} is non-null, else 0: a target found ({@link #target}), or a compiled function
     * a callee left in {@code it.tailJit} for the trampoline to run next.
     */
    public static int isSet(Object o) { return o != null ? 1 : 0; }

    /** 1 when the entry's compiled code is the caller's own ({@code self}): jump, no call. */
    public static int self(FunEntry fe, Object self) { return fe.jit == self ? 1 : 0; }

    /**
     * How a fun tail call site runs the compiled callee: 1 becomes a trampoline (none runs at this
     * nesting, the nesting bound not reached), 2 hands it to the trampoline this call runs under,
     * 0 returns the pc to the caller (at the bound, like DirectCall.tail).
     */
    public static int mode(long trampolines, int nesting, int max) {
        if ((trampolines & (1L << nesting)) != 0) return 2;
        return nesting < max ? 1 : 0;
    }

    /**
     * Added to the pc a fun tail call site under a trampoline returns when it left the compiled
     * function in {@code it.tailJit}: the trampoline then needs no second test (a load of
     * {@code tailJit} after every callee slowed local tail calls between compiled functions by a
     * tenth). Real pcs are far below it; LEAVE is negative.
     */
    public static final int HANDED = 1 << 30;

    /**
     * What a trampoline does with the pc a callee returned: 2 run {@code it.tailJit} at
     * {@code pc - HANDED}, 1 run the compiled function whose entry is at the pc, 0 stop (LEAVE,
     * an interpreted pc).
     */
    public static int next(Instr[] code, int pc) {
        if (pc >= HANDED) return 2;
        return pc >= 0 && code[pc].op == Ops.JIT_ENTER ? 1 : 0;
    }

    static {
        Instr[] code = {new Instr(Ops.JIT_ENTER), new Instr(Ops.MOVE_XX)};
        BeamModule m = new BeamModule(EAtom.of("jit_funtail"));
        FunEntry fe = new FunEntry(m, EAtom.of("f"), 0, 0, 0, 0, 0);
        Object[] selves = {new Object(), null};
        int sink = 0;
        for (int i = 0; i < 30_000; i++) {
            fe.jit = selves[i & 1];
            sink += isSet((i & 3) == 0 ? null : fe);
            sink += isSet((i & 5) == 0 ? null : selves[0]);
            sink += self(fe, selves[(i >> 1) & 1]);
            sink += mode((i % 3 == 0 ? 1L << 3 : 0), i % 7 == 0 ? 64 : 3, 64);
            sink += next(code, switch (i % 4) { case 0 -> Interpreter.LEAVE; case 1 -> HANDED; default -> i & 1; });
        }
        if (sink == 42) System.out.print("");
    }
}
