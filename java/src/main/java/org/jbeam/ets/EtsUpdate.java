package org.jbeam.ets;

import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * ets:update_counter/3,4 and ets:update_element/3 on set and ordered_set tables: every
 * operation is validated before anything changes, and the read-modify-write is atomic.
 */
public final class EtsUpdate {
    private EtsUpdate() {}

    /** badarg, with the error_info cause erl_stdlib_errors explains when {@code cause} is not null. */
    private static ErlangException fail(String cause) {
        return cause == null ? ErlangException.badarg() : org.jbeam.bif.EtsBifs.badarg(cause);
    }

    /** One counter operation: position (1-based), increment, optional threshold and set value. */
    private record Op(long pos, Term incr, Term threshold, Term setValue) {}

    /** The operation a spec names, or null when its shape is wrong (a plain badarg). */
    private static Op op(EtsTable t, Term spec) {
        if (spec instanceof EInteger) return new Op(t.keypos + 1, spec, null, null);
        if (spec instanceof ETuple tu && (tu.arity() == 2 || tu.arity() == 4) && tu.get(0) instanceof ESmall pos && tu.get(1) instanceof EInteger) {
            if (tu.arity() == 2) return new Op(pos.value, tu.get(1), null, null);
            if (tu.get(2) instanceof EInteger && tu.get(3) instanceof EInteger) return new Op(pos.value, tu.get(1), tu.get(2), tu.get(3));
        }
        return null;
    }

    /**
     * update_counter; {@code dflt} is the default object or null. The checks run in erts' order,
     * each with its error_info cause: table type, then the key (badkey when it is absent and no
     * default is given, whatever the operations), then each operation in turn (its shape, its
     * position within the object, not the key, an integer there).
     */
    public static Term updateCounter(EtsTable t, Term key, Term spec, Term dflt) {
        if (t.isBag()) throw fail("table_type");
        synchronized (t) {
            Object cur = t.map.get(key);
            ETuple obj;
            if (cur != null) obj = (ETuple) cur;
            else if (dflt == null) throw fail("badkey");
            else if (!t.validObject(dflt)) throw fail(null);
            else obj = ((ETuple) dflt).with(t.keypos - 1, key);
            boolean many = spec instanceof ECons || spec == ENil.NIL;
            Term[] specs = many ? ECons.toArray(spec) : new Term[] {spec};
            if (specs == null) throw fail(null);
            Term[] el = obj.toArray();
            Op[] ops = new Op[specs.length];
            for (int i = 0; i < ops.length; i++) {
                Op o = op(t, specs[i]);
                if (o == null) throw fail(null);
                if (o.pos < 1 || o.pos > el.length) throw fail("position");
                if (o.pos == t.keypos) throw fail("keypos");
                if (!(el[(int) o.pos - 1] instanceof EInteger)) throw fail(null);
                ops[i] = o;
            }
            Term[] res = new Term[ops.length];
            for (int i = 0; i < res.length; i++) {
                Op o = ops[i];
                int at = (int) o.pos - 1;
                Term v = Arith.add(el[at], o.incr);
                if (o.threshold != null) {
                    boolean up = TermOrder.compare(o.incr, ESmall.ZERO) >= 0;
                    int c = TermOrder.compare(v, o.threshold);
                    if (up ? c > 0 : c < 0) v = o.setValue;
                }
                el[at] = v;
                res[i] = v;
            }
            t.replace(ETuple.of(el));
            return many ? ECons.of(res) : res[0];
        }
    }

    /**
     * update_element: true when the object existed and was updated, false when absent (then the
     * specs are not looked at, as in erts). A position that is the key's gives the keypos cause.
     */
    public static Term updateElement(EtsTable t, Term key, Term spec) {
        if (t.isBag()) throw fail(null);
        synchronized (t) {
            Object cur = t.map.get(key);
            if (cur == null) return EAtom.FALSE;
            Term[] specs = spec instanceof ETuple ? new Term[] {spec} : ECons.toArray(spec);
            if (specs == null) throw fail(null);
            Term[] el = ((ETuple) cur).toArray();
            for (Term s : specs) {
                if (!(s instanceof ETuple tu) || tu.arity() != 2 || !(tu.get(0) instanceof ESmall p)) throw fail(null);
                if (p.value == t.keypos) throw fail("keypos");
                if (p.value < 1 || p.value > el.length) throw fail(null);
            }
            for (Term s : specs) {
                ETuple tu = (ETuple) s;
                el[(int) ((ESmall) tu.get(0)).value - 1] = tu.get(1);
            }
            t.replace(ETuple.of(el));
            return EAtom.TRUE;
        }
    }
}
