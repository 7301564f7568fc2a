package org.jbeam.interp;

import static org.jbeam.ProgramRun.*;
import static org.junit.jupiter.api.Assertions.*;

import org.jbeam.ProgramRun.Out;
import org.junit.jupiter.api.Test;

/**
 * The working-set rule (ADR 0063) on a whole program: tests/erl/jit_working_set.erl spends a small
 * compile budget in its setup, then runs a server whose hot functions the budget refuses; with
 * short epochs they are admitted by the rule and compiled while the server runs, and without the
 * rule they are not. The output is erl's either way.
 */
class WorkingSetProgramTest {
    private static final String[] ARGS = {"-run", "jit_working_set", "main", "-s", "erlang", "halt"};
    /** A budget the setup spends at once, and epochs short enough for this program's 30,000 requests. */
    private static final String SMALL = "-Djbeam.jit.debug=true -Djbeam.jit.budget=100 -Djbeam.jit.epoch=200000";
    private static final String CRUNCH = "jit: jit_working_set:crunch/2 hot by ";

    @Test
    void aFunctionHotAfterTheBudgetIsSpentIsAdmittedByTheWorkingSet() throws Exception {
        Out expected = run(cmd("erl", ARGS), null), actual = run(cmd(JBEAM, ARGS), SMALL);
        assertEquals(expected.stdout(), actual.stdout());
        String err = actual.stderr();
        assertTrue(err.contains(CRUNCH) && err.substring(err.indexOf(CRUNCH)).lines().findFirst().orElseThrow().contains("refused"),
                "the budget refuses crunch/2 first:\n" + err);
        assertTrue(err.lines().anyMatch(l -> l.startsWith(CRUNCH) && l.contains("admitted (working set)")),
                "then the working-set rule admits it:\n" + err);
        assertTrue(err.contains("jit: jit_working_set:crunch/2 compiled"), err);
    }

    @Test
    void withoutTheRuleTheBudgetKeepsRefusingIt() throws Exception {
        Out expected = run(cmd("erl", ARGS), null), actual = run(cmd(JBEAM, ARGS), SMALL + " -Djbeam.jit.workingSet=-1");
        assertEquals(expected.stdout(), actual.stdout());
        String err = actual.stderr();
        assertTrue(err.lines().anyMatch(l -> l.startsWith(CRUNCH) && l.contains("refused")), err);
        assertFalse(err.lines().anyMatch(l -> l.startsWith(CRUNCH) && l.contains("admitted")), err);
    }
}
