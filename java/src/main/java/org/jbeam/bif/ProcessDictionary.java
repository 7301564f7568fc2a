package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.jbeam.term.*;

/** The process dictionary BIFs: put/2, get/0,1, erase/0,1, get_keys/0,1. */
final class ProcessDictionary {
    private ProcessDictionary() {}

    static void register(BifTable t) {
        t.bif2("erlang", "put", (p, k, v) -> { Term old = p.dict().put(k, v); return old == null ? EAtom.UNDEFINED : old; });
        t.bif1("erlang", "get", (p, k) -> {
            Term v = p.dictionary == null ? null : p.dictionary.get(k);
            return v == null ? EAtom.UNDEFINED : v;
        });
        t.bif0("erlang", "get", p -> {
            List<Term> l = new ArrayList<>();
            if (p.dictionary != null) for (Map.Entry<Term, Term> e : p.dictionary.entrySet()) l.add(ETuple.of(e.getKey(), e.getValue()));
            return ECons.of(l);
        });
        t.bif1("erlang", "erase", (p, k) -> {
            Term v = p.dictionary == null ? null : p.dictionary.remove(k);
            return v == null ? EAtom.UNDEFINED : v;
        });
        t.bif0("erlang", "erase", p -> {
            List<Term> l = new ArrayList<>();
            if (p.dictionary != null) {
                for (Map.Entry<Term, Term> e : p.dictionary.entrySet()) l.add(ETuple.of(e.getKey(), e.getValue()));
                p.dictionary.clear();
            }
            return ECons.of(l);
        });
        t.bif0("erlang", "get_keys", p -> ECons.of(p.dictionary == null ? List.of() : new ArrayList<>(p.dictionary.keySet())));
        t.bif1("erlang", "get_keys", (p, v) -> {
            List<Term> l = new ArrayList<>();
            if (p.dictionary != null) for (Map.Entry<Term, Term> e : p.dictionary.entrySet()) if (e.getValue().equals(v)) l.add(e.getKey());
            return ECons.of(l);
        });
    }
}
