package org.jbeam.bif;

import java.util.ArrayList;
import java.util.List;

import org.jbeam.ets.*;
import org.jbeam.runtime.ErlProcess;
import org.jbeam.runtime.ErlangException;
import org.jbeam.term.*;

/**
 * The natively implemented functions of module {@code ets} (those with {@code erlang:nif_error}
 * bodies in OTP 25's ets.erl). The Erlang-coded rest of ets.erl (all/0, tab2list/1, foldl/3,
 * select_delete/2, delete_all_objects/1, …) runs from the real ets.beam on top of these.
 * Access rules as OTP: private tables only for the owner, protected ones written only by it.
 */
public final class EtsBifs implements BifModule {
    private static final String M = "ets";
    private static final EAtom END = EtsSelect.END, DOLLAR_DOLLAR = EAtom.of("$$"), DOLLAR_UNDERSCORE = EAtom.of("$_");

    @Override
    public void register(BifTable t) {
        t.bif2(M, "new", EtsInfo::newTable);
        t.bif1(M, "delete", EtsBifs::deleteTable);
        t.bif2(M, "delete", (p, tab, k) -> write(p, tab).delete(k) ? EAtom.TRUE : EAtom.TRUE);
        t.bif2(M, "internal_delete_all", (p, tab, u) -> ESmall.of(write(p, tab).deleteAll()));
        t.bif2(M, "delete_object", EtsBifs::deleteObject);
        t.bif1(M, "first", (p, tab) -> orEnd(read(p, tab).first()));
        t.bif1(M, "last", (p, tab) -> orEnd(read(p, tab).last()));
        t.bif2(M, "next", (p, tab, k) -> orEnd(read(p, tab).next(k)));
        t.bif2(M, "prev", (p, tab, k) -> orEnd(read(p, tab).prev(k)));
        t.bif3(M, "give_away", EtsBifs::giveAway);
        t.bif1(M, "info", EtsInfo::info);
        t.bif2(M, "info", EtsInfo::info);
        t.bif2(M, "insert", (p, tab, o) -> { EtsTable tb = write(p, tab); tb.insert(objects(tb, o)); return EAtom.TRUE; });
        t.bif2(M, "insert_new", (p, tab, o) -> { EtsTable tb = write(p, tab); return EAtom.of(tb.insertNew(objects(tb, o))); });
        t.bif1(M, "is_compiled_ms", (p, r) -> EAtom.of(EtsTables.of(p.vm).compiled(r) != null));
        t.bif2(M, "lookup", (p, tab, k) -> read(p, tab).lookup(k));
        t.bif3(M, "lookup_element", EtsBifs::lookupElement);
        t.bif2(M, "member", (p, tab, k) -> EAtom.of(read(p, tab).member(k)));
        t.bif2(M, "rename", EtsBifs::rename);
        t.bif2(M, "safe_fixtable", (p, tab, f) -> EtsInfo.safeFixtable(p, read(p, tab), f));
        t.bif2(M, "setopts", (p, tab, o) -> EtsInfo.setopts(p, table(p, tab), o));
        t.bif2(M, "slot", EtsBifs::slot);
        t.bif2(M, "take", (p, tab, k) -> write(p, tab).take(k));
        t.bif3(M, "update_counter", (p, tab, k, op) -> EtsUpdate.updateCounter(write(p, tab), k, op, null));
        t.bif4(M, "update_counter", (p, a) -> EtsUpdate.updateCounter(write(p, a[0]), a[1], a[2], a[3]));
        t.bif3(M, "update_element", (p, tab, k, s) -> EtsUpdate.updateElement(write(p, tab), k, s));
        t.bif1(M, "whereis", EtsBifs::whereis);
        t.bif0(M, "internal_request_all", EtsBifs::requestAll);

        t.bif1(M, "match_spec_compile", (p, ms) -> { EtsTables ts = EtsTables.of(p.vm); return ts.registerCompiled(ts.compile(ms, false)); });
        t.bif3(M, "match_spec_run_r", EtsBifs::matchSpecRunR);
        t.bif3("erlang", "match_spec_test", EtsBifs::matchSpecTest);

        t.bif2(M, "select", (p, tab, ms) -> select(p, tab, ms, false));
        t.bif3(M, "select", (p, tab, ms, n) -> selectLimit(p, tab, ms, n, false));
        t.bif1(M, "select", EtsBifs::resume);
        t.bif2(M, "select_reverse", (p, tab, ms) -> select(p, tab, ms, true));
        t.bif3(M, "select_reverse", (p, tab, ms, n) -> selectLimit(p, tab, ms, n, true));
        t.bif1(M, "select_reverse", EtsBifs::resume);
        t.bif2(M, "match", (p, tab, pat) -> select(p, tab, spec(pat, DOLLAR_DOLLAR), false));
        t.bif3(M, "match", (p, tab, pat, n) -> selectLimit(p, tab, spec(pat, DOLLAR_DOLLAR), n, false));
        t.bif1(M, "match", EtsBifs::resume);
        t.bif2(M, "match_object", (p, tab, pat) -> select(p, tab, spec(pat, DOLLAR_UNDERSCORE), false));
        t.bif3(M, "match_object", (p, tab, pat, n) -> selectLimit(p, tab, spec(pat, DOLLAR_UNDERSCORE), n, false));
        t.bif1(M, "match_object", EtsBifs::resume);
        t.bif2(M, "select_count", (p, tab, ms) -> {
            EtsTable tb = read(p, tab);
            return ESmall.of(EtsSelect.count(tb, EtsTables.of(p.vm).compile(ms, true), p));
        });
        t.bif2(M, "internal_select_delete", (p, tab, ms) -> {
            EtsTable tb = write(p, tab);
            return ESmall.of(EtsSelect.delete(tb, EtsTables.of(p.vm).compile(ms, true), p));
        });
        t.bif2(M, "select_replace", (p, tab, ms) -> {
            EtsTable tb = write(p, tab);
            return ESmall.of(EtsSelect.replace(tb, EtsTables.of(p.vm).compile(ms, true), p));
        });
    }

