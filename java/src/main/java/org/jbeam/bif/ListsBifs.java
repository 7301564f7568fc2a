package org.jbeam.bif;

import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The C-implemented functions of module {@code lists} in OTP 25 (erl_bif_lists.c):
 * {@code reverse/2}, {@code member/2}, {@code keyfind/3}, {@code keymember/3},
 * {@code keysearch/3}. {@code member} compares with {@code =:=}; the key functions with
 * {@code ==}, also inside compound keys (so {@code lists:keyfind(1, 1, [{1.0,a}])} finds the tuple). A list that turns out
 * improper before the search ends raises badarg.
 */
public final class ListsBifs implements BifModule {
    private static final String M = "lists";
    private static final EAtom VALUE = EAtom.of("value");

    @Override public void register(BifTable t) {
        t.bif2(M, "reverse", ListsBifs::reverse);
        t.bif2(M, "member", ListsBifs::member);
        t.bif3(M, "keyfind", ListsBifs::keyfind);
        t.bif3(M, "keymember", (p, k, n, l) -> EAtom.of(find(k, n, l) != null));
        t.bif3(M, "keysearch", (p, k, n, l) -> {
            Term r = find(k, n, l);
            return r == null ? EAtom.FALSE : ETuple.of(VALUE, r);
        });
    }

    /** {@code reverse(List, Tail)}: List must be proper; Tail may be anything. */
    public static Term reverse(ErlProcess p, Term list, Term tail) {
        if (ECons.length(list) < 0) throw ErlangException.badarg();
        Term r = tail;
        for (Term l = list; l instanceof ECons c; l = c.tail) r = new ECons(c.head, r);
        return r;
    }

    public static Term member(ErlProcess p, Term e, Term list) {
        Term l = list;
        while (l instanceof ECons c) {
            if (c.head.equals(e)) return EAtom.TRUE;
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        return EAtom.FALSE;
    }

    public static Term keyfind(ErlProcess p, Term k, Term n, Term list) {
        Term r = find(k, n, list);
        return r == null ? EAtom.FALSE : r;
    }

    /** The first tuple whose N-th element {@code ==} K, or null. */
    static Term find(Term k, Term n, Term list) {
        if (!(n instanceof ESmall ns) || ns.value < 1) throw ErlangException.badarg();
        int pos = (int) Math.min(ns.value, Integer.MAX_VALUE) - 1;
        Term l = list;
        while (l instanceof ECons c) {
            if (c.head instanceof ETuple t && t.arity() > pos) {
                Term x = t.get(pos);
                if (x == k || TermOrder.eq(x, k)) return t;
            }
            l = c.tail;
        }
        if (l != ENil.NIL) throw ErlangException.badarg();
        return null;
    }
}
