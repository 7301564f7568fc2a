package org.jbeam.bif;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** erlang:memory/0,1 from the JVM's heap figures (jbeam has no per-type allocators). */
final class Memory {
    private Memory() {}

    private static final String[] ITEMS = {"total", "processes", "processes_used", "system", "atom", "atom_used", "binary", "code", "ets"};

    static long value(String item) {
        java.lang.Runtime r = java.lang.Runtime.getRuntime();
        long used = r.totalMemory() - r.freeMemory();
        return switch (item) {
            case "total" -> used;
            case "processes", "processes_used" -> used / 4;
            case "system" -> used - used / 4;
            case "atom", "atom_used" -> EAtom.count() * 64L;
            case "binary", "code", "ets" -> used / 16;
            default -> throw ErlangException.badarg();
        };
    }

    static Term all() {
        Term[] l = new Term[ITEMS.length];
        for (int i = 0; i < ITEMS.length; i++) l[i] = ETuple.of(EAtom.of(ITEMS[i]), ESmall.of(value(ITEMS[i])));
        return ECons.of(l);
    }

    static Term item(Term what) {
        if (what instanceof EAtom a) return ESmall.of(value(a.name));
        Term[] l = ECons.toArray(what);
        if (l == null) throw ErlangException.badarg();
        Term[] r = new Term[l.length];
        for (int i = 0; i < l.length; i++) {
            if (!(l[i] instanceof EAtom a)) throw ErlangException.badarg();
            r[i] = ETuple.of(a, ESmall.of(value(a.name)));
        }
        return ECons.of(r);
    }
}
