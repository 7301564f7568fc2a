package org.jbeam.interp;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/** The map instructions: put_map_assoc, put_map_exact, has_map_fields, get_map_elements. */
final class Maps {
    private Maps() {}

    static Term putAssoc(Interpreter it, Term map, int[] kv) {
        if (!(map instanceof EMap m)) throw ErlangException.badmap(map);
        for (int i = 0; i < kv.length; i += 2) m = m.put(it.get(kv[i]), it.get(kv[i + 1]));
        return m;
    }

    static Term putExact(Interpreter it, Term map, int[] kv) {
        if (!(map instanceof EMap m)) throw ErlangException.badmap(map);
        for (int i = 0; i < kv.length; i += 2) {
            Term k = it.get(kv[i]);
            EMap n = m.update(k, it.get(kv[i + 1]));
            if (n == null) throw ErlangException.badkey(k);
            m = n;
        }
        return m;
    }

    static boolean hasFields(Interpreter it, Term map, int[] keys) {
        if (!(map instanceof EMap m)) return false;
        for (int k : keys) if (m.get(it.get(k)) == null) return false;
        return true;
    }

    /** Looks up every key; all present → destinations written, true; else false (nothing written). */
    static boolean getElements(Interpreter it, Term map, int[] kd) {
        if (!(map instanceof EMap m)) return false;
        Term[] vals = new Term[kd.length / 2];
        for (int i = 0; i < kd.length; i += 2) {
            Term v = m.get(it.get(kd[i]));
            if (v == null) return false;
            vals[i / 2] = v;
        }
        for (int i = 0; i < kd.length; i += 2) it.put(kd[i + 1], vals[i / 2]);
        return true;
    }
}
