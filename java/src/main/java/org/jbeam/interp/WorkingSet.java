package org.jbeam.interp;

import java.util.IdentityHashMap;
import java.util.Map;

import org.jbeam.code.FuncInfo;

/**
 * The working-set rule of the bytecode tier's admission policy (ADR 0063), on top of the compile
 * budget of {@link TierPolicy} (ADR 0052). A long-running server spends the budget's initial
 * credit on its setup (a TLS handshake, an application's boot) and its steady-state hot functions
 * are then refused thousands of times, while a compiler-like program refuses as many functions
 * just as often: hotness alone does not tell them apart, and neither does width (RabbitMQ's
 * steady state refuses as many functions per epoch as compiling lists.erl). Stability does. Over
 * epochs of {@link #EPOCH} reductions, the functions the budget refused in an epoch are its
 * demand; in a server's steady state most of an epoch's demand (by price) was refused in the
 * epoch before too (tls_echo 99–100 %, the RabbitMQ broker 71–100 %), while a compiler moves on
 * from pass to pass (lists.erl: 1–37 %).
 *
 * <p>So: when an epoch ends in which at least {@link #STABLE} percent of the demand had been
 * refused in the epoch before as well, those functions (hot for two epochs running) are
 * reserved, if together they cost at most {@link #CAP} (a narrow set): each is admitted at its next threshold
 * crossing, without waiting for credit and without charging the budget (the budget still governs
 * everything else). A compiler's epochs are never stable enough and it keeps the behaviour of
 * ADR 0052 exactly. Each function is reserved at most once (it is then compiled, or fails to
 * compile), so what the rule can ever compile is bounded by the functions of steady states.
 *
 * <p>All state is guarded by {@code TierPolicy.class}: it changes only at threshold crossings,
 * a few hundred times a second at most.
 */
final class WorkingSet {
    private WorkingSet() {}

    /** Reductions (of the whole VM) per epoch. */
    static final long EPOCH = Math.max(1, Long.getLong("jbeam.jit.epoch", 4_000_000));
    /** Percentage of an epoch's demand (by price) that must have been refused in the epoch before too. */
    static final long STABLE = Long.getLong("jbeam.jit.stable", 67);
    /**
     * Most instructions (priced as by {@link TierPolicy#cost}) one epoch may reserve: three initial
     * credits. tls_echo's steady state costs 7,200; the RabbitMQ broker's, 27,600 of stable demand,
     * cost it 56 s more CPU over six loads of 20,000 messages than it saved (generating and
     * compiling 315 functions), so it stays out until compiling gets cheaper (ADR 0063).
     */
    static final long CAP = Long.getLong("jbeam.jit.workingSet", 12_000);

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
        long stable = 0;
        for (var en : current.entrySet()) if (previous.containsKey(en.getKey())) stable += en.getValue();
        boolean fits = demand > 0 && stable * 100 >= demand * STABLE && stable <= CAP;
        int n = 0;
        if (fits) {
            for (var en : current.entrySet()) {
                FuncInfo f = en.getKey();
                if (previous.containsKey(f) && f.jitState == 0 && !f.tierReserved) {
                    f.tierReserved = true;
                    n++;
                    reserved += en.getValue();
                }
            }
        }
        if (JitSupport.DEBUG) System.err.println("jit: epoch " + epoch + " refused " + current.size() + " functions costing " + demand
                + ", " + stable + " of it refused in the epoch before too" + (fits ? ": reserved " + n : ""));
        // An epoch with no refusal at all in between breaks the run: nothing was hot then.
        previous = e == epoch + 1 ? current : new IdentityHashMap<>();
        current = new IdentityHashMap<>();
        demand = 0;
        epoch = e;
    }
}
