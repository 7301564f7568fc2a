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
}