    /**
     * erlang:match_spec_test(Term, MatchSpec, table | trace) (ets:test_ms/2): {ok, Result, [], []}
     * with Result false when no clause matches, or {error, [{error, Text}]} for a spec that does
     * not compile. A trace spec runs as erlang:trace_pattern/3 runs it on an argument list: Result is
     * true, or the {message, X} value, and the flags list names return_trace or exception_trace.
     */
    private static Term matchSpecTest(ErlProcess p, Term term, Term ms, Term kind) {
        if (kind != EAtom.of("table") && kind != EAtom.of("trace")) throw ErlangException.badarg();
        org.jbeam.ets.MatchSpec spec = null;
        boolean trace = kind == EAtom.of("trace");
        String problem = null;
        try {
            spec = org.jbeam.ets.MatchSpec.compileExplained(ms, p.vm.bifs, trace);
        } catch (org.jbeam.ets.MatchSpec.Invalid e) {
            problem = e.getMessage();
        }
        if (problem != null)
            return ETuple.of(EAtom.ERROR, ECons.of(ETuple.of(EAtom.ERROR, IoLists.stringToCharlist(problem))));
        if (trace) {
            org.jbeam.ets.TraceActions out = new org.jbeam.ets.TraceActions();
            if (!spec.runTrace(term, p, out)) return ETuple.of(EAtom.OK, EAtom.FALSE, ENil.NIL, ENil.NIL);
            Term flags = out.exceptionTrace ? ECons.of(EAtom.of("exception_trace"))
                    : out.returnTrace ? ECons.of(EAtom.of("return_trace")) : ENil.NIL;
            return ETuple.of(EAtom.OK, out.message == null ? EAtom.TRUE : out.message, flags, ENil.NIL);
        }
        Term r = spec.run(term, p);
        return ETuple.of(EAtom.OK, r == null ? EAtom.FALSE : r, ENil.NIL, ENil.NIL);
    }

    // ---- table access ----

    private static final EAtom ERL_STDLIB_ERRORS = EAtom.of("erl_stdlib_errors");

    /**
     * badarg with the cause erts gives ets's BIFs (type, id, access, badkey, already_exists…), which
     * erl_stdlib_errors turns into the shell's explanation ("the table identifier does not refer
     * to an existing ETS table").
     */
    public static ErlangException badarg(String cause) { return ErlangException.badarg(cause, ERL_STDLIB_ERRORS); }

    /** The live table {@code id} names (no access check); badarg when none. */
    static EtsTable table(ErlProcess p, Term id) {
        if (!(id instanceof EAtom || id instanceof ERef)) throw badarg("type");
        EtsTable t = EtsTables.of(p.vm).resolve(id);
        if (t == null) throw badarg("id");
        return t;
    }

    static EtsTable read(ErlProcess p, Term id) {
        EtsTable t = table(p, id);
        if (t.protection == EtsTable.PRIVATE && !t.owner.equals(p.pid)) throw badarg("access");
        return t;
    }

    static EtsTable write(ErlProcess p, Term id) {
        EtsTable t = table(p, id);
        if (t.protection != EtsTable.PUBLIC && !t.owner.equals(p.pid)) throw badarg("access");
        return t;
    }

    private static Term orEnd(Term k) { return k == null ? END : k; }

