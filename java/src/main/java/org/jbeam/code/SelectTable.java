package org.jbeam.code;

import java.util.HashMap;

import org.jbeam.term.Term;

/** Jump table of select_val / select_tuple_arity: value → instruction index. */
public final class SelectTable {
    private final Term[] values;
    private final int[] targets;
    private final HashMap<Term, Integer> index;

    public SelectTable(Term[] values, int[] targets) {
        this.values = values;
        this.targets = targets;
        if (values.length > 8) {
            index = new HashMap<>(values.length * 2);
            for (int i = 0; i < values.length; i++) index.putIfAbsent(values[i], targets[i]);
        } else index = null;
    }

    /** Target for {@code v} (exact match, as select_val uses =:=), or -1. */
    public int lookup(Term v) {
        if (index != null) {
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
