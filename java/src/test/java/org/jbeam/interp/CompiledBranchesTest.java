package org.jbeam.interp;

import static org.junit.jupiter.api.Assertions.*;

import java.math.BigInteger;

import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * Compiled code switches on {@link CompiledBranches}' 0/1 results where it used to compare inline
 * (ADR 0053): each helper must give exactly the outcome of the compares it replaced, in every case.
 */
class CompiledBranchesTest {
    private static final Instr[] CODE = {new Instr(Ops.JIT_ENTER), new Instr(Ops.MOVE_XX)};

    @Test
    void trampolineRunsTheCalleeOnlyOutsideATrampolineBelowTheBoundWhenCompiled() {
        for (int nesting = 0; nesting <= 64; nesting++) {
            for (long bits : new long[] {0, 1L << nesting, ~(1L << nesting), -1L}) {
                for (int pc = 0; pc < CODE.length; pc++) {
                    // the compares DirectCall.tail emitted before (ADR 0045)
                    boolean under = (bits & (1L << nesting)) != 0;
                    boolean run = !under && nesting < 64 && CODE[pc].op == Ops.JIT_ENTER;
                    assertEquals(run ? 1 : 0, CompiledBranches.trampoline(bits, nesting, 64, CODE, pc),
                            "nesting " + nesting + " bits " + Long.toHexString(bits) + " pc " + pc);
                }
            }
        }
    }

    @Test
    void bounceOnlyIntoCompiledEntries() {
        assertEquals(1, CompiledBranches.bounce(CODE, 0));
        assertEquals(0, CompiledBranches.bounce(CODE, 1));
        assertEquals(0, CompiledBranches.bounce(CODE, Interpreter.LEAVE));
    }

    @Test
    void isSmallIsExactEquality() {
        Term[] values = {ESmall.of(0), ESmall.of(-1), ESmall.of(5), ESmall.of(1 << 20), new EFloat(0.0), new EFloat(5.0),
                EAtom.of("ok"), ENil.NIL, EInteger.of(BigInteger.ONE.shiftLeft(70)), ETuple.of()};
        for (Term v : values) {
            for (long lit : new long[] {0, -1, 5, 1 << 20, Long.MAX_VALUE}) {
                boolean eq = v instanceof ESmall s && s.value == lit;
                assertEquals(eq ? 1 : 0, CompiledBranches.isSmall(v, lit), v + " =:= " + lit);
            }
        }
    }
}
