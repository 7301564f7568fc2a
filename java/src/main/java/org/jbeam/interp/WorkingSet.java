package org.jbeam.interp;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jbeam.code.FuncInfo;

/**
 * The working-set rule of the bytecode tier's admission policy (ADR 0063), on top of the compile
 * budget of {@link TierPolicy} (ADR 0052). A long-running server spends the budget's initial
 * credit on its setup (a TLS handshake, an application's boot) and its steady-state hot functions
 * are then refused thousands of times, while a compiler-like program refuses as many functions
 * just as often: hotness alone does not tell them apart. Their width does. Over epochs of
 * {@link #EPOCH} reductions, the functions the budget refused in an epoch are its demand: in the
 * steady state of tls_echo, some 85 functions priced 7,200 instructions in every epoch, whatever
 * the epoch's length; compiling lists.erl, 114 to 400 functions priced 24,000 to 54,000 per
 * epoch of 4 M reductions (and more in longer epochs: new passes, new functions).
 *
 * <p>So: when an epoch ends whose demand fits in {@link #FIT} instructions, the functions it
 * refused that were also refused in the epoch before (hot for two epochs running, not a phase)
 * are reserved: each is admitted at its next threshold crossing, without waiting for credit and
 * without charging the budget (the budget still governs everything else). Wide code never fits
 * and keeps the behaviour of ADR 0052 exactly; a narrow steady state is compiled whole within
 * two epochs. Each function is reserved at most once (it is compiled, or fails to compile), so
 * what the rule can ever compile is bounded by the functions hot for two epochs of a narrow
 * program.
 *
 * <p>All state is guarded by {@code TierPolicy.class}: it changes only when the budget refuses a
 * function, a few hundred times a second at most.
 */
final class WorkingSet {
    private WorkingSet() {}

    /** Reductions (of the whole VM) per epoch. */
    static final long EPOCH = Math.max(1, Long.getLong("jbeam.jit.epoch", 4_000_000));
    /** Largest demand (instructions, priced as by {@link TierPolicy#cost}) of an epoch whose refused functions are reserved. */
    static final long FIT = Long.getLong("jbeam.jit.workingSet", 12_000);

    private static long base, epoch, demand, reserved;
    private static Map<FuncInfo, Long> current = new IdentityHashMap<>(), previous = new IdentityHashMap<>();

    /** A VM has booted at work clock {@code now}: no epoch has been seen yet. */
    static void start(long now) {
        base = now;
        epoch = demand = reserved = 0;
        current = new IdentityHashMap<>();
        previous = new IdentityHashMap<>();
    }

    /** The budget refused {@code f} (price {@code cost}) in the current epoch. */
    static void refused(FuncInfo f, long cost) {
        if (current.putIfAbsent(f, cost) == null) demand += cost;
    }

    /** True, once, when {@code f} has been reserved; the reservation is used up. */
    static boolean take(FuncInfo f) {
        if (!f.tierReserved) return false;
        f.tierReserved = false;
        return true;
    }

    /** Instructions reserved since the VM booted (for tests and -Djbeam.jit.debug). */
    static long reserved() { return reserved; }

    /** Closes the epoch(s) that ended before {@code now}: called at every threshold crossing that asks the policy. */
    static void roll(long now) {
        long e = (now - base) / EPOCH;
        if (e == epoch) return;
        int n = 0;
        long c = 0;
        if (demand <= FIT) {
            for (var en : current.entrySet()) {
                FuncInfo f = en.getKey();
                if (previous.containsKey(f) && f.jitState == 0 && !f.tierReserved) {
                    f.tierReserved = true;
                    n++;
                    c += en.getValue();
                }
            }
            reserved += c;
        }
        if (JitSupport.DEBUG) System.err.println("jit: epoch " + epoch + " refused " + current.size() + " functions costing " + demand
                + (demand <= FIT ? ", fits: reserved " + n + " costing " + c : ", too wide"));
        // An epoch with no refusal at all in between breaks the run: nothing was hot then.
        previous = e == epoch + 1 ? current : new IdentityHashMap<>();
        current = new IdentityHashMap<>();
        demand = 0;
        epoch = e;
    }
}
