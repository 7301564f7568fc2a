package org.jbeam.interp;

import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.code.Instr;
import org.jbeam.term.EAtom;
import org.jbeam.term.ECons;
import org.jbeam.term.EFloat;
import org.jbeam.term.ENil;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;
import org.junit.jupiter.api.Test;

/**
 * The interpreter's test instructions take their jumps from {@link Branches} (ADR 0037): each
 * helper must pick exactly what the inline test it replaced picked, for every kind of value.
 */
class BranchesTest {
    private static final int NEXT = 10, FAIL = 20;
    private static final EAtom OK = EAtom.of("ok");
    private static final Term[] VALUES = {ESmall.of(1), ESmall.of(-1), OK, ENil.NIL, new EFloat(1.0),
            ETuple.of(OK, ESmall.of(1)), ETuple.of(EAtom.of("error"), ESmall.of(1)), ETuple.of(OK),
            new ECons(OK, ENil.NIL), ETuple.of()};

    @Test
    void pickAndSelect() {
        assertEquals(NEXT, Branches.pick(true, NEXT, FAIL));
        assertEquals(FAIL, Branches.pick(false, NEXT, FAIL));
        assertEquals(7, Branches.select(7, FAIL));
        assertEquals(0, Branches.select(0, FAIL));
        assertEquals(FAIL, Branches.select(-1, FAIL));
        assertEquals(5, Branches.orNext(5, NEXT));
        assertEquals(NEXT, Branches.orNext(BitSyntax.NEXT, NEXT));
    }

    @Test
    void tupleTestsMatchTheInlineTests() {
        for (Term v : VALUES) {
            for (int arity = 0; arity <= 3; arity++) {
                boolean isArity = v instanceof ETuple t && t.arity() == arity;
                assertEquals(isArity ? NEXT : FAIL, Branches.arity(v, arity, NEXT, FAIL), v + " arity " + arity);
                boolean tagged = isArity && ((ETuple) v).arity() > 0 && ((ETuple) v).get(0) == OK;
                if (arity > 0) assertEquals(tagged ? NEXT : FAIL, Branches.tagged(v, arity, OK, NEXT, FAIL), v + " tagged " + arity);
            }
        }
    }

    @Test
    void identityAndSmallIntegers() {
        for (Term v : VALUES) {
            assertEquals(v == OK ? NEXT : FAIL, Branches.same(v, OK, NEXT, FAIL), v.toString());
            assertEquals(v == ENil.NIL ? NEXT : FAIL, Branches.same(v, ENil.NIL, NEXT, FAIL), v.toString());
            boolean one = v instanceof ESmall s && s.value == 1;
            assertEquals(one ? NEXT : FAIL, Branches.small(v, 1, NEXT, FAIL), v.toString());
        }
        // A float equal in value is not an exact match (=:=).
        assertEquals(FAIL, Branches.small(new EFloat(1.0), 1, NEXT, FAIL));
    }

    @Test
    void stackGrowsByDoublingOnlyWhenNeeded() {
        Term[] s = new Term[4];
        assertSame(s, Branches.room(s, 4));
        s[3] = OK;
        Term[] g = Branches.room(s, 5);
        assertEquals(8, g.length);
        assertSame(OK, g[3]);
        assertEquals(32, Branches.room(s, 17).length);
    }

    @Test
    void callCountingStopsAtTheThreshold() {
        Instr in = new Instr(0);
        in.hits = JitSupport.CALL_THRESHOLD - 2;
        assertFalse(Branches.counted(in));
        assertTrue(Branches.counted(in), "the call that reaches the threshold");
        assertEquals(JitSupport.CALL_THRESHOLD, in.hits);
        assertFalse(Branches.counted(in), "a saturated site stops counting");
        assertEquals(JitSupport.CALL_THRESHOLD, in.hits);
    }

