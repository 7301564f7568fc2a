package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * persistent_term: a node-wide key → term store. Terms are immutable and shared anyway, so a
 * concurrent map gives OTP's semantics (constant-time get, no copying) without its GC tricks.
 */
public final class PersistentTermBifs implements BifModule {
    private final Map<Term, Term> store = new ConcurrentHashMap<>();

    @Override
    public void register(BifTable t) {
        String m = "persistent_term";
        t.bif2(m, "put", (p, k, v) -> { store.put(k, v); return EAtom.OK; });
        t.bif1(m, "get", (p, k) -> {
            Term v = store.get(k);
            if (v == null) throw ErlangException.badarg();
            return v;
        });
        t.bif2(m, "get", (p, k, d) -> { Term v = store.get(k); return v == null ? d : v; });
        t.bif1(m, "erase", (p, k) -> EAtom.of(store.remove(k) != null));
        t.bif0(m, "get", p -> {
            List<Term> l = new ArrayList<>();
            for (var e : store.entrySet()) l.add(ETuple.of(e.getKey(), e.getValue()));
            return ECons.of(l);
        });
        t.bif0(m, "info", p -> EMap.of(new Term[] {EAtom.of("count"), EAtom.of("memory")},
                new Term[] {ESmall.of(store.size()), ESmall.of(store.size() * 64L)}));
    }
}
