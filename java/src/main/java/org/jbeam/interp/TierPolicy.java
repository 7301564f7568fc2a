package org.jbeam.interp;

import java.util.function.LongSupplier;

import org.jbeam.code.FuncInfo;

/**
 * Whether the bytecode tier may compile a function one of whose hotness counters just reached its
 * threshold (ADR 0052). The counters (preemption samples, export calls, call-site hits, calls
 * from compiled code) only say "this function ran a few thousand times since its counter
 * started", and in cold, wide code such as OTP's compiler nearly every function does so sooner or
 * later: compiling lists.erl six times in one VM had 1,495 functions compiled, whose classes then
 * cost C1 and C2 far more CPU than interpreting them (90 s against 22 s with the tier off). Two
 * rules on top of the counters:
 * <ol>
 * <li><b>Twice in a window.</b> A crossing is admitted only if one of the function's counters
 *     already crossed within the last {@link #WINDOW} reductions (of the whole VM). The first
 *     crossing of a counter that took long to fill only marks the function; a function in use
 *     for a short pass of a compiler still gets through, which is what the second rule is for.</li>
 * <li><b>A compile budget.</b> Compiling costs about half a millisecond of JVM compiler time per
 *     loaded instruction (generation, C1, C2: JFR, lists.erl), interpreting one reduction about
 *     70 ns, so the tier may spend {@link #INITIAL} instructions at once (every benchmark's hot
 *     set: 58 to 1,202, 2,000 with the overhead) and then one more instruction per {@link #RATE}
 *     reductions the VM runs: beyond the initial credit, compiling costs at most about a tenth
 *     of the VM's own work, however wide the code. A function is admitted when the credit
 *     covers its {@link #cost}, or, costing more than the initial credit, when the credit is at
 *     least the initial credit (a hot big function must still be compiled some time; the credit
 *     then goes below zero and work pays it back). A
 *     refused function's counter starts again; hot functions come back soon and take the credit
 *     as it accrues, lukewarm ones seldom.</li>
 * </ol>
 * A third rule, {@link WorkingSet} (ADR 0063), admits the functions of a narrow steady state
 * that the budget keeps refusing (a server whose setup spent the credit).
 * The work clock is the schedulers' reduction count ({@code Scheduler.totalReductions}), set
 * when the boot ends; until then (and in VMs built without a boot) it stands at zero, and only
 * the initial credit can be spent.
 */
final class TierPolicy {
    private TierPolicy() {}

    /** Reductions within which a function must reach a threshold twice. */
    static final long WINDOW = Long.getLong("jbeam.jit.window", 1_000_000);
    /** Instructions (loaded) that may be compiled before any work has paid for them. */
    static final long INITIAL = Long.getLong("jbeam.jit.budget", 4_000);
    /** Reductions run per further instruction of credit. */
    static final long RATE = Math.max(1, Long.getLong("jbeam.jit.budgetRate", 100_000));
    /** Fixed cost of a compiled function in instructions: a class, its constant pool, C1's and C2's setup. */
    static final int OVERHEAD = 20;

    private static volatile LongSupplier work = () -> 0;
    /** Guarded by the class: the clock when the budget started, and the instructions spent since. */
    private static long base, spent;

    /** A VM has booted: its reduction count is the clock from now on, and its budget starts afresh. */
    static synchronized void start(LongSupplier clock) {
        work = clock;
        base = clock.getAsLong();
        spent = 0;
        WorkingSet.start(base + 1);
    }

    static long now() { return work.getAsLong(); }

    /**
     * True when {@code f} may be compiled now (its compile is charged to the budget); false when its
     * counter should start again. {@code why} names the counter, for -Djbeam.jit.debug.
     */
    static boolean admit(FuncInfo f, String why) {
        long now = now() + 1, last = f.hotAt; // + 1: hotAt 0 means never
        f.hotAt = now;
        long cost = cost(f.end - f.start), left;
        boolean ok, reserved;
        synchronized (TierPolicy.class) {
            WorkingSet.roll(now);
            reserved = WorkingSet.take(f);
            if (!reserved && (last == 0 || now - last > WINDOW)) return false;
            left = INITIAL + (now - base) / RATE - spent;
            ok = reserved || left >= Math.min(cost, INITIAL);
            if (!ok) WorkingSet.refused(f, cost);
            else if (!reserved) spent += cost;
        }
        if (JitSupport.DEBUG) System.err.println("jit: " + f + " hot by " + why + " at " + now + " after " + (now - last) + " reductions: "
                + (reserved ? "admitted (working set)" : ok ? "admitted" : "refused") + ", credit " + left + " cost " + cost);
        return ok;
    }

    /**
     * The budget's price of compiling a function of {@code size} loaded instructions: the size,
     * plus a square term for big functions, plus {@link #OVERHEAD}. C2's time grows faster than
     * the size: a function over HotSpot's method limit is split into chunks, each compiled (often
     * twice: OSR, then normal) as a method of 7,800 bytes with a switch over all its pcs; in
     * lists.erl, cerl_trees:mapfold/4 (926 instructions, eight chunks) took half of all C2 time
     * spent on compiled Erlang (JFR), erl_scan:scan1/5 (444) a twentieth. At most twice the
     * initial credit, so that one admitted big function (beam_validator:vi/2 has 2,791
     * instructions) leaves a debt of at most one initial credit.
     */
    static long cost(int size) {
        return Math.min(size + (long) size * size / 256 + OVERHEAD, 2 * INITIAL);
    }

    /** Instructions that could be compiled now (for tests and -Djbeam.jit.debug). */
    static synchronized long credit() { return INITIAL + (now() + 1 - base) / RATE - spent; }
}