    /** ADR 0043: the loop's + - element and =:= go through these helpers; same answers as the inline code. */
    @Test
    void fastPathsAndEqualityMatchTheInlineCode() {
        assertEquals(1, Branches.isNull(null));
        assertEquals(0, Branches.isNull(OK));
        for (Term a : VALUES) {
            for (Term b : VALUES) {
                assertEquals(a.equals(b), Branches.equal(a, b), a + " =:= " + b);
                Term sum = SmallInts.add(a, b), diff = SmallInts.sub(a, b);
                if (a instanceof ESmall x && b instanceof ESmall y) {
                    assertEquals(ESmall.of(x.value + y.value), sum);
                    assertEquals(ESmall.of(x.value - y.value), diff);
                } else if (a instanceof EFloat x && b instanceof EFloat y) {
                    assertEquals(new EFloat(x.value + y.value), sum);
                } else {
                    assertNull(sum, a + " + " + b + " is the general BIF's");
                    assertNull(diff, a + " - " + b + " is the general BIF's");
                }
                Term e = JitSupport.element(a, b);
                if (a instanceof ESmall i && b instanceof ETuple t && i.value >= 1 && i.value <= t.arity()) assertSame(t.get((int) i.value - 1), e);
                else assertNull(e);
            }
        }
        // Overflow leaves the general BIF to make the bignum.
        assertNull(SmallInts.add(ESmall.of(Long.MAX_VALUE), ESmall.of(1)));
        assertNull(SmallInts.sub(ESmall.of(1), ESmall.of(Long.MIN_VALUE)));
        assertEquals(ESmall.of(Long.MAX_VALUE), SmallInts.add(ESmall.of(Long.MAX_VALUE - 1), ESmall.of(1)));
    }

    /** ADR 0043: a direct call from compiled code runs its callee only when every condition holds. */
    @Test
    void directCallDecision() {
        Instr[] code = {new Instr(org.jbeam.code.Ops.JIT_ENTER), new Instr(org.jbeam.code.Ops.MOVE_XX)};
        assertEquals(1, JitSupport.direct(code, 0, 0, 64));
        assertEquals(1, JitSupport.direct(code, 0, 63, 64));
        assertEquals(0, JitSupport.direct(code, 0, 64, 64), "nesting bound reached");
        assertEquals(0, JitSupport.direct(code, 1, 0, 64), "callee interpreted");
        assertEquals(0, JitSupport.direct(code, Interpreter.LEAVE, 0, 64), "LEAVE is returned, not run");
    }

    /** ADR 0050: the module test before a compiled function's dispatch, and priming up to its limit. */
    @Test
    void moduleTestAndPriming() {
        org.jbeam.code.BeamModule a = new org.jbeam.code.BeamModule(EAtom.of("branches_a")),
                b = new org.jbeam.code.BeamModule(EAtom.of("branches_b"));
        assertEquals(1, JitSupport.inModule(a, a));
        assertEquals(0, JitSupport.inModule(b, a));
        int[] calls = {0};
        CompiledFunction f = new CompiledFunction(new int[0]) {
            @Override public int run(Interpreter it, int pc) { assertEquals(-1, pc); calls[0]++; return pc; }
        };
        for (int i = 0; i < JitSupport.PRIME_LIMIT + 10; i++) JitSupport.prime(f, null);
        assertEquals(JitSupport.PRIME_LIMIT, calls[0], "primes stop at the limit");
    }

    /** ADR 0050: ESmall.of's one-test range check caches exactly -256..1023 and keeps every value. */
    @Test
    void smallIntegerCacheBounds() {
        for (long v : new long[] {-256, -1, 0, 1, 1023}) assertSame(ESmall.of(v), ESmall.of(v), "cached " + v);
        for (long v : new long[] {-257, 1024, 1279, 1280, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 255, Long.MIN_VALUE + 255}) {
            assertNotSame(ESmall.of(v), ESmall.of(v), "not cached " + v);
            assertEquals(v, ESmall.of(v).value);
        }
    }
}
