package org.jbeam.bif;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** port_set_data/port_get_data: one term per port. */
final class PortData {
    private PortData() {}

    private static final ConcurrentHashMap<Term, Term> DATA = new ConcurrentHashMap<>();

    static void set(Term port, Term d) {
        if (!(port instanceof EPort) && !(port instanceof EAtom)) throw ErlangException.badarg();
        DATA.put(port, d);
    }

    static Term get(Term port) {
        Term d = DATA.get(port);
        if (d == null) throw ErlangException.badarg();
        return d;
    }
}
