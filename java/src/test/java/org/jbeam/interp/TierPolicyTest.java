package org.jbeam.interp;

import static org.junit.jupiter.api.Assertions.*;

import java.util.concurrent.atomic.AtomicLong;

import org.jbeam.code.BeamModule;
import org.jbeam.code.FuncInfo;
import org.jbeam.term.EAtom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The bytecode tier's admission policy (ADR 0052) on a work clock of its own: a function is
 * compiled only when one of its counters reaches its threshold twice within the window, and only
 * while the compile budget (initial credit plus one instruction per RATE reductions) covers its
 * size; a refused function is admitted again once enough work has been done.
 */
class TierPolicyTest {
    private final AtomicLong clock = new AtomicLong();
    private static final BeamModule MOD = new BeamModule(EAtom.of("tier_policy_test"));

    @BeforeEach
    void start() { TierPolicy.start(clock::get); }

    @AfterEach
    void stop() { TierPolicy.start(() -> 0); }

    private static FuncInfo function(String name, int size) {
        FuncInfo f = new FuncInfo(MOD, EAtom.of(name), 1, 100);
        f.entry = 102;
        f.end = 100 + size;
        return f;
    }

    @Test
    void secondCrossingWithinTheWindowIsAdmitted() {
        FuncInfo f = function("hot", 30);
        assertFalse(TierPolicy.admit(f, "test"), "a first crossing only marks the function");
        clock.addAndGet(TierPolicy.WINDOW / 2);
        assertTrue(TierPolicy.admit(f, "test"));
    }

    @Test
    void crossingsFurtherApartThanTheWindowAreRefused() {
        FuncInfo f = function("lukewarm", 30);
        assertFalse(TierPolicy.admit(f, "test"));
        for (int i = 0; i < 5; i++) {
            clock.addAndGet(TierPolicy.WINDOW + 1);
            assertFalse(TierPolicy.admit(f, "test"), "crossing " + (i + 2) + " came too late after the one before");
        }
        clock.addAndGet(1);
        assertTrue(TierPolicy.admit(f, "test"), "two crossings close together are admitted at any age");
    }

    @Test
    void theBudgetBoundsWhatIsCompiledAndRefillsWithWork() {
        int size = 80;
        long cost = TierPolicy.cost(size);
        // A wide program: many functions, each hot twice in a row. The initial credit admits as
        // many as it covers, then none while no work is done.
        int admitted = 0;
        for (int i = 0; i < 100; i++) {
            FuncInfo f = function("wide" + i, size);
            TierPolicy.admit(f, "test");
            if (TierPolicy.admit(f, "test")) admitted++;
        }
        assertEquals(TierPolicy.INITIAL / cost, admitted);
        assertTrue(TierPolicy.credit() < cost);
        // A refused function comes back after the VM has run enough reductions to pay for it.
        FuncInfo late = function("late", size);
        TierPolicy.admit(late, "test");
        assertFalse(TierPolicy.admit(late, "test"));
        clock.addAndGet(TierPolicy.WINDOW + (cost - TierPolicy.credit()) * TierPolicy.RATE);
        assertFalse(TierPolicy.admit(late, "test"), "its last crossing is out of the window by now");
        assertTrue(TierPolicy.admit(late, "test"), "credit accrued: " + TierPolicy.credit());
        FuncInfo after = function("after", size);
        TierPolicy.admit(after, "test");
        assertFalse(TierPolicy.admit(after, "test"), "the accrued credit went to the late function");
    }

    @Test
    void costGrowsFasterThanSize() {
        assertEquals(10 + TierPolicy.OVERHEAD, TierPolicy.cost(10));
        assertEquals(256 + 256 + TierPolicy.OVERHEAD, TierPolicy.cost(256));
        assertTrue(TierPolicy.cost(926) > TierPolicy.INITIAL, "cerl_trees:mapfold/4 costs more than the initial credit");
        assertTrue(TierPolicy.cost(100) < 2 * TierPolicy.cost(50) * 1.3);
        assertEquals(2 * TierPolicy.INITIAL, TierPolicy.cost(2791), "capped: beam_validator:vi/2");
    }

    @Test
    void aFunctionCostingMoreThanTheInitialCreditNeedsAllOfItAndOverdraws() {
        int size = 1000;
        long cost = TierPolicy.cost(size);
        assertTrue(cost > TierPolicy.INITIAL);
        FuncInfo small = function("small", 10);
        TierPolicy.admit(small, "test");
        assertTrue(TierPolicy.admit(small, "test"));
        FuncInfo big = function("big", size);
        TierPolicy.admit(big, "test");
        assertFalse(TierPolicy.admit(big, "test"), "less than the initial credit left");
        clock.addAndGet(TierPolicy.cost(10) * TierPolicy.RATE - 1);
        TierPolicy.admit(big, "test");
        assertTrue(TierPolicy.admit(big, "test"), "the whole initial credit again: " + TierPolicy.credit());
        long debt = -TierPolicy.credit();
        assertEquals(cost - TierPolicy.INITIAL, debt);
        FuncInfo next = function("next", 10);
        TierPolicy.admit(next, "test");
        assertFalse(TierPolicy.admit(next, "test"), "nothing more until the debt is paid");
        clock.addAndGet(TierPolicy.WINDOW + (debt + TierPolicy.cost(10)) * TierPolicy.RATE);
        TierPolicy.admit(next, "test");
        assertTrue(TierPolicy.admit(next, "test"), "credit " + TierPolicy.credit());
    }

