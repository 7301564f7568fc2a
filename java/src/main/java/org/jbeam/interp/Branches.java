package org.jbeam.interp;

import org.jbeam.code.Instr;
import org.jbeam.code.SelectTable;
import org.jbeam.term.EAtom;
import org.jbeam.term.ECons;
import org.jbeam.term.EFloat;
import org.jbeam.term.ENil;
import org.jbeam.term.ESmall;
import org.jbeam.term.ETuple;
import org.jbeam.term.Term;

/**
 * The interpreter loop's data-dependent jumps, as small methods whose profiles hold both outcomes
 * from the start (ADR 0037).
 *
 * <p>C2 compiles a branch that its profile says was never taken as a trap ("unstable_if"), and an
 * {@code instanceof} whose profile saw one class as a guard on that class ("class_check"). In the
 * loop every test instruction had its own such branch, and the profile was the one of boot and of
 * the first moments of the program: each test that later went the other way for the first time
 * threw away the compiled loop (60 kB of machine code), and C2's single thread compiled it again,
 * twice (on-stack replacement, then the normal entry), 0.5–1.5 s each time, while the program's
 * own functions waited in its queue. JFR showed 1–3 such rounds per concurrency workload in the
 * first eight runs. A profile belongs to the method whose bytecode it describes, also where that
 * method is inlined, so here the branches of all sites share one profile, and the static
 * initialiser below makes every outcome seen before the loop runs. The loop passes {@code ok}
 * values computed without a branch ({@code Class.isInstance}, a method's boolean result) and
 * takes the next pc from these methods.
 */
final class Branches {
    private Branches() {}

    /** {@code next} when {@code ok}, else {@code fail}: the jump of a test instruction. */
    static int pick(boolean ok, int next, int fail) { return ok ? next : fail; }

    /** test_arity / is_tuple of an arity. */
    static int arity(Term v, int arity, int next, int fail) {
        return v instanceof ETuple t && t.arity() == arity ? next : fail;
    }

    /** is_tagged_tuple: a tuple of this arity whose first element is the atom {@code tag}. */
    static int tagged(Term v, int arity, Term tag, int next, int fail) {
        return v instanceof ETuple t && t.arity() == arity && t.get(0) == tag ? next : fail;
    }

    /** Identity of two terms (an atom, [] or a literal against a register). */
    static int same(Term a, Term b, int next, int fail) { return a == b ? next : fail; }

    /** A small integer of this value (is_eq_exact against an integer literal). */
    static int small(Term v, long value, int next, int fail) {
        return v instanceof ESmall s && s.value == value ? next : fail;
    }

    /** A bit-syntax instruction's jump, or {@code next} when it continues (BitSyntax.NEXT). */
    static int orNext(int r, int next) { return r != BitSyntax.NEXT ? r : next; }

    /** A jump table's target, or {@code fail} when the value is not in it. */
    static int select(int target, int fail) { return target >= 0 ? target : fail; }

    /** The process stack, grown (doubled) when {@code need} slots do not fit: allocate's check. */
    static Term[] room(Term[] stk, int need) {
        if (need <= stk.length) return stk;
        int n = stk.length * 2;
        while (n < need) n *= 2;
        return java.util.Arrays.copyOf(stk, n);
    }

    /**
     * =:= of two terms (Term.equals), through one call site whose type profile holds many term
     * classes from the start: the loop's own call site had seen one or two when C2 compiled the
     * loop during boot, C2 inlined those behind a type guard, and the first other type threw
     * the loop away ("bimorphic" at is_eq_exact, ADR 0043).
     */
    static boolean equal(Term a, Term b) { return a.equals(b); }

    /** 1 when a fast path gave no result (null), else 0: the loop switches on it (ADR 0043). */
    static int isNull(Term r) { return r == null ? 1 : 0; }

    /** Counts a call towards compiling its target; true when this call reached the threshold. */
    static boolean counted(Instr in) {
        return in.hits < JitSupport.CALL_THRESHOLD && ++in.hits == JitSupport.CALL_THRESHOLD;
    }

