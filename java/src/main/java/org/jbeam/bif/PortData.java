package org.jbeam.bif;

import java.util.concurrent.ConcurrentHashMap;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** port_set_data/port_get_data: one term per port. */
final class PortData {
    private PortData() {}

    private static final ConcurrentHashMap<Term, Term> DATA = new ConcurrentHashMap<>();

    /** An open port keeps its data itself (dropped when it closes); a closed port has none (badarg). */
    static void set(org.jbeam.runtime.Ports.Port open, Term port, Term d) {
        if (open != null) { open.data = d; return; }
        if (port instanceof EPort) throw ErlangException.badarg();
        set(port, d);
    }

    static Term get(org.jbeam.runtime.Ports.Port open, Term port) {
        if (open != null) {
            Term d = open.data;
            if (d == null) throw ErlangException.badarg();
            return d;
        }
        if (port instanceof EPort) throw ErlangException.badarg();
        return get(port);
    }

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
