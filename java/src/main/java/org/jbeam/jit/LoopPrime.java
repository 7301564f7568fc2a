package org.jbeam.jit;

import static org.jbeam.jit.JitCompiler.*;

import java.lang.classfile.CodeBuilder;
import java.lang.classfile.Label;

/**
 * Self-recursive Erlang functions as HotSpot sees them (ADR 0050; on by default since ADR 0071,
 * {@code -Djbeam.jit.loopPrime=false} turns it off). A compiled function calling itself jumps
 * back to its own entry, and returns to its own return points through the dispatch switch at the
 * top of {@code run}: to HotSpot both are loop back edges, while {@code run} itself is invoked
 * once per slice or per process. So the loop counter passes C2's on-stack-replacement threshold
 * long before the invocation counter passes the normal-compile one, and C2 compiles the method
 * two or three times: an OSR version per loop header (the entry label, the dispatch label), then
 * the normal one (JFR, bench_mandel's first eight runs: the list comprehension around iter/5
 * compiled OSR 315 ms, OSR 209 ms, normal 440 ms).
 *
 * <p>With the switch on, every eighth self call (by the reduction count, which every call
 * decrements) also calls {@code JitSupport.prime}, which invokes {@code run(it, -1)} (returns at
 * its first test) until the function has been primed {@code JitSupport.PRIME_LIMIT} times: the
 * invocation count then keeps up with the loop count and the normal compile is requested first.
 * It does that (PrintCompilation: one tier-4 compile of the comprehension instead of three), but
 * fib/1 reached its C2 plateau later than without it in A/B curves under load 16-20, and mandel's
 * runs 6-8 did not change measurably. On a quiet machine (load 1-2) the sequential group's geomean
 * was better with it in four of four alternating rounds (2.24-2.53 against 2.71-2.97), fib/1 most
 * (3-11x erl against 11-19x): ADR 0071.
 */
final class LoopPrime {
    private LoopPrime() {}

    static final boolean ENABLED = !"false".equals(System.getProperty("jbeam.jit.loopPrime"));

    /** Self calls per priming call, minus one (a mask of the reduction count). */
    static final int MASK = 7;

    /** The pc of a priming call (JitSupport.prime): no instruction has it. */
    static final int PC = -1;

    /** {@code if ((it.reds & MASK) == 0) JitSupport.prime(this, it);} */
    static void emit(MethodBody b) {
        CodeBuilder c = b.c;
        Label skip = c.newLabel(), prime = c.newLabel();
        // A switch, not a compare: a site that had not yet primed when C2 compiled it would
        // otherwise get a trap there (no per-case profile: -XX:-UseSwitchProfiling, ADR 0043).
        c.aload(MethodBody.IT); c.getfield(CD_INTERP, "reds", java.lang.constant.ConstantDescs.CD_int);
        c.loadConstant(MASK); c.iand();
        c.lookupswitch(skip, java.util.List.of(java.lang.classfile.instruction.SwitchCase.of(0, prime)));
        c.labelBinding(prime);
        c.aload(0); c.aload(MethodBody.IT);
        c.invokestatic(CD_SUPPORT, "prime", java.lang.constant.MethodTypeDesc.of(java.lang.constant.ConstantDescs.CD_void, CD_CF, CD_INTERP));
        c.labelBinding(skip);
    }
}
