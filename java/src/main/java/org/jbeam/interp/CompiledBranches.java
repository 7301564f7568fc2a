package org.jbeam.interp;

import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.term.*;

/**
 * Outcomes that compiled code branches on with a switch, not a compare (ADR 0053). A compare in a
 * compiled function has a profile of its own: when C2 compiles the function before that compare
 * has gone both ways, the unseen way becomes a trap, and the first time it is taken the whole
 * function is thrown away and compiled again (for gen_server:loop/7, 0.3-0.7 s of C2's single
 * thread; for a counting loop, once per loop end). Here the test sits in a small helper whose
 * profile every call site shares and the static initialiser fills with every outcome; the call
 * site switches on the 0/1 result, and a switch keeps no per-case profile
 * ({@code -XX:-UseSwitchProfiling}), as {@link JitSupport#direct} does for direct calls (ADR 0043).
 */
public final class CompiledBranches {
    private CompiledBranches() {}

    /**
     * 1 when a tail call site (org.jbeam.jit.DirectCall.tail) runs its callee at {@code pc} itself
     * as a trampoline: no trampoline runs at this nesting already (bit {@code nesting} of
     * {@code trampolines}), the nesting bound is not reached and the callee is compiled; else 0.
     */
    public static int trampoline(long trampolines, int nesting, int max, Instr[] code, int pc) {
        return (trampolines & (1L << nesting)) == 0 && nesting < max && code[pc].op == Ops.JIT_ENTER ? 1 : 0;
    }

    /**
     * 1 when the pc a trampoline's callee returned is another compiled function's entry (the
     * trampoline runs that one too), 0 when it is LEAVE or anything else (back to the caller).
     */
    public static int bounce(Instr[] code, int pc) {
        return pc >= 0 && code[pc].op == Ops.JIT_ENTER ? 1 : 0;
    }

    /**
     * is_eq_exact / is_ne_exact against an integer literal: 1 when {@code t} is that small
     * integer. A counting loop's exit test ({@code loop(0, Acc) -> Acc}) is false for all but the
     * last iteration: as a compare, C2 compiled "true" as a trap and every loop end threw the
     * compiled loop away (bench_nif_call: an "unstable_if" and a recompile in every VM, JFR).
     */
    public static int isSmall(Term t, long v) { return t instanceof ESmall s && s.value == v ? 1 : 0; }

    static {
        Instr[] code = {new Instr(Ops.JIT_ENTER), new Instr(Ops.MOVE_XX)};
        Term[] ts = {ESmall.of(0), ESmall.of(5), EAtom.TRUE, ENil.NIL};
        int sink = 0;
        for (int i = 0; i < 30_000; i++) {
            int pc = i % 5 == 1 ? 1 : 0;
            sink += trampoline(i % 3 == 0 ? 1L << 3 : 0, i % 7 == 0 ? 64 : 3, 64, code, pc);
            sink += bounce(code, i % 4 == 0 ? Interpreter.LEAVE : pc);
            sink += isSmall(ts[i & 3], (i >> 2) % 3 == 0 ? 0 : 5);
        }
        if (sink == 42) System.out.print("");
    }
}