    @Test
    void aNewVmStartsItsBudgetAfresh() {
        for (int i = 0; i < 100; i++) {
            FuncInfo f = function("spend" + i, 200);
            TierPolicy.admit(f, "test");
            TierPolicy.admit(f, "test");
        }
        assertTrue(TierPolicy.credit() < TierPolicy.cost(200));
        clock.set(123_456_789);
        TierPolicy.start(clock::get);
        assertEquals(TierPolicy.INITIAL, TierPolicy.credit());
    }

    /** Spends the initial credit on functions of no further interest (a server's setup). */
    private static void spendTheInitialCredit() {
        for (int i = 0; TierPolicy.credit() >= TierPolicy.cost(200); i++) {
            FuncInfo f = function("setup" + i, 200);
            TierPolicy.admit(f, "test");
            TierPolicy.admit(f, "test");
        }
    }

    /** One threshold crossing of {@code f} right after another (within the window): whether either was admitted. */
    private boolean hotTwice(FuncInfo f) {
        boolean first = TierPolicy.admit(f, "test");
        clock.addAndGet(1);
        return TierPolicy.admit(f, "test") | first;
    }

    /** Hot functions of the working-set tests: priced 1,045, more than the credit left and than what six epochs earn. */
    private static final int HOT = 400;

    private void toEpoch(long e) { clock.set(e * WorkingSet.EPOCH + 10); }

    @Test
    void aNarrowSteadyStateIsAdmittedAfterTwoEpochsWithoutCredit() {
        spendTheInitialCredit();
        FuncInfo[] server = new FuncInfo[5];
        for (int i = 0; i < server.length; i++) server[i] = function("server" + i, HOT);
        for (int e = 0; e < 2; e++) {
            toEpoch(e);
            for (FuncInfo f : server) assertFalse(hotTwice(f), "epoch " + e + ": refused by the budget, credit " + TierPolicy.credit());
        }
        toEpoch(2);
        long credit = TierPolicy.credit();
        assertTrue(credit < TierPolicy.cost(200));
        for (FuncInfo f : server) assertTrue(hotTwice(f), f + ": hot for two epochs of a narrow program");
        assertEquals(credit, TierPolicy.credit(), "the working set does not charge the budget");
        assertEquals(server.length * TierPolicy.cost(HOT), WorkingSet.reserved());
        FuncInfo newcomer = function("newcomer", HOT);
        assertFalse(hotTwice(newcomer), "a function hot in one epoch only is still the budget's");
    }

    @Test
    void aCompilerMovingFromPassToPassIsNeverReserved() {
        spendTheInitialCredit();
        // Each epoch refuses six functions: two of them hot in the epoch before too (a third of
        // the demand), four new ones (the next pass).
        FuncInfo[] shared = {function("shared0", HOT), function("shared1", HOT)};
        for (int e = 0; e < 6; e++) {
            toEpoch(e);
            for (FuncInfo f : shared) assertFalse(hotTwice(f), "epoch " + e + ": " + f);
            for (int i = 0; i < 4; i++) assertFalse(hotTwice(function("pass" + e + "_" + i, HOT)), "epoch " + e);
        }
        assertEquals(0, WorkingSet.reserved());
    }

    @Test
    void aStableSetCostingMoreThanTheCapIsNotReserved() {
        spendTheInitialCredit();
        int n = (int) (WorkingSet.CAP / TierPolicy.cost(HOT)) + 1;
        FuncInfo[] wide = new FuncInfo[n];
        for (int i = 0; i < n; i++) wide[i] = function("wide" + i, HOT);
        for (int e = 0; e < 4; e++) {
            toEpoch(e);
            for (FuncInfo f : wide) assertFalse(hotTwice(f), "epoch " + e + ": " + f + " (" + n + " functions, over " + WorkingSet.CAP + ")");
        }
        assertEquals(0, WorkingSet.reserved());
    }

    @Test
    void aPhaseOrAnIdleEpochIsNotASteadyState() {
        spendTheInitialCredit();
        FuncInfo phase1 = function("phase1", HOT), phase2 = function("phase2", HOT), back = function("back", HOT);
        toEpoch(0);
        assertFalse(hotTwice(phase1));
        assertFalse(hotTwice(back));
        toEpoch(1);
        assertFalse(hotTwice(phase2));
        toEpoch(2);
        assertFalse(hotTwice(phase1), "hot in epoch 0, not in epoch 1");
        assertFalse(hotTwice(back), "hot in epoch 0, not in epoch 1");
        toEpoch(4); // epoch 3 saw no refusal at all
        assertFalse(hotTwice(phase1));
        assertFalse(hotTwice(back));
        toEpoch(5);
        assertFalse(hotTwice(phase1), "hot in epoch 4 so far");
        assertFalse(hotTwice(back));
        toEpoch(6);
        assertTrue(hotTwice(phase1), "hot in epochs 4 and 5");
        assertTrue(hotTwice(back), "hot in epochs 4 and 5");
        assertFalse(hotTwice(phase2), "hot in epoch 1 only");
    }
}
