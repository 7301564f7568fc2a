package org.jbeam.code;

import java.util.HashMap;

import org.jbeam.term.EAtom;
import org.jbeam.term.Term;

/** Jump table of select_val / select_tuple_arity: value → instruction index. */
public final class SelectTable {
    private final Term[] values;
    private final int[] targets;
    private final HashMap<Term, Integer> index;
    /**
     * The atoms of a large table, open-addressed by the atom's cached hash and compared by
     * identity: a select_val on a message tag (gen_server's loop) then costs no megamorphic
     * hashCode/equals calls and no Integer unboxing (HashMap.get showed as 9% of bench_genserver).
     */
    private final EAtom[] atomKeys;
    private final int[] atomTargets;
    /** Every value is an atom or a small integer (the usual case): other terms cannot match. */
    private final boolean atomsAndSmallsOnly;

    public SelectTable(Term[] values, int[] targets) {
        this.values = values;
        this.targets = targets;
        boolean simple = true;
        for (Term v : values) simple &= v instanceof EAtom || v instanceof org.jbeam.term.ESmall;
        atomsAndSmallsOnly = simple;
        if (values.length > 8) {
            index = new HashMap<>(values.length * 2);
            for (int i = 0; i < values.length; i++) index.putIfAbsent(values[i], targets[i]);
            int size = Integer.highestOneBit(values.length * 4 - 1) << 1; // load ≤ 1/2
            atomKeys = new EAtom[size];
            atomTargets = new int[size];
            for (int i = 0; i < values.length; i++) {
                if (!(values[i] instanceof EAtom a)) continue;
                int j = a.hashCode() & (size - 1);
                while (atomKeys[j] != null && atomKeys[j] != a) j = (j + 1) & (size - 1);
                if (atomKeys[j] == null) { atomKeys[j] = a; atomTargets[j] = targets[i]; } // first wins
            }
        } else {
            index = null;
            atomKeys = null;
            atomTargets = null;
        }
    }

    /** Target for {@code v} (exact match, as select_val uses =:=), or -1. */
    /** The labels of the table (the bytecode tier's data-flow analysis needs every jump target). */
    public int[] targets() { return targets.clone(); }

    public int lookup(Term v) {
        if (index != null) {
            if (v instanceof EAtom a) {
                EAtom[] ks = atomKeys;
                int mask = ks.length - 1;
                for (int j = a.hashCode() & mask; ; j = (j + 1) & mask) {
                    EAtom k = ks[j];
                    if (k == a) return atomTargets[j];
                    if (k == null) return -1;
                }
            }
            if (atomsAndSmallsOnly && !(v instanceof org.jbeam.term.ESmall)) return -1;
            Integer t = index.get(v);
            return t == null ? -1 : t;
        }
        Term[] vs = values;
        // Atoms are interned and small integers compare by value: no virtual equals() on the
        // common select_val paths (message tags, return atoms, small integer cases).
        if (v instanceof org.jbeam.term.EAtom) {
            for (int i = 0; i < vs.length; i++) if (vs[i] == v) return targets[i];
            return -1;
        }
        if (v instanceof org.jbeam.term.ESmall s) {
            for (int i = 0; i < vs.length; i++) if (vs[i] instanceof org.jbeam.term.ESmall t && t.value == s.value) return targets[i];
            return -1;
        }
        // Any other term (a tuple, a pid...) can only match a bignum or float value.
        if (atomsAndSmallsOnly) return -1;
        for (int i = 0; i < vs.length; i++) if (vs[i].equals(v)) return targets[i];
        return -1;
    }

    /** select_tuple_arity: the target for {@code v}'s arity, or {@code fail} when v is no tuple or no arity matches. */
    public int selectTupleArity(Term v, int fail) {
        int t = v instanceof org.jbeam.term.ETuple tu ? lookupArity(tu.arity()) : -1;
        return t >= 0 ? t : fail;
    }

    /** Target for a tuple arity, or -1. */
    public int lookupArity(int arity) {
        for (int i = 0; i < values.length; i++)
            if (values[i] instanceof org.jbeam.term.ESmall s && s.value == arity) return targets[i];
        return -1;
    }
}