    /**
     * Every method and every outcome, over values of several types, until the interpreter and
     * C1's profiling tier have recorded them all: a few milliseconds once per JVM (with the AOT
     * cache, the training run's profiles already hold them).
     */
    static {
        Term[] vs = {ESmall.of(1), ESmall.of(2), EAtom.of("ok"), ETuple.of(EAtom.of("ok"), ESmall.of(1)),
                ETuple.of(EAtom.of("error"), ESmall.of(1), ESmall.of(2)), EAtom.of("error"), new ECons(ESmall.of(1), ENil.NIL), ENil.NIL,
                new EFloat(1.5)};
        SelectTable small = new SelectTable(new Term[] {EAtom.of("ok"), ESmall.of(1)}, new int[] {3, 4});
        Term[] many = new Term[12];
        int[] targets = new int[12];
        for (int i = 0; i < many.length; i++) { many[i] = i % 2 == 0 ? EAtom.of("k" + i) : ESmall.of(i); targets[i] = i; }
        SelectTable large = new SelectTable(many, targets);
        Instr saturated = new Instr(0), fresh = new Instr(0);
        saturated.hits = JitSupport.CALL_THRESHOLD;
        // Misses, and probes that land on another key's slot first (a collision: the lookup
        // walks on), which the loop's compile otherwise saw as a trap (ADR 0043). The table has
        // 64 slots (SelectTable: load at most 1/4 for 12 keys); a quarter of the probes are picked to collide.
        Term[] probes = new Term[24];
        java.util.Set<Integer> used = new java.util.HashSet<>();
        for (Term k : many) if (k instanceof EAtom a) used.add(a.hashCode() & 63);
        for (int i = 0, n = 0, c = 0; n < probes.length; i++) {
            EAtom a = EAtom.of("probe" + i);
            boolean collides = used.contains(a.hashCode() & 63);
            if (collides ? c < probes.length / 4 : n - c < probes.length * 3 / 4) { probes[n++] = a; if (collides) c++; }
        }
        // Loaded before C2 compiles the loop: a call into a class not loaded yet is compiled as an
        // "unloaded" trap, and the first float operation of a program then threw the loop away.
        if (Floats.check(1.5) != 1.5) throw new AssertionError();
        Term[] stack = new Term[4];
        int sink = 0;
        for (int i = 0; i < 30_000; i++) {
            Term v = vs[i % vs.length], w = vs[(i / vs.length) % vs.length];
            sink += pick((i & 1) == 0, 1, 2);
            sink += arity(v, 2, 1, 2) + arity(v, 3, 1, 2);
            sink += tagged(v, 2, vs[2], 1, 2) + tagged(v, 3, vs[2], 1, 2);
            sink += same(v, w, 1, 2) + small(v, 1, 1, 2);
            sink += select(small.lookup(v), 5) + select(large.lookup(v), 5) + select(large.lookup(many[i % many.length]), 5)
                    + select(large.lookup(probes[i % probes.length]), 5);
            sink += orNext((i & 1) == 0 ? BitSyntax.NEXT : i, 3);
            fresh.hits = i % 3 == 0 ? JitSupport.CALL_THRESHOLD - 1 : 0;
            if (counted(fresh)) sink++;
            if (counted(saturated)) sink++;
            stack = room(i % 64 == 0 ? new Term[4] : stack, 2 + (i & 7));
            if (Interpreter.less(v, w)) sink++;
            if (equal(v, w)) sink++;
            // The loop's + - element fast paths over every type, and the small-integer overflow.
            Term hi = i % 11 == 0 ? ESmall.of(Long.MAX_VALUE) : v, lo = i % 11 == 0 ? ESmall.of(Long.MIN_VALUE) : v;
            sink += isNull(SmallInts.add(hi, w)) + isNull(SmallInts.sub(w, lo)) + isNull(SmallInts.add(v, w))
                    + isNull(SmallInts.sub(v, w)) + isNull(JitSupport.element(v, w)) + isNull(JitSupport.element(w, vs[3]));
        }
        if (sink == 42) System.out.print("");
    }

    /** Runs the static initialiser (called when the first interpreter is made, before the loop runs). */
    static void init() {}
}
