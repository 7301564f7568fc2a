package org.jbeam.ets;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * ets:update_counter/3,4 and ets:update_element/3 on set and ordered_set tables: every
 * operation is validated before anything changes, and the read-modify-write is atomic.
 */
public final class EtsUpdate {
    private EtsUpdate() {}

    /** One counter operation: position (1-based), increment, optional threshold and set value. */
    private record Op(int pos, Term incr, Term threshold, Term setValue) {}

    private static Op op(EtsTable t, Term spec) {
        if (spec instanceof EInteger) return new Op(t.keypos + 1, spec, null, null);
        if (spec instanceof ETuple tu && (tu.arity() == 2 || tu.arity() == 4)
                && tu.get(0) instanceof ESmall pos && pos.value >= 1 && pos.value <= Integer.MAX_VALUE && tu.get(1) instanceof EInteger) {
            if (tu.arity() == 2) return new Op((int) pos.value, tu.get(1), null, null);
            if (tu.get(2) instanceof EInteger && tu.get(3) instanceof EInteger) return new Op((int) pos.value, tu.get(1), tu.get(2), tu.get(3));
        }
        throw ErlangException.badarg();
    }

    /** update_counter; {@code dflt} is the default object or null. */
    public static Term updateCounter(EtsTable t, Term key, Term spec, Term dflt) {
        if (t.isBag()) throw ErlangException.badarg();
        boolean many = spec instanceof ECons || spec == ENil.NIL;
        List<Op> ops = new ArrayList<>();
        if (many) {
            Term[] a = ECons.toArray(spec);
            if (a == null) throw ErlangException.badarg();
            for (Term s : a) ops.add(op(t, s));
        } else {
            ops.add(op(t, spec));
        }
        if (dflt != null && !t.validObject(dflt)) throw ErlangException.badarg();
        synchronized (t) {
            Object cur = t.map.get(key);
            ETuple obj;
            if (cur != null) obj = (ETuple) cur;
            else if (dflt != null) obj = ((ETuple) dflt).with(t.keypos - 1, key);
            else throw ErlangException.badarg();
            Term[] el = obj.toArray();
            for (Op o : ops)
                if (o.pos > el.length || o.pos == t.keypos || !(el[o.pos - 1] instanceof EInteger)) throw ErlangException.badarg();
            Term[] res = new Term[ops.size()];
            for (int i = 0; i < res.length; i++) {
                Op o = ops.get(i);
                Term v = Arith.add(el[o.pos - 1], o.incr);
                if (o.threshold != null) {
                    boolean up = TermOrder.compare(o.incr, ESmall.ZERO) >= 0;
                    int c = TermOrder.compare(v, o.threshold);
                    if (up ? c > 0 : c < 0) v = o.setValue;
                }
                el[o.pos - 1] = v;
                res[i] = v;
            }
            t.replace(ETuple.of(el));
            return many ? ECons.of(res) : res[0];
        }
    }

    /** update_element: true when the object existed and was updated, false when absent. */
    public static Term updateElement(EtsTable t, Term key, Term spec) {
        if (t.isBag()) throw ErlangException.badarg();
        Term[] specs = spec instanceof ETuple ? new Term[] {spec} : ECons.toArray(spec);
        if (specs == null) throw ErlangException.badarg();
        int[] pos = new int[specs.length];
        for (int i = 0; i < specs.length; i++) {
            if (!(specs[i] instanceof ETuple tu) || tu.arity() != 2 || !(tu.get(0) instanceof ESmall p)
                    || p.value < 1 || p.value > Integer.MAX_VALUE || p.value == t.keypos) throw ErlangException.badarg();
            pos[i] = (int) p.value;
        }
        synchronized (t) {
            Object cur = t.map.get(key);
            if (cur == null) return EAtom.FALSE;
            Term[] el = ((ETuple) cur).toArray();
            for (int p : pos) if (p > el.length) throw ErlangException.badarg();
            for (int i = 0; i < specs.length; i++) el[pos[i] - 1] = ((ETuple) specs[i]).get(1);
            t.replace(ETuple.of(el));
            return EAtom.TRUE;
        }
    }
}