    /** insert's argument: one object or a proper list of them, every one a tuple holding the key. */
    private static Term[] objects(EtsTable t, Term o) {
        Term[] objs = o instanceof ETuple ? new Term[] {o} : ECons.toArray(o);
        if (objs == null) throw ErlangException.badarg();
        for (Term x : objs) if (!t.validObject(x)) throw ErlangException.badarg();
        return objs;
    }

    // ---- individual BIFs ----

    private static Term deleteTable(ErlProcess p, Term tab) {
        EtsTable t = write(p, tab);
        EtsTables.of(p.vm).delete(t);
        return EAtom.TRUE;
    }

    private static Term deleteObject(ErlProcess p, Term tab, Term obj) {
        EtsTable t = write(p, tab);
        if (!t.validObject(obj)) throw ErlangException.badarg();
        t.deleteObject(obj);
        return EAtom.TRUE;
    }

    private static Term giveAway(ErlProcess p, Term tab, Term pid, Term data) {
        EtsTable t = table(p, tab);
        if (!(pid instanceof EPid to)) throw ErlangException.badarg();
        if (!t.owner.equals(p.pid)) throw badarg("not_owner");
        if (to.equals(p.pid)) throw badarg("owner");
        if (!EtsTables.alive(to)) throw ErlangException.badarg();
        EtsTables.of(p.vm).transfer(t, to, data);
        return EAtom.TRUE;
    }

    private static Term lookupElement(ErlProcess p, Term tab, Term key, Term pos) {
        EtsTable t = read(p, tab);
        if (!(pos instanceof ESmall ps) || ps.value < 1) throw ErlangException.badarg();
        Term[] objs = t.objectsAt(key);
        if (objs.length == 0) throw badarg("badkey");
        Term[] out = new Term[objs.length];
        for (int i = 0; i < objs.length; i++) {
            ETuple o = (ETuple) objs[i];
            if (ps.value > o.arity()) throw ErlangException.badarg();
            out[i] = o.get((int) ps.value - 1);
        }
        return t.isBag() ? ECons.of(out) : out[0];
    }

    private static Term rename(ErlProcess p, Term tab, Term name) {
        EtsTable t = write(p, tab);
        if (!(name instanceof EAtom n) || !EtsTables.of(p.vm).rename(t, n)) throw ErlangException.badarg();
        return t.tid();
    }

    private static Term slot(ErlProcess p, Term tab, Term i) {
        EtsTable t = read(p, tab);
        if (!(i instanceof ESmall s) || s.value < 0) throw ErlangException.badarg();
        return orEnd(t.slot(s.value));
    }

    private static Term whereis(ErlProcess p, Term name) {
        if (!(name instanceof EAtom a)) throw ErlangException.badarg();
        EtsTable t = EtsTables.of(p.vm).resolve(a);
        return t == null ? EAtom.UNDEFINED : t.ref;
    }

    /** ets:internal_request_all/0: ets:all/0 then receives one {Ref, Tables} per scheduler. */
    private static Term requestAll(ErlProcess p) {
        ERef ref = p.vm.makeRef();
        List<Term> ids = new ArrayList<>();
        for (EtsTable t : EtsTables.of(p.vm).all()) ids.add(t.tid());
        int n = p.vm.scheduler.count();
        for (int i = 0; i < n; i++) p.vm.sendTo(p.pid, ETuple.of(ref, i == 0 ? ECons.of(ids) : ENil.NIL));
        return ref;
    }

    private static Term matchSpecRunR(ErlProcess p, Term list, Term cms, Term acc) {
        MatchSpec ms = EtsTables.of(p.vm).compiled(cms);
        if (ms == null) throw ErlangException.badarg();
        return ms.runReversed(list, acc, p);
    }

    // ---- select family ----

    private static Term spec(Term pattern, Term body) {
        return ECons.of(ETuple.of(pattern, ENil.NIL, ECons.of(body)));
    }

    private static Term select(ErlProcess p, Term tab, Term ms, boolean reverse) {
        EtsTable t = read(p, tab);
        return EtsSelect.select(t, EtsTables.of(p.vm).compile(ms, true), p, reverse);
    }

    private static Term selectLimit(ErlProcess p, Term tab, Term ms, Term limit, boolean reverse) {
        EtsTable t = read(p, tab);
        EtsTables ts = EtsTables.of(p.vm);
        MatchSpec c = ts.compile(ms, true);
        if (!(limit instanceof ESmall n) || n.value <= 0) throw ErlangException.badarg();
        if (ms == ENil.NIL) return END;
        return EtsSelect.chunk(t, c, ts.registerCompiled(c), (int) Math.min(n.value, Integer.MAX_VALUE), p,
                reverse && t.type == EtsTable.Type.ORDERED_SET, null, 0);
    }

    private static Term resume(ErlProcess p, Term cont) {
        return EtsSelect.resume(EtsTables.of(p.vm), cont, p, id -> read(p, id));
    }
}
