package org.jbeam.interp;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FunEntry;
import org.jbeam.code.Instr;
import org.jbeam.code.Ops;
import org.jbeam.term.*;
import org.junit.jupiter.api.Test;

/**
 * A compiled fun tail call enters the callee's compiled code directly only when {@code callFun}'s
 * fast path would have gone to that same code (ADR 0059): the remembered compiled function must be
 * the one the pc enters, never one put back to interpreted code or patched over.
 */
class FunTailTest {
    private static final class Trivial extends CompiledFunction {
        Trivial() { super(new int[] {0}); }
        @Override public int run(Interpreter it, int pc) { return pc; }
    }

    private final BeamModule mod = new BeamModule(EAtom.of("funtail_test"));
    private final BeamModule other = new BeamModule(EAtom.of("funtail_other"));
    private final Trivial cf = new Trivial();
    private final FunEntry fe = new FunEntry(mod, EAtom.of("f"), 3, 1, 0, 0, 0);
    private final Interpreter it = new Interpreter(null, 0);

    FunTailTest() {
        Instr enter = new Instr(Ops.JIT_ENTER);
        enter.o = cf;
        mod.code = new Instr[] {enter, new Instr(Ops.MOVE_XX)};
        other.code = mod.code.clone();
        fe.calls = JitSupport.CALL_THRESHOLD;
        it.setCode(mod);
        it.reds = 100;
    }

    private ELocalFun fun(FunEntry e, int arity, Term... free) {
        return new ELocalFun(EAtom.of("funtail_test"), EAtom.of("f"), arity, 0, 0, new byte[16], free, null, e);
    }

    @Test
    void entersTheCompiledFunctionThePcHolds() {
        ELocalFun f = fun(fe, 2, ESmall.of(42));
        assertNull(FunTail.target(it, f, 2), "first call: the hint is taken from the instruction, the call goes the ordinary way");
        assertSame(cf, fe.jit);
        assertEquals(100, it.reds);
        assertSame(fe, FunTail.target(it, f, 2));
        assertEquals(99, it.reds, "one reduction, as callFun");
        assertEquals(ESmall.of(42), it.x[2], "free variables after the arguments");
        assertEquals(1, FunTail.self(fe, cf));
        assertEquals(0, FunTail.self(fe, new Trivial()));
    }

    @Test
    void ordinaryPathForEverythingCallFunTreatsSpecially() {
        ELocalFun f = fun(fe, 2);
        FunTail.target(it, f, 2);
        assertNull(FunTail.target(it, f, 3), "badarity is callFun's");
        assertNull(FunTail.target(it, ESmall.of(1), 2), "badfun");
        assertNull(FunTail.target(it, fun(null, 2), 2), "a fun of a module not loaded");
        it.reds = 1;
        assertNull(FunTail.target(it, f, 2), "out of reductions: callFun preempts");
        it.reds = 100;
        fe.calls = 5;
        assertNull(FunTail.target(it, f, 2), "still counted (or routed through a trace entry)");
        fe.calls = JitSupport.CALL_THRESHOLD;
        it.setCode(other);
        assertNull(FunTail.target(it, f, 2), "another module: callFun switches the code");
        it.setCode(mod);
        assertSame(fe, FunTail.target(it, f, 2));
    }

    @Test
    void aRetiredFunctionIsNotEntered() {
        ELocalFun f = fun(fe, 2);
        FunTail.target(it, f, 2);
        assertSame(fe, FunTail.target(it, f, 2));
        cf.retire(); // put back to interpreted code, or its entry patched by a NIF
        mod.code[0] = new Instr(Ops.MOVE_XX);
        assertNull(FunTail.target(it, f, 2));
        assertNull(FunTail.target(it, f, 2), "and not remembered again");
        // compiled again later (a new compiled function at the pc): taken up again
        Trivial again = new Trivial();
        Instr enter = new Instr(Ops.JIT_ENTER);
        enter.o = again;
        mod.code[0] = enter;
        assertNull(FunTail.target(it, f, 2));
        assertSame(again, fe.jit);
        assertSame(fe, FunTail.target(it, f, 2));
    }

    @Test
    void interpretOnlyRetiresWhatItPutsBack() {
        org.jbeam.code.FuncInfo fi = new org.jbeam.code.FuncInfo(mod, EAtom.of("f"), 3, 0);
        fi.end = 1;
        mod.functions = new org.jbeam.code.FuncInfo[] {fi};
        fi.jitState = 1;
        cf.replaced = new Instr[] {new Instr(Ops.MOVE_XX)};
        JitSupport.interpretOnly(mod);
        assertTrue(cf.retired);
        assertEquals(Ops.MOVE_XX, mod.code[0].op);
    }

    @Test
    void modesAndFlags() {
        for (int nesting = 0; nesting <= 64; nesting++) {
            for (long bits : new long[] {0, 1L << nesting, ~(1L << nesting), -1L}) {
                boolean under = (bits & (1L << nesting)) != 0;
                int want = under ? 2 : nesting < 64 ? 1 : 0;
                assertEquals(want, FunTail.mode(bits, nesting, 64), "nesting " + nesting + " bits " + Long.toHexString(bits));
            }
        }
        assertEquals(1, FunTail.isSet(fe));
        assertEquals(0, FunTail.isSet(null));
        // what a trampoline does with a returned pc: a handed-over function, a compiled entry, or stop
        assertEquals(2, FunTail.next(mod.code, FunTail.HANDED));
        assertEquals(2, FunTail.next(mod.code, FunTail.HANDED + 1));
        assertEquals(1, FunTail.next(mod.code, 0));
        assertEquals(0, FunTail.next(mod.code, 1));
        assertEquals(0, FunTail.next(mod.code, Interpreter.LEAVE));
    }
}
