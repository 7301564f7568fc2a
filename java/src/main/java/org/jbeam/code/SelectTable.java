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
        for (int i = 0; i < values.length; i++) if (values[i].equals(v)) return targets[i];
        return -1;
    }

    /** Target for a tuple arity, or -1. */
    public int lookupArity(int arity) {
        for (int i = 0; i < values.length; i++)
            if (values[i] instanceof org.jbeam.term.ESmall s && s.value == arity) return targets[i];
        return -1;
    }
}
